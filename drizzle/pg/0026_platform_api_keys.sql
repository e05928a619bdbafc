ALTER TABLE "api_idempotency" ALTER COLUMN "tenant_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "tenant_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_platform_course_check" CHECK (tenant_id IS NOT NULL OR course_slug IS NULL);