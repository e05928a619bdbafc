CREATE TABLE `rate_limit_windows` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`expires_at_ms` integer NOT NULL
);
