-- Custom migration: the admin user search reads one trigram index over the email and
-- the name together instead of one index each, which halves the posting lists a search
-- walks (the common trigrams of a large tenant, such as those of its mail domain, are
-- in every row). The expression is the one db/admin.ts searches; without pg_trgm there
-- is nothing to replace and the search stays a scan of the tenant.
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
		CREATE INDEX IF NOT EXISTS "users_search_trgm_idx" ON "users" USING gin (("email" || chr(10) || lower("name")) gin_trgm_ops);
		DROP INDEX IF EXISTS "users_email_trgm_idx";
		DROP INDEX IF EXISTS "users_name_trgm_idx";
	END IF;
END
$$;
