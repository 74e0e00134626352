CREATE TABLE "aml_matches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"list_id" integer NOT NULL,
	"source" text NOT NULL,
	"ref" text NOT NULL,
	"listed_name" text NOT NULL,
	"score_milli" integer NOT NULL,
	"name_milli" integer NOT NULL,
	"dob" text NOT NULL,
	"why" text NOT NULL,
	"status" text DEFAULT 'possible' NOT NULL,
	"found_at" timestamp with time zone NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"note" text,
	"reported_at" timestamp with time zone,
	"reported_by" uuid,
	"report_reference" text,
	CONSTRAINT "aml_matches_decided" CHECK (("aml_matches"."status" = 'possible') = ("aml_matches"."decided_at" is null))
);
--> statement-breakpoint
CREATE TABLE "aml_screenings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"list_ids" jsonb NOT NULL,
	"screened_at" timestamp with time zone NOT NULL,
	"matches" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sanctions_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"persons" jsonb NOT NULL,
	"person_count" integer NOT NULL,
	"loaded_by" uuid,
	"loaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "aml_matches" ADD CONSTRAINT "aml_matches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aml_matches" ADD CONSTRAINT "aml_matches_list_id_sanctions_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."sanctions_lists"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aml_matches" ADD CONSTRAINT "aml_matches_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aml_matches" ADD CONSTRAINT "aml_matches_reported_by_users_id_fk" FOREIGN KEY ("reported_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aml_screenings" ADD CONSTRAINT "aml_screenings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions_lists" ADD CONSTRAINT "sanctions_lists_loaded_by_users_id_fk" FOREIGN KEY ("loaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "aml_matches_once" ON "aml_matches" USING btree ("user_id","source","ref");--> statement-breakpoint
CREATE INDEX "aml_matches_status_idx" ON "aml_matches" USING btree ("status","found_at");--> statement-breakpoint
CREATE INDEX "sanctions_lists_latest_idx" ON "sanctions_lists" USING btree ("source","id");