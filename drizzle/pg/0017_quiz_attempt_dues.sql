CREATE TABLE "quiz_attempt_dues" (
	"attempt_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"late" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quiz_attempt_dues" ADD CONSTRAINT "quiz_attempt_dues_attempt_id_quiz_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."quiz_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_attempt_dues" ADD CONSTRAINT "quiz_attempt_dues_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;