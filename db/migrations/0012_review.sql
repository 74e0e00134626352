CREATE TABLE "application_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"asked_by" uuid NOT NULL,
	"asked_at" timestamp with time zone NOT NULL,
	"document_kind" text,
	"message" text NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "credit_checks" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"result" jsonb NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_checklist" (
	"application_id" uuid NOT NULL,
	"item" text NOT NULL,
	"checked" boolean NOT NULL,
	"checked_by" uuid NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "review_checklist_application_id_item_pk" PRIMARY KEY("application_id","item")
);
--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "assigned_to" uuid;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "decision_note" text;--> statement-breakpoint
ALTER TABLE "application_requests" ADD CONSTRAINT "application_requests_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_requests" ADD CONSTRAINT "application_requests_asked_by_users_id_fk" FOREIGN KEY ("asked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_checks" ADD CONSTRAINT "credit_checks_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_checklist" ADD CONSTRAINT "review_checklist_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_checklist" ADD CONSTRAINT "review_checklist_checked_by_users_id_fk" FOREIGN KEY ("checked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "application_requests_one_open" ON "application_requests" USING btree ("application_id") WHERE "application_requests"."answered_at" is null;--> statement-breakpoint
CREATE INDEX "application_requests_application_idx" ON "application_requests" USING btree ("application_id","asked_at");--> statement-breakpoint
CREATE INDEX "credit_checks_application_idx" ON "credit_checks" USING btree ("application_id","kind","checked_at");--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loan_applications_queue_idx" ON "loan_applications" USING btree ("status","signed_at");