CREATE TABLE "mandates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"max_amount_paise" integer NOT NULL,
	"start_date" text NOT NULL,
	"end_date" text NOT NULL,
	"holder_name" text NOT NULL,
	"account_masked" text NOT NULL,
	"ifsc" text NOT NULL,
	"provider_mandate_id" text,
	"auth_url" text,
	"reason" text,
	"cancelled_by" uuid,
	"activated_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mandates_reference_unique" UNIQUE("reference"),
	CONSTRAINT "mandates_max_amount" CHECK ("mandates"."max_amount_paise" > 0)
);
--> statement-breakpoint
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mandates_one_live" ON "mandates" USING btree ("application_id") WHERE "mandates"."status" in ('pending', 'active', 'paused');--> statement-breakpoint
CREATE UNIQUE INDEX "mandates_provider_id" ON "mandates" USING btree ("provider","provider_mandate_id");--> statement-breakpoint
CREATE INDEX "mandates_application_idx" ON "mandates" USING btree ("application_id","created_at");--> statement-breakpoint
-- The borrower's open loan page follows its autopay live: a mandate set up, approved, rejected or
-- cancelled tells their pages to read again (the function of migration 0022).
CREATE TRIGGER mandates_changed AFTER INSERT OR UPDATE OF status ON mandates
  FOR EACH ROW EXECUTE FUNCTION notify_application_changed();
