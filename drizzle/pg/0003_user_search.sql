-- Custom migration: the admin user search matches any part of an email or a name
-- (LIKE '%…%'), which only a trigram index can serve. pg_trgm ships with PostgreSQL's
-- contrib modules; where it cannot be installed, search stays correct, only slower.
DO $$
BEGIN
	CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
	RAISE NOTICE 'pg_trgm is not available: the user search reads the whole tenant';
END
$$;--> statement-breakpoint
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
		CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
		CREATE INDEX IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops);
	END IF;
END
$$;
