CREATE TABLE "products" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"min_amount_paise" integer NOT NULL,
	"max_amount_paise" integer NOT NULL,
	"amount_step_paise" integer NOT NULL,
	"min_tenure" integer NOT NULL,
	"max_tenure" integer NOT NULL,
	"rate_bps" integer NOT NULL,
	"fee_bps" integer NOT NULL,
	"min_fee_paise" integer DEFAULT 0 NOT NULL,
	"gst_bps" integer NOT NULL,
	"penal_charge_paise" integer NOT NULL,
	"cooling_off_days" integer NOT NULL,
	"salary_cap_bps" integer,
	"salaried_only" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_amounts" CHECK ("products"."min_amount_paise" > 0 and "products"."min_amount_paise" <= "products"."max_amount_paise"),
	CONSTRAINT "products_tenure" CHECK ("products"."min_tenure" > 0 and "products"."min_tenure" <= "products"."max_tenure")
);
--> statement-breakpoint
CREATE TABLE "risk_bands" (
	"id" serial PRIMARY KEY NOT NULL,
	"sort_order" integer NOT NULL,
	"min_income_paise" integer NOT NULL,
	"max_emi_to_income_bps" integer,
	"rate_bps" integer NOT NULL
);
