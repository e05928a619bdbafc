CREATE TABLE "course_passes" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"user_id" text NOT NULL,
	"course_slug" text NOT NULL,
	"passed" boolean NOT NULL,
	"average" integer,
	"passed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_passes_average_check" CHECK (average IS NULL OR (average >= 0 AND average <= 100))
);
--> statement-breakpoint
CREATE TABLE "second_chances" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"user_id" text NOT NULL,
	"course_slug" text NOT NULL,
	"entry_slug" text NOT NULL,
	"kind" text NOT NULL,
	"extra_attempts" integer DEFAULT 0 NOT NULL,
	"after_number" integer DEFAULT 0 NOT NULL,
	"reason" text NOT NULL,
	"granted_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "second_chances_kind_check" CHECK (kind IN ('quiz_attempts', 'assignment_reopen')),
	CONSTRAINT "second_chances_extra_check" CHECK (extra_attempts >= 0 AND extra_attempts <= 10)
);
--> statement-breakpoint
ALTER TABLE "course_passes" ADD CONSTRAINT "course_passes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_passes" ADD CONSTRAINT "course_passes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_chances" ADD CONSTRAINT "second_chances_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_chances" ADD CONSTRAINT "second_chances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_chances" ADD CONSTRAINT "second_chances_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "course_passes_unique" ON "course_passes" USING btree ("tenant_id","user_id","course_slug");--> statement-breakpoint
CREATE INDEX "course_passes_course_idx" ON "course_passes" USING btree ("tenant_id","course_slug");--> statement-breakpoint
CREATE INDEX "second_chances_entry_idx" ON "second_chances" USING btree ("tenant_id","user_id","course_slug","entry_slug");