CREATE TABLE "borrower_bank_accounts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"holder_name" text NOT NULL,
	"account_number_enc" text NOT NULL,
	"account_masked" text NOT NULL,
	"ifsc" text NOT NULL,
	"bank_name" text NOT NULL,
	"account_type" text NOT NULL,
	"name_at_bank" text,
	"name_match_score" smallint,
	"verified_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "borrower_references" (
	"user_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"name" text NOT NULL,
	"relation" text NOT NULL,
	"mobile" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "borrower_references_user_id_position_pk" PRIMARY KEY("user_id","position")
);
--> statement-breakpoint
ALTER TABLE "borrower_bank_accounts" ADD CONSTRAINT "borrower_bank_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "borrower_references" ADD CONSTRAINT "borrower_references_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;