CREATE TABLE `certificates` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`course_slug` text NOT NULL,
	`public_id` text NOT NULL,
	`recipient_name` text NOT NULL,
	`course_title` text NOT NULL,
	`credential_json` text NOT NULL,
	`key_version` integer NOT NULL,
	`status_list` integer NOT NULL,
	`status_index` integer NOT NULL,
	`issued_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`revoked_at` integer,
	`revoked_reason` text,
	`revoked_by` text,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`revoked_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "certificates_status_check" CHECK(status_list >= 1 AND status_index >= 0 AND status_index < 131072),
	CONSTRAINT "certificates_revoked_check" CHECK((revoked_at IS NULL) = (revoked_reason IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_public_id_unique` ON `certificates` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_live_unique` ON `certificates` (`tenant_id`,`user_id`,`course_slug`) WHERE revoked_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_status_unique` ON `certificates` (`tenant_id`,`status_list`,`status_index`);--> statement-breakpoint
CREATE INDEX `certificates_course_idx` ON `certificates` (`tenant_id`,`course_slug`,`issued_at`);--> statement-breakpoint
CREATE INDEX `certificates_user_idx` ON `certificates` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `signing_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`version` integer NOT NULL,
	`public_key_multibase` text NOT NULL,
	`secret_key_sealed` text NOT NULL,
	`kek_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`retired_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "signing_keys_version_check" CHECK(version >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signing_keys_version_unique` ON `signing_keys` (`tenant_id`,`version`);--> statement-breakpoint
CREATE UNIQUE INDEX `signing_keys_current_unique` ON `signing_keys` (`tenant_id`) WHERE retired_at IS NULL;