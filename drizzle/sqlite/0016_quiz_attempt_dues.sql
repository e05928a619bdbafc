CREATE TABLE `quiz_attempt_dues` (
	`attempt_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`late` integer NOT NULL,
	FOREIGN KEY (`attempt_id`) REFERENCES `quiz_attempts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
