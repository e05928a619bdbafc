DROP INDEX "entry_progress_course_idx";--> statement-breakpoint
DROP INDEX "quiz_attempts_course_idx";--> statement-breakpoint
CREATE INDEX "enrollments_roster_idx" ON "enrollments" USING btree ("tenant_id","course_slug","enrolled_at");--> statement-breakpoint
CREATE INDEX "entry_progress_course_idx" ON "entry_progress" USING btree ("tenant_id","course_slug","entry_slug","completed_at");--> statement-breakpoint
CREATE INDEX "quiz_attempts_course_idx" ON "quiz_attempts" USING btree ("tenant_id","course_slug","entry_slug","attempt_number","score");