CREATE TABLE "application_deviations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"evaluation_id" uuid NOT NULL,
	"rules" jsonb NOT NULL,
	"reason" text NOT NULL,
	"proposed_by" uuid NOT NULL,
	"proposed_at" timestamp with time zone NOT NULL,
	"confirmed_by" uuid,
	"confirmed_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "application_deviations_second_person" CHECK ("application_deviations"."confirmed_by" is null or "application_deviations"."confirmed_by" <> "application_deviations"."proposed_by")
);
--> statement-breakpoint
CREATE TABLE "credit_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"version" integer,
	"status" text NOT NULL,
	"rules" jsonb NOT NULL,
	"reason" text NOT NULL,
	"based_on" integer,
	"proposed_by" uuid,
	"proposed_at" timestamp with time zone NOT NULL,
	"confirmed_by" uuid,
	"confirmed_at" timestamp with time zone,
	"withdrawn_by" uuid,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "credit_policies_version_unique" UNIQUE("version"),
	CONSTRAINT "credit_policies_confirmed" CHECK (("credit_policies"."status" = 'confirmed') = ("credit_policies"."version" is not null and "credit_policies"."confirmed_at" is not null)),
	CONSTRAINT "credit_policies_second_person" CHECK ("credit_policies"."confirmed_by" is null or "credit_policies"."confirmed_by" <> "credit_policies"."proposed_by")
);
--> statement-breakpoint
CREATE TABLE "policy_evaluations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"application_id" uuid,
	"stage" text NOT NULL,
	"policy_version" integer NOT NULL,
	"product" text NOT NULL,
	"result" text NOT NULL,
	"amount_paise" integer,
	"tenure_months" smallint,
	"max_amount_paise" integer NOT NULL,
	"rules" jsonb NOT NULL,
	"bureau_reference" text,
	"actor_user_id" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "loan_signatures" DROP CONSTRAINT "loan_signatures_application_id_unique";--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_role";--> statement-breakpoint
ALTER TABLE "credit_checks" ALTER COLUMN "application_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_checks" ALTER COLUMN "result" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_checks" ADD COLUMN "user_id" uuid;--> statement-breakpoint
-- Checks pulled before this version were pulled for an application under review: their borrower.
-- They count for nobody's offer now (an empty subject matches no profile): the checks are run again
-- for the PAN, name and date of birth the profile holds, at the next offer or review.
ALTER TABLE "credit_checks" ADD COLUMN "subject_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_checks" ALTER COLUMN "subject_key" DROP DEFAULT;--> statement-breakpoint
UPDATE "credit_checks" c SET "user_id" = a."user_id" FROM "loan_applications" a WHERE a."id" = c."application_id";--> statement-breakpoint
ALTER TABLE "credit_checks" ALTER COLUMN "user_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_checks" ADD COLUMN "purpose" text DEFAULT 'review' NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_checks" ADD COLUMN "status" text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE "loan_signatures" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "application_deviations" ADD CONSTRAINT "application_deviations_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_deviations" ADD CONSTRAINT "application_deviations_evaluation_id_policy_evaluations_id_fk" FOREIGN KEY ("evaluation_id") REFERENCES "public"."policy_evaluations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_deviations" ADD CONSTRAINT "application_deviations_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_deviations" ADD CONSTRAINT "application_deviations_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_policies" ADD CONSTRAINT "credit_policies_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_policies" ADD CONSTRAINT "credit_policies_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_policies" ADD CONSTRAINT "credit_policies_withdrawn_by_users_id_fk" FOREIGN KEY ("withdrawn_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_evaluations" ADD CONSTRAINT "policy_evaluations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_evaluations" ADD CONSTRAINT "policy_evaluations_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_evaluations" ADD CONSTRAINT "policy_evaluations_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "application_deviations_one_open" ON "application_deviations" USING btree ("application_id") WHERE "application_deviations"."confirmed_at" is null and "application_deviations"."withdrawn_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_policies_one_open" ON "credit_policies" USING btree ("status") WHERE "credit_policies"."status" = 'proposed';--> statement-breakpoint
CREATE INDEX "policy_evaluations_application_idx" ON "policy_evaluations" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "policy_evaluations_user_idx" ON "policy_evaluations" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "credit_checks" ADD CONSTRAINT "credit_checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_checks_user_idx" ON "credit_checks" USING btree ("user_id","subject_key","checked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "loan_signatures_current" ON "loan_signatures" USING btree ("application_id") WHERE "loan_signatures"."superseded_at" is null;--> statement-breakpoint
-- An installation that already has products gets the first policy here, with the salary advance's
-- cap on salary it had as a product term (a fresh one gets it from the reference seed:
-- DEFAULT_POLICY_RULES in app/domain/credit-policy/rules.ts, whose values these are).
INSERT INTO "credit_policies" ("version", "status", "rules", "reason", "proposed_at", "confirmed_at")
SELECT 1, 'confirmed', jsonb_build_object(
    'minAgeYears', 21, 'maxAgeYears', 60, 'minIncomePaise', 1500000, 'maxActiveLoans', 2, 'rejectionCoolOffDays', 30,
    'minBureauScore', 600, 'deviationScoreBelow', 650, 'maxObligationsBps', 5000, 'deviationObligationsBps', 6000,
    'maxExposurePaise', 50000000, 'noHistoryMaxAmountPaise', 5000000, 'salaryAdvanceMaxSalaryBps', COALESCE(p."salary_cap_bps", 5000),
    'salaryAdvanceMaxObligationsBps', 5000, 'bureauMaxAgeDays', 30),
  'The first policy: the eligibility rules the offers used until now, with the defaults of a new installation.', now(), now()
FROM "products" p WHERE p."code" = 'salary_advance';--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "salary_cap_bps";--> statement-breakpoint
-- A new policy version can change the salary cap that Rate-terms states: its cached page is made again.
CREATE TRIGGER credit_policies_public_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON credit_policies
  FOR EACH STATEMENT EXECUTE FUNCTION notify_public_content_changed('{"type":"public_content_changed"}');--> statement-breakpoint
ALTER TABLE "credit_checks" ADD CONSTRAINT "credit_checks_result" CHECK (("credit_checks"."status" = 'done') = ("credit_checks"."result" is not null));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role" CHECK ("users"."role" in ('borrower', 'credit', 'operations', 'support', 'finance', 'compliance', 'admin'));