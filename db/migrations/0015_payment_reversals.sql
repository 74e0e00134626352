ALTER TABLE "payments" ADD COLUMN "reversal_requested_by" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reversal_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reversal_reason" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reversal_requested_by_users_id_fk" FOREIGN KEY ("reversal_requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;