-- What the borrower received, the base of the cooling-off exit (docs/product.md "Loan servicing").
ALTER TABLE "loan_accounts" ADD COLUMN "net_disbursed_paise" integer;--> statement-breakpoint
-- A loan paid out through a payout: the amount paid out.
UPDATE "loan_accounts" a SET "net_disbursed_paise" = (
  SELECT p."amount_paise" FROM "payouts" p
  WHERE p."application_id" = a."application_id" AND p."purpose" = 'disbursal' AND p."status" = 'processed'
  ORDER BY p."attempt" DESC LIMIT 1
);--> statement-breakpoint
-- Otherwise the net amount of the Key Fact Statement the borrower signed (its fees, not today's).
UPDATE "loan_accounts" a SET "net_disbursed_paise" = (
  SELECT (d."terms" -> 'figures' ->> 'netDisbursedPaise')::integer FROM "loan_signatures" s
  JOIN "loan_documents" d ON d."id" = s."document_id"
  WHERE s."application_id" = a."application_id" AND s."superseded_at" IS NULL
  LIMIT 1
) WHERE a."net_disbursed_paise" IS NULL;--> statement-breakpoint
-- Otherwise (demo loans): the principal less the product's processing fee and its GST, half-up as the KFS rounds.
UPDATE "loan_accounts" a SET "net_disbursed_paise" = a."principal_paise" - f.fee - floor((f.fee::bigint * f.gst_bps + 5000) / 10000)::integer
FROM (
  SELECT l."application_id", pr."gst_bps",
    greatest(pr."min_fee_paise", floor((l."principal_paise"::bigint * pr."fee_bps" + 5000) / 10000)::integer) AS fee
  FROM "loan_accounts" l JOIN "products" pr ON pr."code" = l."kind"
) f
WHERE a."net_disbursed_paise" IS NULL AND f."application_id" = a."application_id";--> statement-breakpoint
UPDATE "loan_accounts" SET "net_disbursed_paise" = "principal_paise" WHERE "net_disbursed_paise" IS NULL;--> statement-breakpoint
ALTER TABLE "loan_accounts" ALTER COLUMN "net_disbursed_paise" SET NOT NULL;
