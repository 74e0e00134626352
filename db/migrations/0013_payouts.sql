-- pg_trgm for the staff's name search (borrower_profiles_name_trgm below). Database-wide, in
-- "public" so that dropping an application schema never drops it; several migrations starting at
-- once (tests on one server) may race to create it, and the loser has nothing to do.
DO $$ BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
EXCEPTION WHEN unique_violation OR duplicate_object THEN NULL;
END $$;--> statement-breakpoint
CREATE TABLE "holidays" (
	"date" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"added_by" uuid,
	"added_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loan_instalments" (
	"application_id" uuid NOT NULL,
	"seq" smallint NOT NULL,
	"due_date" text NOT NULL,
	"principal_paise" integer NOT NULL,
	"interest_paise" integer NOT NULL,
	CONSTRAINT "loan_instalments_application_id_seq_pk" PRIMARY KEY("application_id","seq")
);
--> statement-breakpoint
CREATE TABLE "loan_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"principal_paise" integer NOT NULL,
	"business_date" text NOT NULL,
	"payout_id" uuid,
	"details" jsonb NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"attempt" smallint NOT NULL,
	"provider" text NOT NULL,
	"status" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"holder_name" text NOT NULL,
	"account_number_enc" text NOT NULL,
	"account_masked" text NOT NULL,
	"ifsc" text NOT NULL,
	"provider_payout_id" text,
	"utr" text,
	"failure_reason" text,
	"requested_by" uuid NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"provider_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payouts_amount" CHECK ("payouts"."amount_paise" > 0)
);
--> statement-breakpoint
CREATE TABLE "product_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"version" integer NOT NULL,
	"part" text NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"note" text NOT NULL,
	"changed_by" uuid NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "revised_kfs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"payout_id" uuid NOT NULL,
	"pdf" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"terms" jsonb NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "loan_number" text;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "disbursed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "disbursal_date" text;--> statement-breakpoint
ALTER TABLE "loan_documents" ADD COLUMN "input" jsonb;--> statement-breakpoint
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_instalments" ADD CONSTRAINT "loan_instalments_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_ledger" ADD CONSTRAINT "loan_ledger_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_ledger" ADD CONSTRAINT "loan_ledger_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_versions" ADD CONSTRAINT "product_versions_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revised_kfs" ADD CONSTRAINT "revised_kfs_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revised_kfs" ADD CONSTRAINT "revised_kfs_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loan_instalments_due_idx" ON "loan_instalments" USING btree ("due_date");--> statement-breakpoint
CREATE INDEX "loan_ledger_application_idx" ON "loan_ledger" USING btree ("application_id","recorded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "loan_ledger_payout_kind" ON "loan_ledger" USING btree ("payout_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_attempt" ON "payouts" USING btree ("application_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_live" ON "payouts" USING btree ("application_id") WHERE "payouts"."status" in ('requested', 'processed');--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_provider_id" ON "payouts" USING btree ("provider","provider_payout_id");--> statement-breakpoint
CREATE INDEX "payouts_status_idx" ON "payouts" USING btree ("status","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "product_versions_code_version" ON "product_versions" USING btree ("code","version");--> statement-breakpoint
CREATE UNIQUE INDEX "revised_kfs_current" ON "revised_kfs" USING btree ("application_id") WHERE "revised_kfs"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "audit_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_action_created_idx" ON "audit_log" USING btree ("action","created_at");--> statement-breakpoint
CREATE INDEX "borrower_profiles_name_trgm" ON "borrower_profiles" USING gin ("full_name" public.gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "borrower_profiles_pan_last4_idx" ON "borrower_profiles" USING btree (right("pan_masked", 4));--> statement-breakpoint
CREATE INDEX "users_role_created_idx" ON "users" USING btree ("role","created_at");--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_loan_number_unique" UNIQUE("loan_number");