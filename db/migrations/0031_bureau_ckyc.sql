CREATE TABLE "bureau_alerts" (
	"application_id" uuid NOT NULL,
	"as_of" text NOT NULL,
	"dpd" integer NOT NULL,
	"notification_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bureau_alerts_application_id_as_of_pk" PRIMARY KEY("application_id","as_of")
);
--> statement-breakpoint
CREATE TABLE "bureau_records" (
	"run_id" uuid NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"held_back" boolean NOT NULL,
	"problems" jsonb,
	"dpd" integer NOT NULL,
	"overdue_paise" integer NOT NULL,
	"current_balance_paise" integer NOT NULL,
	"asset_class" text NOT NULL,
	"written_off" boolean NOT NULL,
	"closed_on" text,
	CONSTRAINT "bureau_records_run_id_application_id_pk" PRIMARY KEY("run_id","application_id")
);
--> statement-breakpoint
CREATE TABLE "bureau_rejection_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"rows" integer NOT NULL,
	"imported_by" uuid NOT NULL,
	"imported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bureau_rejections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"import_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"application_id" uuid NOT NULL,
	"account_number" text NOT NULL,
	"segment" text NOT NULL,
	"field" text,
	"code" text NOT NULL,
	"message" text NOT NULL,
	"due_by" text NOT NULL,
	"resent_run_id" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bureau_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bureau" text NOT NULL,
	"kind" text NOT NULL,
	"as_of" text NOT NULL,
	"previous_as_of" text,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"file_bytes" integer NOT NULL,
	"accounts" integer NOT NULL,
	"held_back" integer NOT NULL,
	"delinquent" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ckyc_records" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"ckyc_number" text,
	"application_id" uuid,
	"due_by" text,
	"searched_at" timestamp with time zone,
	"uploaded_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ckyc_records_number_digits" CHECK ("ckyc_records"."ckyc_number" is null or "ckyc_records"."ckyc_number" ~ '^[0-9]{14}$')
);
--> statement-breakpoint
CREATE TABLE "write_off_settlements" (
	"application_id" uuid PRIMARY KEY NOT NULL,
	"settled_on" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"reason" text NOT NULL,
	"recorded_by" uuid NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bureau_alerts" ADD CONSTRAINT "bureau_alerts_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_records" ADD CONSTRAINT "bureau_records_run_id_bureau_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bureau_runs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_records" ADD CONSTRAINT "bureau_records_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_records" ADD CONSTRAINT "bureau_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_rejection_imports" ADD CONSTRAINT "bureau_rejection_imports_run_id_bureau_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bureau_runs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_rejection_imports" ADD CONSTRAINT "bureau_rejection_imports_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_rejections" ADD CONSTRAINT "bureau_rejections_import_id_bureau_rejection_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."bureau_rejection_imports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_rejections" ADD CONSTRAINT "bureau_rejections_run_id_bureau_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bureau_runs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_rejections" ADD CONSTRAINT "bureau_rejections_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_rejections" ADD CONSTRAINT "bureau_rejections_resent_run_id_bureau_runs_id_fk" FOREIGN KEY ("resent_run_id") REFERENCES "public"."bureau_runs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bureau_runs" ADD CONSTRAINT "bureau_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ckyc_records" ADD CONSTRAINT "ckyc_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ckyc_records" ADD CONSTRAINT "ckyc_records_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "write_off_settlements" ADD CONSTRAINT "write_off_settlements_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "write_off_settlements" ADD CONSTRAINT "write_off_settlements_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bureau_records_application_idx" ON "bureau_records" USING btree ("application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bureau_rejection_imports_once" ON "bureau_rejection_imports" USING btree ("run_id","file_sha256");--> statement-breakpoint
CREATE INDEX "bureau_rejections_pending_idx" ON "bureau_rejections" USING btree ("due_by") WHERE "bureau_rejections"."resent_run_id" is null;--> statement-breakpoint
CREATE INDEX "bureau_rejections_run_idx" ON "bureau_rejections" USING btree ("run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bureau_runs_regular_once" ON "bureau_runs" USING btree ("bureau","as_of") WHERE "bureau_runs"."kind" = 'regular';--> statement-breakpoint
CREATE INDEX "bureau_runs_created_idx" ON "bureau_runs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ckyc_records_number" ON "ckyc_records" USING btree ("ckyc_number");--> statement-breakpoint
CREATE INDEX "ckyc_records_due_idx" ON "ckyc_records" USING btree ("due_by") WHERE "ckyc_records"."status" in ('pending', 'failed');