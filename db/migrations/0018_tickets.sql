CREATE TABLE "ticket_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"author" text NOT NULL,
	"staff_user_id" uuid,
	"internal" boolean DEFAULT false NOT NULL,
	"body" text NOT NULL,
	"once_key" uuid,
	"emailed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ticket_messages_once_key_unique" UNIQUE("once_key")
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"user_id" uuid,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"category" text NOT NULL,
	"application_id" uuid,
	"subject" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assigned_to" uuid,
	"contact_name" text,
	"contact_mobile" text,
	"contact_email" text,
	"once_key" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"not_accepted_at" timestamp with time zone,
	"reopened_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tickets_reference_unique" UNIQUE("reference"),
	CONSTRAINT "tickets_once_key_unique" UNIQUE("once_key"),
	CONSTRAINT "tickets_who" CHECK ("tickets"."user_id" is not null or ("tickets"."contact_mobile" is not null and "tickets"."contact_email" is not null))
);
--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD CONSTRAINT "ticket_messages_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD CONSTRAINT "ticket_messages_staff_user_id_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_messages_ticket_idx" ON "ticket_messages" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "tickets_user_idx" ON "tickets" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "tickets_status_idx" ON "tickets" USING btree ("status","created_at");--> statement-breakpoint
-- Messages sent through the contact form before tickets existed become contact tickets, numbered in order within their year (India time).
WITH m AS (
	SELECT c.*, 'GRV-' || y || lpad((row_number() OVER (PARTITION BY y ORDER BY c.id))::text, 6, '0') AS reference
	FROM (SELECT *, extract(year FROM (created_at AT TIME ZONE 'UTC') + interval '5 hours 30 minutes')::int AS y FROM "contact_messages") c
), t AS (
	INSERT INTO "tickets" ("reference", "source", "kind", "category", "subject", "status", "contact_name", "contact_mobile", "contact_email", "created_at", "updated_at")
	SELECT reference, 'contact', 'request', 'other', 'Message from the contact form', 'open', name, mobile, email, created_at, created_at FROM m
	RETURNING "id", "reference"
)
INSERT INTO "ticket_messages" ("ticket_id", "author", "body", "created_at")
SELECT t.id, 'borrower', m.message, m.created_at FROM t JOIN m ON m.reference = t.reference;
--> statement-breakpoint
INSERT INTO "ticket_counters" ("year", "last")
SELECT substr("reference", 5, 4)::int, max(substr("reference", 9)::int) FROM "tickets" GROUP BY 1;
