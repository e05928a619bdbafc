-- Written by hand from drizzle-kit's output: its PRAGMA foreign_keys=OFF is a no-op inside the
-- migrator's transaction, so dropping api_keys while api_idempotency rows named it failed. Here the
-- stored answers wait in a plain copy while both tables are rebuilt (tenant_id nullable for platform
-- keys, decision 0087), then come back: nothing is lost and no foreign key is ever broken.
CREATE TABLE `__keep_api_idempotency` AS SELECT * FROM `api_idempotency`;--> statement-breakpoint
DROP TABLE `api_idempotency`;--> statement-breakpoint
CREATE TABLE `__new_api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text,
	`name` text NOT NULL,
	`scope` text NOT NULL,
	`course_slug` text,
	`prefix` text NOT NULL,
	`secret_hash` text NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_used_at` integer,
	`last_used_ip` text,
	`revoked_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "api_keys_scope_check" CHECK(scope IN ('read', 'read_write')),
	CONSTRAINT "api_keys_platform_course_check" CHECK(tenant_id IS NOT NULL OR course_slug IS NULL)
);
--> statement-breakpoint
INSERT INTO `__new_api_keys`("id", "tenant_id", "name", "scope", "course_slug", "prefix", "secret_hash", "created_by", "created_at", "last_used_at", "last_used_ip", "revoked_at") SELECT "id", "tenant_id", "name", "scope", "course_slug", "prefix", "secret_hash", "created_by", "created_at", "last_used_at", "last_used_ip", "revoked_at" FROM `api_keys`;--> statement-breakpoint
DROP TABLE `api_keys`;--> statement-breakpoint
ALTER TABLE `__new_api_keys` RENAME TO `api_keys`;--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_secret_hash_unique` ON `api_keys` (`secret_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_tenant_created_idx` ON `api_keys` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `api_idempotency` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text,
	`key_id` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer,
	`response_body` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `api_idempotency`("id", "tenant_id", "key_id", "idempotency_key", "request_hash", "status", "response_body", "created_at") SELECT "id", "tenant_id", "key_id", "idempotency_key", "request_hash", "status", "response_body", "created_at" FROM `__keep_api_idempotency`;--> statement-breakpoint
DROP TABLE `__keep_api_idempotency`;--> statement-breakpoint
CREATE UNIQUE INDEX `api_idempotency_key_unique` ON `api_idempotency` (`key_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `api_idempotency_created_idx` ON `api_idempotency` (`created_at`);
