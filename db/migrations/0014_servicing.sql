CREATE TABLE "collection_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"staff_user_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"note" text NOT NULL,
	"follow_up_on" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loan_accounts" (
	"application_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"principal_paise" integer NOT NULL,
	"rate_bps" integer NOT NULL,
	"penal_paise" integer NOT NULL,
	"cooling_off_days" smallint NOT NULL,
	"disbursal_date" text NOT NULL,
	"as_of" text NOT NULL,
	"outstanding_principal_paise" integer NOT NULL,
	"overdue_paise" integer NOT NULL,
	"penal_due_paise" integer NOT NULL,
	"dpd" integer NOT NULL,
	"next_due_date" text,
	"next_due_paise" integer,
	"advance_paise" integer NOT NULL,
	"refund_due_paise" integer NOT NULL,
	"settled_on" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"purpose" text NOT NULL,
	"prepay" boolean DEFAULT false NOT NULL,
	"amount_paise" integer NOT NULL,
	"status" text NOT NULL,
	"provider_order_id" text,
	"checkout_url" text,
	"provider_payment_id" text,
	"received_paise" integer,
	"paid_at" timestamp with time zone,
	"business_date" text,
	"failure_reason" text,
	"mode" text,
	"recorded_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payments_reference_unique" UNIQUE("reference"),
	CONSTRAINT "payments_amount" CHECK ("payments"."amount_paise" > 0)
);
--> statement-breakpoint
CREATE TABLE "servicing_runs" (
	"business_date" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"loans" integer DEFAULT 0 NOT NULL,
	"levied" integer DEFAULT 0 NOT NULL,
	"reversed" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "payouts_one_live";--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "requested_by" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "loan_ledger" ADD COLUMN "amount_paise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "loan_ledger" ADD COLUMN "payment_id" uuid;--> statement-breakpoint
ALTER TABLE "loan_ledger" ADD COLUMN "seq" smallint;--> statement-breakpoint
ALTER TABLE "loan_ledger" ADD COLUMN "ref_id" uuid;--> statement-breakpoint
ALTER TABLE "loan_ledger" ADD COLUMN "actor_user_id" uuid;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "purpose" text DEFAULT 'disbursal' NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_notes" ADD CONSTRAINT "collection_notes_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_notes" ADD CONSTRAINT "collection_notes_staff_user_id_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_accounts" ADD CONSTRAINT "loan_accounts_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collection_notes_application_idx" ON "collection_notes" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "loan_accounts_dpd_idx" ON "loan_accounts" USING btree ("dpd");--> statement-breakpoint
CREATE INDEX "loan_accounts_next_due_idx" ON "loan_accounts" USING btree ("next_due_date");--> statement-breakpoint
CREATE INDEX "payments_application_idx" ON "payments" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_status_idx" ON "payments" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_payment" ON "payments" USING btree ("provider","provider_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_order" ON "payments" USING btree ("provider","provider_order_id");--> statement-breakpoint
ALTER TABLE "loan_ledger" ADD CONSTRAINT "loan_ledger_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_ledger" ADD CONSTRAINT "loan_ledger_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "loan_ledger_payment_kind" ON "loan_ledger" USING btree ("payment_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "loan_ledger_penal_once" ON "loan_ledger" USING btree ("application_id","seq") WHERE "loan_ledger"."kind" = 'penal';--> statement-breakpoint
CREATE UNIQUE INDEX "loan_ledger_undone_once" ON "loan_ledger" USING btree ("ref_id") WHERE "loan_ledger"."ref_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_refund_in_flight" ON "payouts" USING btree ("application_id") WHERE "payouts"."purpose" = 'refund' and "payouts"."status" = 'requested';--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_live" ON "payouts" USING btree ("application_id") WHERE "payouts"."purpose" = 'disbursal' and "payouts"."status" in ('requested', 'processed');