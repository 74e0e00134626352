CREATE TABLE "loan_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"user_id" uuid NOT NULL,
	"product" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"status_reason" text,
	"amount_paise" integer,
	"tenure_months" smallint,
	"offer" jsonb,
	"purpose" text,
	"purpose_details" text,
	"disbursal_account" jsonb,
	"terms_saved_at" timestamp with time zone,
	"details_saved_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_applications_reference_unique" UNIQUE("reference"),
	CONSTRAINT "loan_applications_amount" CHECK ("loan_applications"."amount_paise" is null or "loan_applications"."amount_paise" > 0)
);
--> statement-breakpoint
CREATE TABLE "loan_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"pdf" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"terms" jsonb NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"valid_until" text NOT NULL,
	"assumed_disbursal_date" text NOT NULL,
	"superseded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "loan_signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"shown_sha256" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text NOT NULL,
	"mobile" text NOT NULL,
	"signed_pdf" "bytea" NOT NULL,
	"signed_sha256" text NOT NULL,
	"agreement_ref" text NOT NULL,
	CONSTRAINT "loan_signatures_application_id_unique" UNIQUE("application_id"),
	CONSTRAINT "loan_signatures_agreement_ref_unique" UNIQUE("agreement_ref")
);
--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_documents" ADD CONSTRAINT "loan_documents_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_signatures" ADD CONSTRAINT "loan_signatures_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_signatures" ADD CONSTRAINT "loan_signatures_document_id_loan_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "loan_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loan_applications_user_idx" ON "loan_applications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "loan_applications_one_in_progress" ON "loan_applications" USING btree ("user_id","product") WHERE "loan_applications"."status" in ('draft', 'signed', 'under_review', 'approved');--> statement-breakpoint
CREATE UNIQUE INDEX "loan_documents_current" ON "loan_documents" USING btree ("application_id") WHERE "loan_documents"."superseded_at" is null;