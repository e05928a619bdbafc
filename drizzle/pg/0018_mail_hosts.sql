ALTER TABLE "sessions" ADD COLUMN "host" text;--> statement-breakpoint
-- Decision 0062: a custom domain is canonical only once marked live. Tenants that had one before
-- this change were served under it already: they keep it.
UPDATE "tenants" SET "feature_flags_json" = "feature_flags_json" || '{"customDomainLive": true}'::jsonb WHERE "custom_domain" IS NOT NULL;
