CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`actor_user_id` text,
	`action` text NOT NULL,
	`target_kind` text NOT NULL,
	`target_id` text,
	`tenant_id` text,
	`metadata` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_tenant_created_idx` ON `audit_log` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_created_idx` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_user_id`);--> statement-breakpoint
CREATE TABLE `course_admin_assignments` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`course_slug` text NOT NULL,
	`assigned_by` text,
	`assigned_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assigned_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `course_admin_assignments_unique` ON `course_admin_assignments` (`user_id`,`tenant_id`,`course_slug`);--> statement-breakpoint
CREATE INDEX `course_admin_assignments_course_idx` ON `course_admin_assignments` (`tenant_id`,`course_slug`);--> statement-breakpoint
CREATE TABLE `enrollments` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`course_slug` text NOT NULL,
	`status` text NOT NULL,
	`enrolled_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "enrollments_status_check" CHECK(status IN ('pending', 'active', 'completed', 'cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `enrollments_unique` ON `enrollments` (`tenant_id`,`user_id`,`course_slug`);--> statement-breakpoint
CREATE INDEX `enrollments_course_idx` ON `enrollments` (`tenant_id`,`course_slug`,`status`);--> statement-breakpoint
CREATE TABLE `entry_progress` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`course_slug` text NOT NULL,
	`entry_slug` text NOT NULL,
	`completed_at` integer,
	`last_viewed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `entry_progress_unique` ON `entry_progress` (`user_id`,`tenant_id`,`course_slug`,`entry_slug`);--> statement-breakpoint
CREATE INDEX `entry_progress_course_idx` ON `entry_progress` (`tenant_id`,`course_slug`,`entry_slug`);--> statement-breakpoint
CREATE INDEX `entry_progress_resume_idx` ON `entry_progress` (`user_id`,`tenant_id`,`last_viewed_at`);--> statement-breakpoint
CREATE TABLE `invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`tenant_id` text NOT NULL,
	`role` text NOT NULL,
	`course_slug` text,
	`token_hash` text NOT NULL,
	`invited_by` text,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "invitations_role_check" CHECK(role IN ('student', 'course_admin', 'tenant_admin')),
	CONSTRAINT "invitations_course_slug_check" CHECK(role <> 'course_admin' OR course_slug IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_token_hash_unique` ON `invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `invitations_tenant_email_idx` ON `invitations` (`tenant_id`,`email`);--> statement-breakpoint
CREATE TABLE `oauth_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`provider` text NOT NULL,
	`provider_account_id` text NOT NULL,
	`avatar_url` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_accounts_identity_unique` ON `oauth_accounts` (`tenant_id`,`provider`,`provider_account_id`);--> statement-breakpoint
CREATE INDEX `oauth_accounts_user_idx` ON `oauth_accounts` (`user_id`);--> statement-breakpoint
CREATE TABLE `quiz_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`course_slug` text NOT NULL,
	`entry_slug` text NOT NULL,
	`attempt_number` integer NOT NULL,
	`score` integer NOT NULL,
	`passed` integer NOT NULL,
	`answers_json` text NOT NULL,
	`feedback_json` text NOT NULL,
	`started_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`submitted_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "quiz_attempts_number_check" CHECK(attempt_number >= 1),
	CONSTRAINT "quiz_attempts_score_check" CHECK(score BETWEEN 0 AND 100)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quiz_attempts_unique` ON `quiz_attempts` (`user_id`,`tenant_id`,`course_slug`,`entry_slug`,`attempt_number`);--> statement-breakpoint
CREATE INDEX `quiz_attempts_course_idx` ON `quiz_attempts` (`tenant_id`,`course_slug`,`entry_slug`);--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`feature_flags_json` text DEFAULT '{}' NOT NULL,
	`custom_domain` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`suspended_at` integer,
	CONSTRAINT "tenants_status_check" CHECK(status IN ('active', 'suspended', 'archived'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_slug_unique` ON `tenants` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_custom_domain_unique` ON `tenants` (`custom_domain`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text,
	`email` text NOT NULL,
	`password_hash` text DEFAULT '' NOT NULL,
	`role` text DEFAULT 'student' NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`locale` text DEFAULT 'en' NOT NULL,
	`email_verified_at` integer,
	`token_version` integer DEFAULT 0 NOT NULL,
	`deactivated_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "users_role_check" CHECK(role IN ('student', 'course_admin', 'tenant_admin', 'super_admin')),
	CONSTRAINT "users_locale_check" CHECK(locale IN ('en', 'es', 'fr', 'de', 'pt', 'zh')),
	CONSTRAINT "users_tenant_role_check" CHECK((role = 'super_admin') = (tenant_id IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_tenant_email_unique` ON `users` (`tenant_id`,`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_platform_email_unique` ON `users` (`email`) WHERE tenant_id IS NULL;--> statement-breakpoint
CREATE INDEX `users_tenant_created_idx` ON `users` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `users_tenant_role_idx` ON `users` (`tenant_id`,`role`);--> statement-breakpoint
CREATE TABLE `verification_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`type` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "verification_tokens_type_check" CHECK(type IN ('email_verify', 'password_reset', 'magic_link', 'email_change'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `verification_tokens_hash_unique` ON `verification_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `verification_tokens_user_idx` ON `verification_tokens` (`user_id`,`type`);