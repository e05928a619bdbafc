DROP INDEX `users_tenant_role_idx`;--> statement-breakpoint
CREATE INDEX `users_tenant_role_created_idx` ON `users` (`tenant_id`,`role`,`created_at`);--> statement-breakpoint
CREATE INDEX `users_tenant_deactivated_idx` ON `users` (`tenant_id`,`created_at`) WHERE deactivated_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `users_tenant_unverified_idx` ON `users` (`tenant_id`,`created_at`) WHERE email_verified_at IS NULL;