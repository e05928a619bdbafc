CREATE TABLE "invitation_courses" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"invitation_id" text NOT NULL,
	"course_slug" text NOT NULL,
	"granted_by" text
);
--> statement-breakpoint
CREATE TABLE "invitation_names" (
	"invitation_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invitation_courses" ADD CONSTRAINT "invitation_courses_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation_courses" ADD CONSTRAINT "invitation_courses_invitation_id_invitations_id_fk" FOREIGN KEY ("invitation_id") REFERENCES "public"."invitations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation_courses" ADD CONSTRAINT "invitation_courses_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation_names" ADD CONSTRAINT "invitation_names_invitation_id_invitations_id_fk" FOREIGN KEY ("invitation_id") REFERENCES "public"."invitations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation_names" ADD CONSTRAINT "invitation_names_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invitation_courses_unique" ON "invitation_courses" USING btree ("invitation_id","course_slug");--> statement-breakpoint
CREATE INDEX "invitation_courses_tenant_idx" ON "invitation_courses" USING btree ("tenant_id","invitation_id");--> statement-breakpoint
-- One open invitation per address and tenant (decision 0040): twins made before this index keep the newest.
DELETE FROM "invitations" WHERE "accepted_at" IS NULL AND EXISTS (SELECT 1 FROM "invitations" o WHERE o."tenant_id" = "invitations"."tenant_id" AND o."email" = "invitations"."email" AND o."accepted_at" IS NULL AND (o."expires_at" > "invitations"."expires_at" OR (o."expires_at" = "invitations"."expires_at" AND o."id" > "invitations"."id")));--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_open_unique" ON "invitations" USING btree ("tenant_id","email") WHERE accepted_at IS NULL;