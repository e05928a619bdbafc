CREATE TABLE "submission_watchers" (
	"user_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"course_slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "submission_watchers_tenant_id_course_slug_user_id_pk" PRIMARY KEY("tenant_id","course_slug","user_id")
);
--> statement-breakpoint
ALTER TABLE "submission_watchers" ADD CONSTRAINT "submission_watchers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_watchers" ADD CONSTRAINT "submission_watchers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;