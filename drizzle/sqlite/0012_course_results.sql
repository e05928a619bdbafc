CREATE TABLE `course_passes` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`course_slug` text NOT NULL,
	`passed` integer NOT NULL,
	`average` integer,
	`passed_at` integer,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "course_passes_average_check" CHECK(average IS NULL OR (average >= 0 AND average <= 100))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `course_passes_unique` ON `course_passes` (`tenant_id`,`user_id`,`course_slug`);--> statement-breakpoint
CREATE INDEX `course_passes_course_idx` ON `course_passes` (`tenant_id`,`course_slug`);--> statement-breakpoint
CREATE TABLE `second_chances` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`course_slug` text NOT NULL,
	`entry_slug` text NOT NULL,
	`kind` text NOT NULL,
	`extra_attempts` integer DEFAULT 0 NOT NULL,
	`after_number` integer DEFAULT 0 NOT NULL,
	`reason` text NOT NULL,
	`granted_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`granted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "second_chances_kind_check" CHECK(kind IN ('quiz_attempts', 'assignment_reopen')),
	CONSTRAINT "second_chances_extra_check" CHECK(extra_attempts >= 0 AND extra_attempts <= 10)
);
--> statement-breakpoint
CREATE INDEX `second_chances_entry_idx` ON `second_chances` (`tenant_id`,`user_id`,`course_slug`,`entry_slug`);