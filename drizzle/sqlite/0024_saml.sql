CREATE TABLE `saml_assertions_seen` (
	`tenant_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`assertion_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`provider_id`, `assertion_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`provider_id`) REFERENCES `identity_providers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saml_assertions_seen_expires_idx` ON `saml_assertions_seen` (`expires_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
-- drizzle's migrator runs in one transaction, where the PRAGMA above does nothing: dropping the old
-- table would cascade to the providers' domains and sign-ins under way. They are kept aside and put back.
CREATE TABLE `__saved_identity_provider_domains` AS SELECT * FROM `identity_provider_domains`;--> statement-breakpoint
CREATE TABLE `__saved_sso_login_states` AS SELECT * FROM `sso_login_states`;--> statement-breakpoint
CREATE TABLE `__new_identity_providers` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`label` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`issuer` text NOT NULL,
	`client_id` text,
	`client_secret_sealed` text,
	`scopes` text DEFAULT 'openid email profile' NOT NULL,
	`require_sso` integer DEFAULT false NOT NULL,
	`role_claim` text,
	`saml_sso_url` text,
	`saml_idp_certs` text,
	`saml_sp_cert` text,
	`saml_sp_key_sealed` text,
	`role_map` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "identity_providers_kind_check" CHECK(kind IN ('oidc', 'saml')),
	CONSTRAINT "identity_providers_oidc_client_check" CHECK(kind <> 'oidc' OR (client_id IS NOT NULL AND client_secret_sealed IS NOT NULL)),
	CONSTRAINT "identity_providers_saml_check" CHECK(kind <> 'saml' OR (saml_sso_url IS NOT NULL AND saml_idp_certs IS NOT NULL AND saml_sp_cert IS NOT NULL AND saml_sp_key_sealed IS NOT NULL))
);
--> statement-breakpoint
INSERT INTO `__new_identity_providers`("id", "tenant_id", "kind", "label", "enabled", "issuer", "client_id", "client_secret_sealed", "scopes", "require_sso", "role_claim", "saml_sso_url", "saml_idp_certs", "saml_sp_cert", "saml_sp_key_sealed", "role_map", "created_at", "updated_at") SELECT "id", "tenant_id", "kind", "label", "enabled", "issuer", "client_id", "client_secret_sealed", "scopes", "require_sso", "role_claim", NULL, NULL, NULL, NULL, "role_map", "created_at", "updated_at" FROM `identity_providers`;--> statement-breakpoint
DROP TABLE `identity_providers`;--> statement-breakpoint
ALTER TABLE `__new_identity_providers` RENAME TO `identity_providers`;--> statement-breakpoint
INSERT INTO `identity_provider_domains` SELECT * FROM `__saved_identity_provider_domains`;--> statement-breakpoint
INSERT INTO `sso_login_states` SELECT * FROM `__saved_sso_login_states`;--> statement-breakpoint
DROP TABLE `__saved_identity_provider_domains`;--> statement-breakpoint
DROP TABLE `__saved_sso_login_states`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `identity_providers_tenant_idx` ON `identity_providers` (`tenant_id`);