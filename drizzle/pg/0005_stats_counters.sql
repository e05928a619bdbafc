-- Custom migration: the triggers that keep stats_counters in step with users, enrollments,
-- entry_progress and quiz_attempts (in the same transaction as each write), and the counts of
-- the rows already there. Decision: docs/decisions/0013-derived-counters.md.
-- Statement-level triggers with transition tables: a statement adds its rows' counts in one
-- upsert per counter, so a bulk insert of a million rows is one grouped insert, not a million
-- updates of the same counter row (each of which would walk the row's earlier versions).
CREATE FUNCTION stats_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO stats_counters
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, '', '', 'users', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL
			UNION ALL SELECT new_row.tenant_id, '', '', 'role:' || new_row.role, 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL
			UNION ALL SELECT new_row.tenant_id, '', '', 'deactivated', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL AND new_row.deactivated_at IS NOT NULL
			UNION ALL SELECT new_row.tenant_id, '', '', 'unverified', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.tenant_id IS NOT NULL AND new_row.email_verified_at IS NULL
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO stats_counters
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT old_row.tenant_id, '', '', 'users', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL
			UNION ALL SELECT old_row.tenant_id, '', '', 'role:' || old_row.role, 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL
			UNION ALL SELECT old_row.tenant_id, '', '', 'deactivated', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL AND old_row.deactivated_at IS NOT NULL
			UNION ALL SELECT old_row.tenant_id, '', '', 'unverified', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.tenant_id IS NOT NULL AND old_row.email_verified_at IS NULL
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	ELSE
		INSERT INTO stats_counters
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
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER stats_users_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_users();
--> statement-breakpoint
CREATE TRIGGER stats_users_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_users();
--> statement-breakpoint
CREATE TRIGGER stats_users_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_users();
--> statement-breakpoint
CREATE FUNCTION stats_enrollments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO stats_counters
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, '', 'enrollments', 0, 1, 0 FROM new_rows AS new_row WHERE 1 = 1
			UNION ALL SELECT new_row.tenant_id, new_row.course_slug, '', 'enrolled', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.status IN ('active', 'completed')
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO stats_counters
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT old_row.tenant_id, old_row.course_slug, '', 'enrollments', 0, -1, 0 FROM old_rows AS old_row WHERE 1 = 1
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, '', 'enrolled', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.status IN ('active', 'completed')
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	ELSE
		INSERT INTO stats_counters
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, '', 'enrollments', 0, 1, 0 FROM new_rows AS new_row WHERE 1 = 1
			UNION ALL SELECT new_row.tenant_id, new_row.course_slug, '', 'enrolled', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.status IN ('active', 'completed')
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, '', 'enrollments', 0, -1, 0 FROM old_rows AS old_row WHERE 1 = 1
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, '', 'enrolled', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.status IN ('active', 'completed')
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER stats_enrollments_insert AFTER INSERT ON enrollments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_enrollments();
--> statement-breakpoint
CREATE TRIGGER stats_enrollments_delete AFTER DELETE ON enrollments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_enrollments();
--> statement-breakpoint
CREATE TRIGGER stats_enrollments_update AFTER UPDATE ON enrollments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_enrollments();
--> statement-breakpoint
CREATE FUNCTION stats_entry_progress() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO stats_counters
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'completed', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.completed_at IS NOT NULL
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO stats_counters
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'completed', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.completed_at IS NOT NULL
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	ELSE
		INSERT INTO stats_counters
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'completed', 0, 1, 0 FROM new_rows AS new_row WHERE new_row.completed_at IS NOT NULL
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'completed', 0, -1, 0 FROM old_rows AS old_row WHERE old_row.completed_at IS NOT NULL
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER stats_entry_progress_insert AFTER INSERT ON entry_progress REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_entry_progress();
--> statement-breakpoint
CREATE TRIGGER stats_entry_progress_delete AFTER DELETE ON entry_progress REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_entry_progress();
--> statement-breakpoint
CREATE TRIGGER stats_entry_progress_update AFTER UPDATE ON entry_progress REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_entry_progress();
--> statement-breakpoint
CREATE FUNCTION stats_quiz_attempts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO stats_counters
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'attempts', 0, 1, 1 * new_row.score FROM new_rows AS new_row WHERE 1 = 1
			UNION ALL SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'attempt_number', new_row.attempt_number, 1, 0 FROM new_rows AS new_row WHERE 1 = 1
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO stats_counters
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'attempts', 0, -1, -1 * old_row.score FROM old_rows AS old_row WHERE 1 = 1
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'attempt_number', old_row.attempt_number, -1, 0 FROM old_rows AS old_row WHERE 1 = 1
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	ELSE
		INSERT INTO stats_counters
		SELECT tenant_id, course_slug, entry_slug, metric, bucket, sum(n), sum(total) FROM (
			SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'attempts', 0, 1, 1 * new_row.score FROM new_rows AS new_row WHERE 1 = 1
			UNION ALL SELECT new_row.tenant_id, new_row.course_slug, new_row.entry_slug, 'attempt_number', new_row.attempt_number, 1, 0 FROM new_rows AS new_row WHERE 1 = 1
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'attempts', 0, -1, -1 * old_row.score FROM old_rows AS old_row WHERE 1 = 1
			UNION ALL SELECT old_row.tenant_id, old_row.course_slug, old_row.entry_slug, 'attempt_number', old_row.attempt_number, -1, 0 FROM old_rows AS old_row WHERE 1 = 1
		) AS d (tenant_id, course_slug, entry_slug, metric, bucket, n, total)
		GROUP BY tenant_id, course_slug, entry_slug, metric, bucket
		HAVING sum(n) <> 0 OR sum(total) <> 0
		ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER stats_quiz_attempts_insert AFTER INSERT ON quiz_attempts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_quiz_attempts();
--> statement-breakpoint
CREATE TRIGGER stats_quiz_attempts_delete AFTER DELETE ON quiz_attempts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_quiz_attempts();
--> statement-breakpoint
CREATE TRIGGER stats_quiz_attempts_update AFTER UPDATE ON quiz_attempts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_quiz_attempts();
--> statement-breakpoint
INSERT INTO stats_counters SELECT r.tenant_id, '', '', 'users', 0, count(*), 0 FROM users AS r WHERE r.tenant_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO stats_counters SELECT r.tenant_id, '', '', 'role:' || r.role, 0, count(*), 0 FROM users AS r WHERE r.tenant_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO stats_counters SELECT r.tenant_id, '', '', 'deactivated', 0, count(*), 0 FROM users AS r WHERE r.tenant_id IS NOT NULL AND r.deactivated_at IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO stats_counters SELECT r.tenant_id, '', '', 'unverified', 0, count(*), 0 FROM users AS r WHERE r.tenant_id IS NOT NULL AND r.email_verified_at IS NULL GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO stats_counters SELECT r.tenant_id, r.course_slug, '', 'enrollments', 0, count(*), 0 FROM enrollments AS r WHERE 1 = 1 GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO stats_counters SELECT r.tenant_id, r.course_slug, '', 'enrolled', 0, count(*), 0 FROM enrollments AS r WHERE r.status IN ('active', 'completed') GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO stats_counters SELECT r.tenant_id, r.course_slug, r.entry_slug, 'completed', 0, count(*), 0 FROM entry_progress AS r WHERE r.completed_at IS NOT NULL GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO stats_counters SELECT r.tenant_id, r.course_slug, r.entry_slug, 'attempts', 0, count(*), sum(r.score) FROM quiz_attempts AS r WHERE 1 = 1 GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO stats_counters SELECT r.tenant_id, r.course_slug, r.entry_slug, 'attempt_number', r.attempt_number, count(*), 0 FROM quiz_attempts AS r WHERE 1 = 1 GROUP BY 1, 2, 3, 4, 5;
