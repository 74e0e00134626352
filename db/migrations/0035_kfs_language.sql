ALTER TABLE "loan_documents" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "loan_signatures" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "loan_documents" ADD CONSTRAINT "loan_documents_language" CHECK ("loan_documents"."language" in ('en', 'hi'));--> statement-breakpoint
ALTER TABLE "loan_signatures" ADD CONSTRAINT "loan_signatures_language" CHECK ("loan_signatures"."language" in ('en', 'hi'));