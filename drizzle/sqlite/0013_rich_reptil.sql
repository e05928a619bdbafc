CREATE TABLE `invitation_courses` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`invitation_id` text NOT NULL,
	`course_slug` text NOT NULL,
	`granted_by` text,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invitation_id`) REFERENCES `invitations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`granted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitation_courses_unique` ON `invitation_courses` (`invitation_id`,`course_slug`);--> statement-breakpoint
CREATE INDEX `invitation_courses_tenant_idx` ON `invitation_courses` (`tenant_id`,`invitation_id`);--> statement-breakpoint
CREATE TABLE `invitation_names` (
	`invitation_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	FOREIGN KEY (`invitation_id`) REFERENCES `invitations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
-- One open invitation per address and tenant (decision 0040): twins made before this index keep the newest.
DELETE FROM `invitations` WHERE `accepted_at` IS NULL AND EXISTS (SELECT 1 FROM `invitations` o WHERE o.`tenant_id` = `invitations`.`tenant_id` AND o.`email` = `invitations`.`email` AND o.`accepted_at` IS NULL AND (o.`expires_at` > `invitations`.`expires_at` OR (o.`expires_at` = `invitations`.`expires_at` AND o.`id` > `invitations`.`id`)));--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_open_unique` ON `invitations` (`tenant_id`,`email`) WHERE accepted_at IS NULL;