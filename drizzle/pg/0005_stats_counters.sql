-- Custom migration: the triggers that keep stats_counters in step with users, enrollments,
-- entry_progress and quiz_attempts (in the same transaction as each write), and the counts of
-- the rows already there. Decision: docs/decisions/0013-derived-counters.md.
CREATE FUNCTION stats_bump(p_tenant text, p_course text, p_entry text, p_metric text, p_bucket integer, p_n integer, p_total bigint) RETURNS void LANGUAGE sql AS $$
	INSERT INTO stats_counters VALUES (p_tenant, p_course, p_entry, p_metric, p_bucket, p_n, p_total)
	ON CONFLICT (tenant_id, course_slug, entry_slug, metric, bucket)
	DO UPDATE SET n = stats_counters.n + excluded.n, total = stats_counters.total + excluded.total
$$;--> statement-breakpoint
CREATE FUNCTION stats_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.tenant_id IS NOT NULL THEN
		PERFORM stats_bump(OLD.tenant_id, '', '', 'users', 0, -1, 0);
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.tenant_id IS NOT NULL THEN
		PERFORM stats_bump(NEW.tenant_id, '', '', 'users', 0, 1, 0);
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION stats_enrollments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN ('active', 'completed') THEN
		PERFORM stats_bump(OLD.tenant_id, OLD.course_slug, '', 'enrolled', 0, -1, 0);
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status IN ('active', 'completed') THEN
		PERFORM stats_bump(NEW.tenant_id, NEW.course_slug, '', 'enrolled', 0, 1, 0);
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION stats_progress() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.completed_at IS NOT NULL THEN
		PERFORM stats_bump(OLD.tenant_id, OLD.course_slug, OLD.entry_slug, 'completed', 0, -1, 0);
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.completed_at IS NOT NULL THEN
		PERFORM stats_bump(NEW.tenant_id, NEW.course_slug, NEW.entry_slug, 'completed', 0, 1, 0);
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION stats_attempts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		PERFORM stats_bump(OLD.tenant_id, OLD.course_slug, OLD.entry_slug, 'attempts', 0, -1, -OLD.score);
		PERFORM stats_bump(OLD.tenant_id, OLD.course_slug, OLD.entry_slug, 'attempt_number', OLD.attempt_number, -1, 0);
	ELSE
		PERFORM stats_bump(NEW.tenant_id, NEW.course_slug, NEW.entry_slug, 'attempts', 0, 1, NEW.score);
		PERFORM stats_bump(NEW.tenant_id, NEW.course_slug, NEW.entry_slug, 'attempt_number', NEW.attempt_number, 1, 0);
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
-- Only the columns a counter depends on wake an UPDATE trigger (most updates touch others).
CREATE TRIGGER stats_users AFTER INSERT OR DELETE OR UPDATE OF tenant_id ON users FOR EACH ROW EXECUTE FUNCTION stats_users();--> statement-breakpoint
CREATE TRIGGER stats_enrollments AFTER INSERT OR DELETE OR UPDATE OF status ON enrollments FOR EACH ROW EXECUTE FUNCTION stats_enrollments();--> statement-breakpoint
CREATE TRIGGER stats_progress AFTER INSERT OR DELETE OR UPDATE OF completed_at ON entry_progress FOR EACH ROW EXECUTE FUNCTION stats_progress();--> statement-breakpoint
CREATE TRIGGER stats_attempts AFTER INSERT OR DELETE ON quiz_attempts FOR EACH ROW EXECUTE FUNCTION stats_attempts();--> statement-breakpoint
INSERT INTO stats_counters SELECT tenant_id, '', '', 'users', 0, count(*), 0 FROM users WHERE tenant_id IS NOT NULL GROUP BY tenant_id;--> statement-breakpoint
INSERT INTO stats_counters SELECT tenant_id, course_slug, '', 'enrolled', 0, count(*), 0 FROM enrollments WHERE status IN ('active', 'completed') GROUP BY tenant_id, course_slug;--> statement-breakpoint
INSERT INTO stats_counters SELECT tenant_id, course_slug, entry_slug, 'completed', 0, count(*), 0 FROM entry_progress WHERE completed_at IS NOT NULL GROUP BY tenant_id, course_slug, entry_slug;--> statement-breakpoint
INSERT INTO stats_counters SELECT tenant_id, course_slug, entry_slug, 'attempts', 0, count(*), sum(score) FROM quiz_attempts GROUP BY tenant_id, course_slug, entry_slug;--> statement-breakpoint
INSERT INTO stats_counters SELECT tenant_id, course_slug, entry_slug, 'attempt_number', attempt_number, count(*), 0 FROM quiz_attempts GROUP BY tenant_id, course_slug, entry_slug, attempt_number;
