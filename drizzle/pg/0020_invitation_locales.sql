CREATE TABLE "invitation_locales" (
	"invitation_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"locale" text NOT NULL,
	CONSTRAINT "invitation_locales_locale_check" CHECK (locale IN ('en', 'es', 'fr', 'de', 'pt', 'zh'))
);
--> statement-breakpoint
ALTER TABLE "invitation_locales" ADD CONSTRAINT "invitation_locales_invitation_id_invitations_id_fk" FOREIGN KEY ("invitation_id") REFERENCES "public"."invitations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation_locales" ADD CONSTRAINT "invitation_locales_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;