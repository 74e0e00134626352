ALTER TABLE "users" DROP CONSTRAINT "users_role";--> statement-breakpoint
-- Staff roles (docs/product.md "Staff roles"): today's `staff` accounts become `support`.
UPDATE "users" SET "role" = 'support' WHERE "role" = 'staff';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role" CHECK ("users"."role" in ('borrower', 'credit', 'operations', 'support', 'admin'));
