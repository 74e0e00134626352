ALTER TABLE "products" ADD COLUMN "autopay_before_disbursal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- docs/product.md "Autopay": an EMI loan is paid out only once its autopay is active, by default
-- (the administrator may change it on the products page, versioned like any product term).
UPDATE "products" SET "autopay_before_disbursal" = true WHERE "code" = 'emi';
