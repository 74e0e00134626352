CREATE TABLE "accounting_periods" (
	"month" text PRIMARY KEY NOT NULL,
	"closed_by" uuid,
	"closed_at" timestamp with time zone NOT NULL,
	"note" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accrual_basis" (
	"application_id" uuid NOT NULL,
	"seq" smallint NOT NULL,
	"from_date" text NOT NULL,
	"due_date" text NOT NULL,
	"interest_paise" integer NOT NULL,
	"fee_paise" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "accrual_basis_application_id_seq_pk" PRIMARY KEY("application_id","seq")
);
--> statement-breakpoint
CREATE TABLE "book_positions" (
	"application_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"balance_paise" bigint NOT NULL,
	CONSTRAINT "book_positions_application_id_purpose_pk" PRIMARY KEY("application_id","purpose")
);
--> statement-breakpoint
CREATE TABLE "books_rules" (
	"version" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"value" jsonb NOT NULL,
	"reason" text NOT NULL,
	"saved_by" uuid,
	"saved_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_no" bigserial NOT NULL,
	"entry_date" text NOT NULL,
	"business_date" text NOT NULL,
	"kind" text NOT NULL,
	"narration" text NOT NULL,
	"application_id" uuid,
	"ledger_id" uuid,
	"reverses_id" uuid,
	"source_key" text,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "journal_entries_entry_no_unique" UNIQUE("entry_no"),
	CONSTRAINT "journal_entries_ledger_id_unique" UNIQUE("ledger_id"),
	CONSTRAINT "journal_entries_reverses_id_unique" UNIQUE("reverses_id"),
	CONSTRAINT "journal_entries_source_key_unique" UNIQUE("source_key")
);
--> statement-breakpoint
CREATE TABLE "journal_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" uuid NOT NULL,
	"entry_date" text NOT NULL,
	"purpose" text NOT NULL,
	"application_id" uuid,
	"debit_paise" bigint DEFAULT 0 NOT NULL,
	"credit_paise" bigint DEFAULT 0 NOT NULL,
	"provider_ref" text,
	CONSTRAINT "journal_lines_one_side" CHECK ("journal_lines"."debit_paise" >= 0 and "journal_lines"."credit_paise" >= 0 and ("journal_lines"."debit_paise" = 0) <> ("journal_lines"."credit_paise" = 0))
);
--> statement-breakpoint
CREATE TABLE "month_end_classes" (
	"month" text NOT NULL,
	"application_id" uuid NOT NULL,
	"asset_class" text NOT NULL,
	"ecl_stage" text NOT NULL,
	"dpd" integer NOT NULL,
	"book_value_paise" bigint NOT NULL,
	"provision_paise" bigint NOT NULL,
	CONSTRAINT "month_end_classes_month_application_id_pk" PRIMARY KEY("month","application_id")
);
--> statement-breakpoint
ALTER TABLE "loan_accounts" ADD COLUMN "accrued_through" text;--> statement-breakpoint
ALTER TABLE "loan_accounts" ADD COLUMN "booked_through" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "loan_accounts" ADD COLUMN "npa_since" text;--> statement-breakpoint
ALTER TABLE "loan_accounts" ADD COLUMN "fee_paise" integer;--> statement-breakpoint
ALTER TABLE "loan_accounts" ADD COLUMN "fee_gst_paise" integer;--> statement-breakpoint
ALTER TABLE "loan_accounts" ADD COLUMN "gst_split" text;--> statement-breakpoint
ALTER TABLE "loan_accounts" ADD COLUMN "framework" text;--> statement-breakpoint
ALTER TABLE "accounting_periods" ADD CONSTRAINT "accounting_periods_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accrual_basis" ADD CONSTRAINT "accrual_basis_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books_rules" ADD CONSTRAINT "books_rules_saved_by_users_id_fk" FOREIGN KEY ("saved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_ledger_id_loan_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."loan_ledger"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_reverses_id_journal_entries_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "month_end_classes" ADD CONSTRAINT "month_end_classes_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accrual_basis_due_idx" ON "accrual_basis" USING btree ("due_date");--> statement-breakpoint
CREATE INDEX "books_rules_kind_idx" ON "books_rules" USING btree ("kind","version");--> statement-breakpoint
CREATE INDEX "journal_entries_date_idx" ON "journal_entries" USING btree ("entry_date","entry_no");--> statement-breakpoint
CREATE INDEX "journal_entries_application_idx" ON "journal_entries" USING btree ("application_id","entry_no");--> statement-breakpoint
CREATE INDEX "journal_entries_kind_idx" ON "journal_entries" USING btree ("kind","entry_date");--> statement-breakpoint
CREATE INDEX "journal_lines_entry_idx" ON "journal_lines" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "journal_lines_account_idx" ON "journal_lines" USING btree ("purpose","entry_date");--> statement-breakpoint
CREATE INDEX "journal_lines_application_idx" ON "journal_lines" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "journal_lines_provider_idx" ON "journal_lines" USING btree ("provider_ref") WHERE "journal_lines"."provider_ref" is not null;--> statement-breakpoint
CREATE INDEX "month_end_classes_class_idx" ON "month_end_classes" USING btree ("month","asset_class");--> statement-breakpoint
CREATE INDEX "loan_accounts_accrued_idx" ON "loan_accounts" USING btree ("accrued_through");--> statement-breakpoint
-- docs/product.md "The lender's books": the installation's first rules, kept as version 1 of each kind.
INSERT INTO "books_rules" ("kind", "value", "reason", "saved_at") VALUES ('framework', '{"framework":"indian_gaap","lenderState":"Karnataka"}'::jsonb, 'The installation''s first rules', now());--> statement-breakpoint
INSERT INTO "books_rules" ("kind", "value", "reason", "saved_at") VALUES ('chart', '[{"purpose":"loans_receivable","code":"1101","name":"Loans receivable (principal)"},{"purpose":"interest_receivable","code":"1102","name":"Interest receivable (billed, and accrued not yet billed)"},{"purpose":"penal_receivable","code":"1103","name":"Penal charges receivable"},{"purpose":"loan_loss_provision","code":"1109","name":"Provision for loan losses"},{"purpose":"bank","code":"1201","name":"Bank: collection account"},{"purpose":"gateway_clearing","code":"1202","name":"Payment gateway clearing"},{"purpose":"payout_account","code":"1203","name":"Payout account"},{"purpose":"input_gst","code":"1301","name":"Input GST on gateway fees"},{"purpose":"refunds_payable","code":"2101","name":"Borrower refunds payable"},{"purpose":"unapplied_receipts","code":"2102","name":"Unapplied receipts (advances held)"},{"purpose":"cgst_payable","code":"2201","name":"CGST payable"},{"purpose":"sgst_payable","code":"2202","name":"SGST payable"},{"purpose":"igst_payable","code":"2203","name":"IGST payable"},{"purpose":"interest_suspense","code":"2301","name":"Interest in suspense (NPA)"},{"purpose":"deferred_fee_income","code":"2302","name":"Deferred processing-fee income"},{"purpose":"books_suspense","code":"2901","name":"Suspense: differences to investigate"},{"purpose":"interest_income","code":"4101","name":"Interest income"},{"purpose":"processing_fee_income","code":"4102","name":"Processing-fee income"},{"purpose":"penal_income","code":"4103","name":"Penal-charge income"},{"purpose":"recoveries","code":"4104","name":"Recoveries of loans written off"},{"purpose":"provision_expense","code":"5101","name":"Provision expense"},{"purpose":"write_off_expense","code":"5102","name":"Write-off expense"},{"purpose":"gateway_fees","code":"5103","name":"Payment gateway fees"}]'::jsonb, 'The installation''s first rules', now());--> statement-breakpoint
INSERT INTO "books_rules" ("kind", "value", "reason", "saved_at") VALUES ('provisioning', '{"standardBps":40,"subStandardBps":1000,"doubtfulBps":10000,"lossBps":10000,"eclStage1Bps":100,"eclStage2Bps":1500,"eclStage3Bps":6500}'::jsonb, 'The installation''s first rules', now());--> statement-breakpoint
-- Loans already disbursed accrue from their disbursal (the daily run catches up); their ledgers are booked by it too.
UPDATE "loan_accounts" SET "accrued_through" = "disbursal_date";--> statement-breakpoint
-- Journals are never changed: a correction is a reversing entry.
CREATE FUNCTION journals_never_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'journal entries are never changed: post a reversing entry';
END $$;--> statement-breakpoint
CREATE TRIGGER "journal_entries_never_change" BEFORE UPDATE OR DELETE ON "journal_entries" FOR EACH ROW EXECUTE FUNCTION journals_never_change();--> statement-breakpoint
CREATE TRIGGER "journal_lines_never_change" BEFORE UPDATE OR DELETE ON "journal_lines" FOR EACH ROW EXECUTE FUNCTION journals_never_change();--> statement-breakpoint
-- A closed month takes no new entries.
CREATE FUNCTION journals_open_month() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "accounting_periods" WHERE "month" = substr(NEW."entry_date", 1, 7)) THEN
    RAISE EXCEPTION 'the month % is closed to new entries', substr(NEW."entry_date", 1, 7) USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "journal_entries_open_month" BEFORE INSERT ON "journal_entries" FOR EACH ROW EXECUTE FUNCTION journals_open_month();
