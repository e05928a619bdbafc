-- Custom migration: the admin user search matches any part of an email or a name.
-- An FTS5 table with the trigram tokenizer indexes both (case-insensitively, like the
-- LIKE it replaces for queries of three characters or more); triggers keep it in step.
-- The user id is a column of its own (indexed too, so a row is found again by its id).
CREATE VIRTUAL TABLE `users_search` USING fts5(`id`, `email`, `name`, tokenize = 'trigram');--> statement-breakpoint
INSERT INTO `users_search` (`id`, `email`, `name`) SELECT `id`, `email`, `name` FROM `users`;--> statement-breakpoint
CREATE TRIGGER `users_search_insert` AFTER INSERT ON `users` BEGIN
	INSERT INTO `users_search` (`id`, `email`, `name`) VALUES (new.`id`, new.`email`, new.`name`);
END;--> statement-breakpoint
CREATE TRIGGER `users_search_update` AFTER UPDATE OF `email`, `name` ON `users` BEGIN
	DELETE FROM `users_search` WHERE rowid IN (SELECT rowid FROM `users_search` WHERE `users_search` MATCH 'id : "' || old.`id` || '"' AND `id` = old.`id`);
	INSERT INTO `users_search` (`id`, `email`, `name`) VALUES (new.`id`, new.`email`, new.`name`);
END;--> statement-breakpoint
CREATE TRIGGER `users_search_delete` AFTER DELETE ON `users` BEGIN
	DELETE FROM `users_search` WHERE rowid IN (SELECT rowid FROM `users_search` WHERE `users_search` MATCH 'id : "' || old.`id` || '"' AND `id` = old.`id`);
END;
