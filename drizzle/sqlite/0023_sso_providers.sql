CREATE TABLE `identity_provider_domains` (
	`tenant_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`domain` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `domain`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`provider_id`) REFERENCES `identity_providers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `identity_provider_domains_provider_idx` ON `identity_provider_domains` (`provider_id`);--> statement-breakpoint
CREATE TABLE `identity_providers` (
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
	`role_map` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "identity_providers_kind_check" CHECK(kind IN ('oidc')),
	CONSTRAINT "identity_providers_oidc_client_check" CHECK(kind <> 'oidc' OR (client_id IS NOT NULL AND client_secret_sealed IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX `identity_providers_tenant_idx` ON `identity_providers` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `sso_login_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`return_to` text,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`provider_id`) REFERENCES `identity_providers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sso_login_states_expires_idx` ON `sso_login_states` (`expires_at`);