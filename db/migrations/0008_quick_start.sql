CREATE TABLE "funnel_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"event" text NOT NULL,
	"step" smallint,
	"product" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quick_starts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"completed_steps" smallint DEFAULT 0 NOT NULL,
	"product" text,
	"amount_paise" integer,
	"tenure_months" smallint,
	"offer" jsonb,
	"offer_at" timestamp with time zone,
	"application_id" uuid,
	"continued_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quick_starts_completed" CHECK ("quick_starts"."completed_steps" between 0 and 7),
	CONSTRAINT "quick_starts_amount" CHECK ("quick_starts"."amount_paise" is null or "quick_starts"."amount_paise" > 0)
);
--> statement-breakpoint
ALTER TABLE "borrower_addresses" ALTER COLUMN "current_line1" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "borrower_addresses" ALTER COLUMN "residence_type" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "borrower_addresses" ALTER COLUMN "years_at_address" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "borrower_addresses" ALTER COLUMN "permanent_same" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "borrower_employment" ALTER COLUMN "employer_name" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "borrower_employment" ALTER COLUMN "designation" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "borrower_employment" ALTER COLUMN "existing_emi_paise" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "borrower_employment" ALTER COLUMN "months_with_employer" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "borrower_profiles" ALTER COLUMN "gender" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "borrower_profiles" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "borrower_profiles" ALTER COLUMN "aadhaar_last4" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "borrower_profiles" ALTER COLUMN "marital_status" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "funnel_events" ADD CONSTRAINT "funnel_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quick_starts" ADD CONSTRAINT "quick_starts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quick_starts" ADD CONSTRAINT "quick_starts_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "loan_applications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "funnel_events_event_idx" ON "funnel_events" USING btree ("event","step","created_at");--> statement-breakpoint
CREATE INDEX "funnel_events_user_idx" ON "funnel_events" USING btree ("user_id","created_at");