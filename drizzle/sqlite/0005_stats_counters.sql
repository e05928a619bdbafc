-- Custom migration: the triggers that keep stats_counters in step with users, enrollments,
-- entry_progress and quiz_attempts (in the same transaction as each write), and the counts of
-- the rows already there. Decision: docs/decisions/0013-derived-counters.md.
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
--> statement-breakpoint
CREATE TRIGGER stats_users_insert AFTER INSERT ON users FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT new.tenant_id, '', '', 'users', 0, 1, 0 WHERE new.tenant_id IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, '', '', 'role:' || new.role, 0, 1, 0 WHERE new.tenant_id IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, '', '', 'deactivated', 0, 1, 0 WHERE new.tenant_id IS NOT NULL AND new.deactivated_at IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, '', '', 'unverified', 0, 1, 0 WHERE new.tenant_id IS NOT NULL AND new.email_verified_at IS NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER stats_users_delete AFTER DELETE ON users FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT old.tenant_id, '', '', 'users', 0, -1, 0 WHERE old.tenant_id IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT old.tenant_id, '', '', 'role:' || old.role, 0, -1, 0 WHERE old.tenant_id IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT old.tenant_id, '', '', 'deactivated', 0, -1, 0 WHERE old.tenant_id IS NOT NULL AND old.deactivated_at IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT old.tenant_id, '', '', 'unverified', 0, -1, 0 WHERE old.tenant_id IS NOT NULL AND old.email_verified_at IS NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER stats_users_update AFTER UPDATE OF tenant_id, role, deactivated_at, email_verified_at ON users FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT old.tenant_id, '', '', 'users', 0, -1, 0 WHERE old.tenant_id IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT old.tenant_id, '', '', 'role:' || old.role, 0, -1, 0 WHERE old.tenant_id IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT old.tenant_id, '', '', 'deactivated', 0, -1, 0 WHERE old.tenant_id IS NOT NULL AND old.deactivated_at IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT old.tenant_id, '', '', 'unverified', 0, -1, 0 WHERE old.tenant_id IS NOT NULL AND old.email_verified_at IS NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, '', '', 'users', 0, 1, 0 WHERE new.tenant_id IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, '', '', 'role:' || new.role, 0, 1, 0 WHERE new.tenant_id IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, '', '', 'deactivated', 0, 1, 0 WHERE new.tenant_id IS NOT NULL AND new.deactivated_at IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, '', '', 'unverified', 0, 1, 0 WHERE new.tenant_id IS NOT NULL AND new.email_verified_at IS NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER stats_enrollments_insert AFTER INSERT ON enrollments FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT new.tenant_id, new.course_slug, '', 'enrollments', 0, 1, 0 WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, new.course_slug, '', 'enrolled', 0, 1, 0 WHERE new.status IN ('active', 'completed') ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER stats_enrollments_delete AFTER DELETE ON enrollments FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT old.tenant_id, old.course_slug, '', 'enrollments', 0, -1, 0 WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT old.tenant_id, old.course_slug, '', 'enrolled', 0, -1, 0 WHERE old.status IN ('active', 'completed') ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER stats_enrollments_update AFTER UPDATE OF status, course_slug ON enrollments FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT old.tenant_id, old.course_slug, '', 'enrollments', 0, -1, 0 WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT old.tenant_id, old.course_slug, '', 'enrolled', 0, -1, 0 WHERE old.status IN ('active', 'completed') ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, new.course_slug, '', 'enrollments', 0, 1, 0 WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, new.course_slug, '', 'enrolled', 0, 1, 0 WHERE new.status IN ('active', 'completed') ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER stats_entry_progress_insert AFTER INSERT ON entry_progress FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT new.tenant_id, new.course_slug, new.entry_slug, 'completed', 0, 1, 0 WHERE new.completed_at IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER stats_entry_progress_delete AFTER DELETE ON entry_progress FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT old.tenant_id, old.course_slug, old.entry_slug, 'completed', 0, -1, 0 WHERE old.completed_at IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER stats_entry_progress_update AFTER UPDATE OF completed_at ON entry_progress FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT old.tenant_id, old.course_slug, old.entry_slug, 'completed', 0, -1, 0 WHERE old.completed_at IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, new.course_slug, new.entry_slug, 'completed', 0, 1, 0 WHERE new.completed_at IS NOT NULL ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER stats_quiz_attempts_insert AFTER INSERT ON quiz_attempts FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT new.tenant_id, new.course_slug, new.entry_slug, 'attempts', 0, 1, 1 * new.score WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, new.course_slug, new.entry_slug, 'attempt_number', new.attempt_number, 1, 0 WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER stats_quiz_attempts_delete AFTER DELETE ON quiz_attempts FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT old.tenant_id, old.course_slug, old.entry_slug, 'attempts', 0, -1, -1 * old.score WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT old.tenant_id, old.course_slug, old.entry_slug, 'attempt_number', old.attempt_number, -1, 0 WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER stats_quiz_attempts_update AFTER UPDATE OF score, attempt_number ON quiz_attempts FOR EACH ROW BEGIN
	INSERT INTO stats_counters SELECT old.tenant_id, old.course_slug, old.entry_slug, 'attempts', 0, -1, -1 * old.score WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT old.tenant_id, old.course_slug, old.entry_slug, 'attempt_number', old.attempt_number, -1, 0 WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, new.course_slug, new.entry_slug, 'attempts', 0, 1, 1 * new.score WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
	INSERT INTO stats_counters SELECT new.tenant_id, new.course_slug, new.entry_slug, 'attempt_number', new.attempt_number, 1, 0 WHERE 1 = 1 ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket) DO UPDATE SET n = n + excluded.n, total = total + excluded.total;
END;
