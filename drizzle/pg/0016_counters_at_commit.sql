-- Custom migration (issue 46, docs/decisions/0051-counters-at-commit.md): the statement triggers of
-- 0005 no longer upsert stats_counters themselves. Every learner's write of a course's entry added to
-- the same counter row (a quiz's 'attempts', an entry's 'completed'), which kept that row locked from
-- the write to the end of its transaction: every other learner's write of the entry waited for it,
-- across all the round trips the first transaction still made to its process. Now a trigger appends
-- the statement's grouped deltas to stats_counter_deltas (no key, so no write waits on another's),
-- and a deferred constraint trigger folds the transaction's deltas into stats_counters as it commits:
-- a counter row is locked for the commit only, and stays exact (the fold is part of the transaction).
CREATE TABLE "stats_counter_deltas" (
	"id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	"tenant_id" text NOT NULL,
	"course_slug" text NOT NULL,
	"entry_slug" text NOT NULL,
	"metric" text NOT NULL,
	"bucket" integer NOT NULL,
	"n" integer NOT NULL,
	"total" bigint NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION stats_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- The first firing at commit folds every delta of this transaction (others' are not visible to it, and
	-- none outlives its transaction); the later ones find their row gone.
	IF NOT EXISTS (SELECT 1 FROM stats_counter_deltas WHERE id = NEW.id) THEN
		RETURN NULL;
	END IF;
	WITH moved AS (DELETE FROM stats_counter_deltas RETURNING tenant_id, course_slug, entry_slug, metric, bucket, n, total)
	INSERT INTO stats_counters
	SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM moved
	GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
	HAVING sum(n) <> 0 OR sum(total) <> 0
	-- Sorted, so two transactions folding into the same rows lock them in one order (no deadlock).
	ORDER BY tenant_id, course_slug, entry_slug, metric, bucket
	ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER stats_fold_at_commit AFTER INSERT ON stats_counter_deltas DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION stats_fold();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, '', '', 'users', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL
			UNION ALL SELECT new_row.tenant_id, '', '', 'role:' || new_row.role, 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL
			UNION ALL SELECT new_row.tenant_id, '', '', 'deactivated', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL AND new_row.deactivated_at IS NOT NULL
			UNION ALL SELECT new_row.tenant_id, '', '', 'unverified', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL AND new_row.email_verified_at IS NULL
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT old_row.tenant_id, '', '', 'users', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL
			UNION ALL SELECT old_row.tenant_id, '', '', 'role:' || old_row.role, 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL
			UNION ALL SELECT old_row.tenant_id, '', '', 'deactivated', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL AND old_row.deactivated_at IS NOT NULL
			UNION ALL SELECT old_row.tenant_id, '', '', 'unverified', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL AND old_row.email_verified_at IS NULL
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	ELSE
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, '', '', 'users', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL
			UNION ALL SELECT new_row.tenant_id, '', '', 'role:' || new_row.role, 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL
			UNION ALL SELECT new_row.tenant_id, '', '', 'deactivated', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL AND new_row.deactivated_at IS NOT NULL
			UNION ALL SELECT new_row.tenant_id, '', '', 'unverified', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL AND new_row.email_verified_at IS NULL
			UNION ALL SELECT old_row.tenant_id, '', '', 'users', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL
			UNION ALL SELECT old_row.tenant_id, '', '', 'role:' || old_row.role, 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL
			UNION ALL SELECT old_row.tenant_id, '', '', 'deactivated', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL AND old_row.deactivated_at IS NOT NULL
			UNION ALL SELECT old_row.tenant_id, '', '', 'unverified', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL AND old_row.email_verified_at IS NULL
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_enrollments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, '', 'enrollments', 0, 1, 0 FROM new_rows AS new_row WHERE 1 = 1
			UNION ALL SELECT new_row.tenant_id, new_row.course_slug, '', 'enrolled', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.status IN ('active', 'completed')
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT old_row.tenant_id, old_row.course_slug, '', 'enrollments', 0, -1, 0 FROM old_rows AS old_row WHERE 1 = 1
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, '', 'enrolled', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.status IN ('active', 'completed')
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	ELSE
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, '', 'enrollments', 0, 1, 0 FROM new_rows AS new_row WHERE 1 = 1
			UNION ALL SELECT new_row.tenant_id, new_row.course_slug, '', 'enrolled', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.status IN ('active', 'completed')
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, '', 'enrollments', 0, -1, 0 FROM old_rows AS old_row WHERE 1 = 1
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, '', 'enrolled', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.status IN ('active', 'completed')
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_entry_progress() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'completed', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.completed_at IS NOT NULL
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'completed', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.completed_at IS NOT NULL
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	ELSE
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'completed', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.completed_at IS NOT NULL
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'completed', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.completed_at IS NOT NULL
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_quiz_attempts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'attempts', 0, 1, 1 * new_row.score FROM new_rows AS new_row WHERE 1 = 1
			UNION ALL SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'attempt_number', new_row.attempt_number, 1, 0 FROM new_rows AS new_row WHERE 1 = 1
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'attempts', 0, -1, -1 * old_row.score FROM old_rows AS old_row WHERE 1 = 1
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'attempt_number', old_row.attempt_number, -1, 0 FROM old_rows AS old_row WHERE 1 = 1
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	ELSE
		INSERT INTO stats_counter_deltas (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'attempts', 0, 1, 1 * new_row.score FROM new_rows AS new_row WHERE 1 = 1
			UNION ALL SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'attempt_number', new_row.attempt_number, 1, 0 FROM new_rows AS new_row WHERE 1 = 1
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'attempts', 0, -1, -1 * old_row.score FROM old_rows AS old_row WHERE 1 = 1
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'attempt_number', old_row.attempt_number, -1, 0 FROM old_rows AS old_row WHERE 1 = 1
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0;
	END IF;
	RETURN NULL;
END
$$;
