DROP INDEX `entry_progress_course_idx`;--> statement-breakpoint
CREATE INDEX `entry_progress_course_idx` ON `entry_progress` (`tenant_id`,`course_slug`,`entry_slug`,`completed_at`);--> statement-breakpoint
DROP INDEX `quiz_attempts_course_idx`;--> statement-breakpoint
CREATE INDEX `quiz_attempts_course_idx` ON `quiz_attempts` (`tenant_id`,`course_slug`,`entry_slug`,`attempt_number`,`score`);--> statement-breakpoint
CREATE INDEX `enrollments_roster_idx` ON `enrollments` (`tenant_id`,`course_slug`,`enrolled_at`);