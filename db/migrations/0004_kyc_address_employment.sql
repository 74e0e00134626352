CREATE TABLE "borrower_addresses" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"current_line1" text NOT NULL,
	"current_line2" text,
	"current_pincode" text NOT NULL,
	"current_city" text NOT NULL,
	"current_district" text NOT NULL,
	"current_state" text NOT NULL,
	"residence_type" text NOT NULL,
	"years_at_address" integer NOT NULL,
	"permanent_same" boolean NOT NULL,
	"permanent_line1" text,
	"permanent_line2" text,
	"permanent_pincode" text,
	"permanent_city" text,
	"permanent_district" text,
	"permanent_state" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "borrower_employment" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"employment_type" text NOT NULL,
	"employer_name" text NOT NULL,
	"designation" text NOT NULL,
	"net_monthly_income_paise" integer NOT NULL,
	"existing_emi_paise" integer NOT NULL,
	"salary_day" smallint,
	"months_with_employer" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "borrower_addresses" ADD CONSTRAINT "borrower_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "borrower_employment" ADD CONSTRAINT "borrower_employment_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;