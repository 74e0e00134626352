CREATE TABLE "data_breach_borrowers" (
	"breach_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"notified_at" timestamp with time zone,
	CONSTRAINT "data_breach_borrowers_breach_id_user_id_pk" PRIMARY KEY("breach_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "data_breaches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"discovered_at" timestamp with time zone NOT NULL,
	"occurred_at" timestamp with time zone,
	"description" text NOT NULL,
	"data_items" jsonb NOT NULL,
	"consequences" text NOT NULL,
	"mitigation" text NOT NULL,
	"borrower_steps" text NOT NULL,
	"scope" text NOT NULL,
	"recorded_by" uuid,
	"recorded_at" timestamp with time zone NOT NULL,
	"board_reported_at" timestamp with time zone,
	"board_reported_by" uuid,
	"board_reference" text,
	"notices_sent_at" timestamp with time zone,
	"notices_sent_by" uuid,
	CONSTRAINT "data_breaches_reference_unique" UNIQUE("reference"),
	CONSTRAINT "data_breaches_scope" CHECK ("data_breaches"."scope" in ('all', 'listed'))
);
--> statement-breakpoint
CREATE TABLE "data_nominees" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"relationship" text NOT NULL,
	"mobile" text NOT NULL,
	"email" text,
	"created_at" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "data_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"details" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"due_on" text NOT NULL,
	"answered_at" timestamp with time zone,
	"answered_by" uuid,
	"answer" text,
	CONSTRAINT "data_requests_reference_unique" UNIQUE("reference"),
	CONSTRAINT "data_requests_kind" CHECK ("data_requests"."kind" in ('access', 'correction', 'erasure')),
	CONSTRAINT "data_requests_status" CHECK ("data_requests"."status" in ('open', 'done', 'refused')),
	CONSTRAINT "data_requests_answered" CHECK (("data_requests"."status" = 'open') = ("data_requests"."answered_at" is null))
);
--> statement-breakpoint
CREATE TABLE "suspicious_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"user_id" uuid NOT NULL,
	"match_id" uuid,
	"suspected_at" timestamp with time zone NOT NULL,
	"due_on" text NOT NULL,
	"period_from" text NOT NULL,
	"period_to" text NOT NULL,
	"grounds" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"drafted_by" uuid,
	"drafted_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"review_note" text,
	"exported_by" uuid,
	"exported_at" timestamp with time zone,
	"file_sha256" text,
	"fiu_reference" text,
	CONSTRAINT "suspicious_reports_reference_unique" UNIQUE("reference"),
	CONSTRAINT "suspicious_reports_match_id_unique" UNIQUE("match_id"),
	CONSTRAINT "suspicious_reports_status" CHECK ("suspicious_reports"."status" in ('draft', 'reviewed', 'exported')),
	CONSTRAINT "suspicious_reports_reviewed" CHECK (("suspicious_reports"."status" = 'draft') or ("suspicious_reports"."reviewed_at" is not null)),
	CONSTRAINT "suspicious_reports_exported" CHECK (("suspicious_reports"."status" = 'exported') = ("suspicious_reports"."exported_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "aml_matches" ADD COLUMN "entry_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "data_breach_borrowers" ADD CONSTRAINT "data_breach_borrowers_breach_id_data_breaches_id_fk" FOREIGN KEY ("breach_id") REFERENCES "public"."data_breaches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_breach_borrowers" ADD CONSTRAINT "data_breach_borrowers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_breaches" ADD CONSTRAINT "data_breaches_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_breaches" ADD CONSTRAINT "data_breaches_board_reported_by_users_id_fk" FOREIGN KEY ("board_reported_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_breaches" ADD CONSTRAINT "data_breaches_notices_sent_by_users_id_fk" FOREIGN KEY ("notices_sent_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_nominees" ADD CONSTRAINT "data_nominees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_requests" ADD CONSTRAINT "data_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_requests" ADD CONSTRAINT "data_requests_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspicious_reports" ADD CONSTRAINT "suspicious_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspicious_reports" ADD CONSTRAINT "suspicious_reports_match_id_aml_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."aml_matches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspicious_reports" ADD CONSTRAINT "suspicious_reports_drafted_by_users_id_fk" FOREIGN KEY ("drafted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspicious_reports" ADD CONSTRAINT "suspicious_reports_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspicious_reports" ADD CONSTRAINT "suspicious_reports_exported_by_users_id_fk" FOREIGN KEY ("exported_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_breach_borrowers_user_idx" ON "data_breach_borrowers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "data_breaches_discovered_idx" ON "data_breaches" USING btree ("discovered_at");--> statement-breakpoint
CREATE INDEX "data_nominees_user_idx" ON "data_nominees" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "data_requests_queue_idx" ON "data_requests" USING btree ("status","due_on");--> statement-breakpoint
CREATE INDEX "data_requests_user_idx" ON "data_requests" USING btree ("user_id","received_at");--> statement-breakpoint
CREATE INDEX "suspicious_reports_status_idx" ON "suspicious_reports" USING btree ("status","due_on");--> statement-breakpoint
CREATE INDEX "suspicious_reports_user_idx" ON "suspicious_reports" USING btree ("user_id");