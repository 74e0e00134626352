ALTER TABLE "mandate_debits" ADD COLUMN "excess_paise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mandate_debits" ADD COLUMN "excess_refund_on" text;--> statement-breakpoint
ALTER TABLE "mandate_debits" ADD COLUMN "excess_choice" text;--> statement-breakpoint
ALTER TABLE "mandate_debits" ADD COLUMN "excess_payout_id" uuid;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "returns_payment_id" uuid;--> statement-breakpoint
ALTER TABLE "mandate_debits" ADD CONSTRAINT "mandate_debits_excess_payout_id_payouts_id_fk" FOREIGN KEY ("excess_payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_returns_payment_id_payments_id_fk" FOREIGN KEY ("returns_payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mandate_debits_excess_idx" ON "mandate_debits" USING btree ("excess_refund_on") WHERE "mandate_debits"."excess_paise" > 0 and "mandate_debits"."excess_choice" is null;