CREATE TABLE "job_mails" (
	"job_id" text NOT NULL,
	"seq" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_mails_job_id_seq_pk" PRIMARY KEY("job_id","seq")
);
