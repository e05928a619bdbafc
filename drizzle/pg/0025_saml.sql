CREATE TABLE "saml_assertions_seen" (
	"tenant_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"assertion_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_assertions_seen_provider_id_assertion_id_pk" PRIMARY KEY("provider_id","assertion_id")
);
--> statement-breakpoint
ALTER TABLE "identity_providers" DROP CONSTRAINT "identity_providers_kind_check";--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_sso_url" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_idp_certs" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_sp_cert" text;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD COLUMN "saml_sp_key_sealed" text;--> statement-breakpoint
ALTER TABLE "saml_assertions_seen" ADD CONSTRAINT "saml_assertions_seen_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_assertions_seen" ADD CONSTRAINT "saml_assertions_seen_provider_id_identity_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saml_assertions_seen_expires_idx" ON "saml_assertions_seen" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "identity_providers" ADD CONSTRAINT "identity_providers_saml_check" CHECK (kind <> 'saml' OR (saml_sso_url IS NOT NULL AND saml_idp_certs IS NOT NULL AND saml_sp_cert IS NOT NULL AND saml_sp_key_sealed IS NOT NULL));--> statement-breakpoint
ALTER TABLE "identity_providers" ADD CONSTRAINT "identity_providers_kind_check" CHECK (kind IN ('oidc', 'saml'));