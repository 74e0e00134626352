CREATE TABLE "collection_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"opened_on" text NOT NULL,
	"closed_on" text,
	"closed_reason" text,
	"assignee_user_id" uuid,
	"priority" text DEFAULT 'normal' NOT NULL,
	"paused_at" timestamp with time zone,
	"pause_kind" text,
	"pause_reason" text,
	"paused_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collection_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"due_on" text NOT NULL,
	"assignee_user_id" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"step_dpd" smallint,
	"note_id" uuid,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dunning_rules" (
	"version" serial PRIMARY KEY NOT NULL,
	"steps" jsonb NOT NULL,
	"reason" text NOT NULL,
	"saved_by" uuid,
	"saved_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dunning_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"step_dpd" smallint NOT NULL,
	"rule_version" integer NOT NULL,
	"channels" jsonb NOT NULL,
	"tone" text NOT NULL,
	"sent_on" text NOT NULL,
	"dpd" smallint NOT NULL,
	"amount_paise" integer NOT NULL,
	"notification_id" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promises_to_pay" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"application_id" uuid NOT NULL,
	"amount_paise" integer NOT NULL,
	"made_on" text NOT NULL,
	"due_on" text NOT NULL,
	"staff_user_id" uuid,
	"status" text DEFAULT 'open' NOT NULL,
	"resolved_on" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "promises_to_pay_amount" CHECK ("promises_to_pay"."amount_paise" > 0)
);
--> statement-breakpoint
ALTER TABLE "collection_notes" ADD COLUMN "channel" text DEFAULT 'call_out' NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_notes" ADD COLUMN "case_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "channels" jsonb;--> statement-breakpoint
ALTER TABLE "collection_cases" ADD CONSTRAINT "collection_cases_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_cases" ADD CONSTRAINT "collection_cases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_cases" ADD CONSTRAINT "collection_cases_assignee_user_id_users_id_fk" FOREIGN KEY ("assignee_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_cases" ADD CONSTRAINT "collection_cases_paused_by_users_id_fk" FOREIGN KEY ("paused_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_tasks" ADD CONSTRAINT "collection_tasks_case_id_collection_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."collection_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_tasks" ADD CONSTRAINT "collection_tasks_assignee_user_id_users_id_fk" FOREIGN KEY ("assignee_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_tasks" ADD CONSTRAINT "collection_tasks_note_id_collection_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."collection_notes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dunning_rules" ADD CONSTRAINT "dunning_rules_saved_by_users_id_fk" FOREIGN KEY ("saved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dunning_sends" ADD CONSTRAINT "dunning_sends_case_id_collection_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."collection_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dunning_sends" ADD CONSTRAINT "dunning_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dunning_sends" ADD CONSTRAINT "dunning_sends_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promises_to_pay" ADD CONSTRAINT "promises_to_pay_case_id_collection_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."collection_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promises_to_pay" ADD CONSTRAINT "promises_to_pay_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promises_to_pay" ADD CONSTRAINT "promises_to_pay_staff_user_id_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collection_cases_one_open" ON "collection_cases" USING btree ("application_id") WHERE "collection_cases"."closed_on" is null;--> statement-breakpoint
CREATE INDEX "collection_cases_open_idx" ON "collection_cases" USING btree ("assignee_user_id","opened_on") WHERE "collection_cases"."closed_on" is null;--> statement-breakpoint
CREATE INDEX "collection_cases_application_idx" ON "collection_cases" USING btree ("application_id","opened_on");--> statement-breakpoint
CREATE INDEX "collection_tasks_assignee_idx" ON "collection_tasks" USING btree ("assignee_user_id","due_on") WHERE "collection_tasks"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "collection_tasks_step_once" ON "collection_tasks" USING btree ("case_id","step_dpd");--> statement-breakpoint
CREATE UNIQUE INDEX "dunning_sends_once" ON "dunning_sends" USING btree ("case_id","step_dpd");--> statement-breakpoint
CREATE INDEX "dunning_sends_user_day_idx" ON "dunning_sends" USING btree ("user_id","sent_on");--> statement-breakpoint
CREATE INDEX "promises_to_pay_case_idx" ON "promises_to_pay" USING btree ("case_id","created_at");--> statement-breakpoint
CREATE INDEX "promises_to_pay_open_idx" ON "promises_to_pay" USING btree ("due_on") WHERE "promises_to_pay"."status" in ('open', 'broken');--> statement-breakpoint
-- docs/product.md "Collections": the installation's first dunning rules, kept as version 1.
INSERT INTO "dunning_rules" ("steps", "reason", "saved_at") VALUES ('[{"dpd":1,"channels":["sms","push"],"tone":"gentle","callTask":false},{"dpd":3,"channels":["sms"],"tone":"gentle","callTask":false},{"dpd":7,"channels":["email"],"tone":"firm","callTask":true},{"dpd":15,"channels":[],"tone":"firm","callTask":true},{"dpd":30,"channels":["letter"],"tone":"letter","callTask":false}]'::jsonb, 'The installation''s first rules', now());--> statement-breakpoint
-- A case for each loan already past due, opened on its first day past due.
INSERT INTO "collection_cases" ("application_id", "user_id", "opened_on", "created_at", "updated_at")
SELECT a."id", a."user_id", to_char((c."as_of"::date - c."dpd" + 1), 'YYYY-MM-DD'), now(), now()
FROM "loan_accounts" c JOIN "loan_applications" a ON a."id" = c."application_id" AND a."status" = 'active'
WHERE c."dpd" > 0;
