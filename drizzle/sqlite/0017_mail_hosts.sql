ALTER TABLE `sessions` ADD `host` text;--> statement-breakpoint
-- Decision 0062: a custom domain is canonical only once marked live. Tenants that had one before
-- this change were served under it already: they keep it.
UPDATE `tenants` SET `feature_flags_json` = json_set(`feature_flags_json`, '$.customDomainLive', json('true')) WHERE `custom_domain` IS NOT NULL;
