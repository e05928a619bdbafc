CREATE TABLE `job_mails` (
	`job_id` text NOT NULL,
	`seq` integer NOT NULL,
	`sent_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`job_id`, `seq`)
);
