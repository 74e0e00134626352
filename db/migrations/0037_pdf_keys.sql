ALTER TABLE "loan_documents" ALTER COLUMN "pdf" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "loan_signatures" ALTER COLUMN "signed_pdf" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "revised_kfs" ALTER COLUMN "pdf" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "loan_documents" ADD COLUMN "pdf_key" text;--> statement-breakpoint
ALTER TABLE "loan_signatures" ADD COLUMN "signed_pdf_key" text;--> statement-breakpoint
ALTER TABLE "revised_kfs" ADD COLUMN "pdf_key" text;--> statement-breakpoint
ALTER TABLE "loan_documents" ADD CONSTRAINT "loan_documents_pdf_key_unique" UNIQUE("pdf_key");--> statement-breakpoint
ALTER TABLE "loan_signatures" ADD CONSTRAINT "loan_signatures_signed_pdf_key_unique" UNIQUE("signed_pdf_key");--> statement-breakpoint
ALTER TABLE "revised_kfs" ADD CONSTRAINT "revised_kfs_pdf_key_unique" UNIQUE("pdf_key");--> statement-breakpoint
ALTER TABLE "loan_documents" ADD CONSTRAINT "loan_documents_pdf_once" CHECK (("loan_documents"."pdf" is null) <> ("loan_documents"."pdf_key" is null));--> statement-breakpoint
ALTER TABLE "loan_signatures" ADD CONSTRAINT "loan_signatures_signed_pdf_once" CHECK (("loan_signatures"."signed_pdf" is null) <> ("loan_signatures"."signed_pdf_key" is null));--> statement-breakpoint
ALTER TABLE "revised_kfs" ADD CONSTRAINT "revised_kfs_pdf_once" CHECK (("revised_kfs"."pdf" is null) <> ("revised_kfs"."pdf_key" is null));