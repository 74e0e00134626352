CREATE TABLE "mandate_debits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"mandate_id" uuid NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"seq" smallint NOT NULL,
	"attempt" smallint NOT NULL,
	"due_date" text NOT NULL,
	"present_on" text NOT NULL,
	"status" text NOT NULL,
	"notice_paise" integer NOT NULL,
	"notice_at" timestamp with time zone NOT NULL,
	"amount_paise" integer,
	"provider_payment_id" text,
	"presented_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	"asked_at" timestamp with time zone,
	"reason" text,
	"payment_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mandate_debits_reference_unique" UNIQUE("reference"),
	CONSTRAINT "mandate_debits_amount" CHECK ("mandate_debits"."amount_paise" is null or ("mandate_debits"."amount_paise" > 0 and "mandate_debits"."amount_paise" <= "mandate_debits"."notice_paise"))
);
--> statement-breakpoint
ALTER TABLE "mandate_debits" ADD CONSTRAINT "mandate_debits_mandate_id_mandates_id_fk" FOREIGN KEY ("mandate_id") REFERENCES "public"."mandates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mandate_debits" ADD CONSTRAINT "mandate_debits_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mandate_debits" ADD CONSTRAINT "mandate_debits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mandate_debits" ADD CONSTRAINT "mandate_debits_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mandate_debits_once" ON "mandate_debits" USING btree ("application_id","seq","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "mandate_debits_provider_payment" ON "mandate_debits" USING btree ("provider_payment_id");--> statement-breakpoint
CREATE INDEX "mandate_debits_status_idx" ON "mandate_debits" USING btree ("status","present_on");--> statement-breakpoint
-- The borrower's open loan page follows its autopay debits live (the function of migration 0022).
CREATE TRIGGER mandate_debits_changed AFTER INSERT OR UPDATE OF status ON mandate_debits
  FOR EACH ROW EXECUTE FUNCTION notify_application_changed();
