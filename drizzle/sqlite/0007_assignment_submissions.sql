CREATE TABLE `assignment_submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`course_slug` text NOT NULL,
	`entry_slug` text NOT NULL,
	`submission_number` integer NOT NULL,
	`text_answer` text,
	`link_url` text,
	`status` text DEFAULT 'submitted' NOT NULL,
	`score` integer,
	`max_score` integer,
	`passed` integer,
	`feedback` text,
	`graded_by` text,
	`graded_at` integer,
	`submitted_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`graded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "assignment_submissions_number_check" CHECK(submission_number >= 1),
	CONSTRAINT "assignment_submissions_score_check" CHECK(score IS NULL OR (score >= 0 AND score <= max_score)),
	CONSTRAINT "assignment_submissions_status_check" CHECK(status IN ('submitted', 'returned', 'graded'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assignment_submissions_unique` ON `assignment_submissions` (`user_id`,`tenant_id`,`course_slug`,`entry_slug`,`submission_number`);--> statement-breakpoint
CREATE INDEX `assignment_submissions_queue_idx` ON `assignment_submissions` (`tenant_id`,`course_slug`,`status`,`submitted_at`);--> statement-breakpoint
CREATE TABLE `file_chunks` (
	`file_id` text NOT NULL,
	`seq` integer NOT NULL,
	`data` blob NOT NULL,
	PRIMARY KEY(`file_id`, `seq`),
	FOREIGN KEY (`file_id`) REFERENCES `submission_files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `submission_files` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`submission_id` text,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submission_id`) REFERENCES `assignment_submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "submission_files_size_check" CHECK(size_bytes >= 0)
);
--> statement-breakpoint
CREATE INDEX `submission_files_submission_idx` ON `submission_files` (`submission_id`);