CREATE TABLE "stats_counters" (
	"tenant_id" text NOT NULL,
	"course_slug" text NOT NULL,
	"entry_slug" text NOT NULL,
	"metric" text NOT NULL,
	"bucket" integer NOT NULL,
	"n" integer NOT NULL,
	"total" bigint NOT NULL,
	CONSTRAINT "stats_counters_tenant_id_course_slug_entry_slug_metric_bucket_pk" PRIMARY KEY("tenant_id","course_slug","entry_slug","metric","bucket")
);
