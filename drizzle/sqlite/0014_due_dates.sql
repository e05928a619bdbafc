CREATE TABLE `calendar_feeds` (
	`user_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`nonce` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_user_unique` ON `calendar_feeds` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token_unique` ON `calendar_feeds` (`token_hash`);--> statement-breakpoint
CREATE TABLE `due_extensions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`course_slug` text NOT NULL,
	`entry_slug` text NOT NULL,
	`due_at` integer NOT NULL,
	`reason` text NOT NULL,
	`granted_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`granted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `due_extensions_unique` ON `due_extensions` (`tenant_id`,`user_id`,`course_slug`,`entry_slug`);--> statement-breakpoint
CREATE INDEX `due_extensions_course_idx` ON `due_extensions` (`tenant_id`,`course_slug`);--> statement-breakpoint
CREATE TABLE `user_settings` (
	`user_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`time_zone` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_settings_unique` ON `user_settings` (`tenant_id`,`user_id`);--> statement-breakpoint
ALTER TABLE `assignment_submissions` ADD `due_at` integer;--> statement-breakpoint
ALTER TABLE `assignment_submissions` ADD `late` integer DEFAULT false NOT NULL;