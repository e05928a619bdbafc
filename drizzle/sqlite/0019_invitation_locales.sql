CREATE TABLE `invitation_locales` (
	`invitation_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`locale` text NOT NULL,
	FOREIGN KEY (`invitation_id`) REFERENCES `invitations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "invitation_locales_locale_check" CHECK(locale IN ('en', 'es', 'fr', 'de', 'pt', 'zh'))
);
