-- Custom migration: the triggers that keep stats_counters in step with users, enrollments,
-- entry_progress and quiz_attempts (in the same transaction as each write), and the counts of
-- the rows already there. Decision: docs/decisions/0013-derived-counters.md.
INSERT INTO `stats_counters` SELECT `tenant_id`, '', '', 'users', 0, count(*), 0 FROM `users` WHERE `tenant_id` IS NOT NULL GROUP BY `tenant_id`;
--> statement-breakpoint
INSERT INTO `stats_counters` SELECT `tenant_id`, `course_slug`, '', 'enrolled', 0, count(*), 0 FROM `enrollments` WHERE `status` IN ('active', 'completed') GROUP BY `tenant_id`, `course_slug`;
--> statement-breakpoint
INSERT INTO `stats_counters` SELECT `tenant_id`, `course_slug`, `entry_slug`, 'completed', 0, count(*), 0 FROM `entry_progress` WHERE `completed_at` IS NOT NULL GROUP BY `tenant_id`, `course_slug`, `entry_slug`;
--> statement-breakpoint
INSERT INTO `stats_counters` SELECT `tenant_id`, `course_slug`, `entry_slug`, 'attempts', 0, count(*), sum(`score`) FROM `quiz_attempts` GROUP BY `tenant_id`, `course_slug`, `entry_slug`;
--> statement-breakpoint
INSERT INTO `stats_counters` SELECT `tenant_id`, `course_slug`, `entry_slug`, 'attempt_number', `attempt_number`, count(*), 0 FROM `quiz_attempts` GROUP BY `tenant_id`, `course_slug`, `entry_slug`, `attempt_number`;
--> statement-breakpoint
CREATE TRIGGER `stats_users_insert` AFTER INSERT ON `users` FOR EACH ROW WHEN new.`tenant_id` IS NOT NULL BEGIN
	INSERT INTO `stats_counters` VALUES (new.`tenant_id`, '', '', 'users', 0, 1, 0) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
END;
--> statement-breakpoint
CREATE TRIGGER `stats_users_delete` AFTER DELETE ON `users` FOR EACH ROW WHEN old.`tenant_id` IS NOT NULL BEGIN
	INSERT INTO `stats_counters` VALUES (old.`tenant_id`, '', '', 'users', 0, -1, 0) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
END;
--> statement-breakpoint
CREATE TRIGGER `stats_users_move` AFTER UPDATE OF `tenant_id` ON `users` FOR EACH ROW WHEN old.`tenant_id` IS NOT new.`tenant_id` BEGIN
	INSERT INTO `stats_counters` SELECT old.`tenant_id`, '', '', 'users', 0, -1, 0 WHERE old.`tenant_id` IS NOT NULL ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
	INSERT INTO `stats_counters` SELECT new.`tenant_id`, '', '', 'users', 0, 1, 0 WHERE new.`tenant_id` IS NOT NULL ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
END;
--> statement-breakpoint
CREATE TRIGGER `stats_enrollments_insert` AFTER INSERT ON `enrollments` FOR EACH ROW WHEN new.`status` IN ('active', 'completed') BEGIN
	INSERT INTO `stats_counters` VALUES (new.`tenant_id`, new.`course_slug`, '', 'enrolled', 0, 1, 0) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
END;
--> statement-breakpoint
CREATE TRIGGER `stats_enrollments_delete` AFTER DELETE ON `enrollments` FOR EACH ROW WHEN old.`status` IN ('active', 'completed') BEGIN
	INSERT INTO `stats_counters` VALUES (old.`tenant_id`, old.`course_slug`, '', 'enrolled', 0, -1, 0) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
END;
--> statement-breakpoint
CREATE TRIGGER `stats_enrollments_status` AFTER UPDATE OF `status` ON `enrollments` FOR EACH ROW WHEN (old.`status` IN ('active', 'completed')) <> (new.`status` IN ('active', 'completed')) BEGIN
	INSERT INTO `stats_counters` VALUES (new.`tenant_id`, new.`course_slug`, '', 'enrolled', 0, CASE WHEN new.`status` IN ('active', 'completed') THEN 1 ELSE -1 END, 0) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
END;
--> statement-breakpoint
CREATE TRIGGER `stats_progress_insert` AFTER INSERT ON `entry_progress` FOR EACH ROW WHEN new.`completed_at` IS NOT NULL BEGIN
	INSERT INTO `stats_counters` VALUES (new.`tenant_id`, new.`course_slug`, new.`entry_slug`, 'completed', 0, 1, 0) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
END;
--> statement-breakpoint
CREATE TRIGGER `stats_progress_delete` AFTER DELETE ON `entry_progress` FOR EACH ROW WHEN old.`completed_at` IS NOT NULL BEGIN
	INSERT INTO `stats_counters` VALUES (old.`tenant_id`, old.`course_slug`, old.`entry_slug`, 'completed', 0, -1, 0) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
END;
--> statement-breakpoint
CREATE TRIGGER `stats_progress_completed` AFTER UPDATE OF `completed_at` ON `entry_progress` FOR EACH ROW WHEN (old.`completed_at` IS NULL) <> (new.`completed_at` IS NULL) BEGIN
	INSERT INTO `stats_counters` VALUES (new.`tenant_id`, new.`course_slug`, new.`entry_slug`, 'completed', 0, CASE WHEN new.`completed_at` IS NULL THEN -1 ELSE 1 END, 0) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
END;
--> statement-breakpoint
CREATE TRIGGER `stats_attempts_insert` AFTER INSERT ON `quiz_attempts` FOR EACH ROW BEGIN
	INSERT INTO `stats_counters` VALUES (new.`tenant_id`, new.`course_slug`, new.`entry_slug`, 'attempts', 0, 1, new.`score`) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
	INSERT INTO `stats_counters` VALUES (new.`tenant_id`, new.`course_slug`, new.`entry_slug`, 'attempt_number', new.`attempt_number`, 1, 0) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
END;
--> statement-breakpoint
CREATE TRIGGER `stats_attempts_delete` AFTER DELETE ON `quiz_attempts` FOR EACH ROW BEGIN
	INSERT INTO `stats_counters` VALUES (old.`tenant_id`, old.`course_slug`, old.`entry_slug`, 'attempts', 0, -1, -old.`score`) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
	INSERT INTO `stats_counters` VALUES (old.`tenant_id`, old.`course_slug`, old.`entry_slug`, 'attempt_number', old.`attempt_number`, -1, 0) ON CONFLICT (`tenant_id`, `course_slug`, `entry_slug`, `metric`, `bucket`) DO UPDATE SET `n` = `n` + excluded.`n`, `total` = `total` + excluded.`total`;
END;
