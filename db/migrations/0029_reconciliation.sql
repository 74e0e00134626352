CREATE TABLE "recon_exceptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"side" text NOT NULL,
	"reason" text NOT NULL,
	"statement_line_id" bigint,
	"journal_line_id" bigint,
	"provider_ref" text NOT NULL,
	"line_type" text,
	"amount_paise" bigint NOT NULL,
	"expected_paise" bigint,
	"event_date" text NOT NULL,
	"booked_on" text,
	"application_id" uuid,
	"raised_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"resolution" text,
	CONSTRAINT "recon_exceptions_statement_line_id_unique" UNIQUE("statement_line_id"),
	CONSTRAINT "recon_exceptions_journal_line_id_unique" UNIQUE("journal_line_id"),
	CONSTRAINT "recon_exceptions_one_side" CHECK (("recon_exceptions"."statement_line_id" is null) <> ("recon_exceptions"."journal_line_id" is null)),
	CONSTRAINT "recon_exceptions_resolved" CHECK (("recon_exceptions"."resolved_at" is null) = ("recon_exceptions"."resolution" is null))
);
--> statement-breakpoint
CREATE TABLE "statement_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"source" text NOT NULL,
	"file_name" text NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"line_count" integer NOT NULL,
	"first_date" text,
	"last_date" text,
	"imported_by" uuid,
	"imported_at" timestamp with time zone NOT NULL,
	CONSTRAINT "statement_imports_sha256_unique" UNIQUE("sha256")
);
--> statement-breakpoint
CREATE TABLE "statement_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"import_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"row_no" integer NOT NULL,
	"line_type" text NOT NULL,
	"provider_ref" text NOT NULL,
	"line_key" text NOT NULL,
	"gross_paise" bigint NOT NULL,
	"fee_paise" bigint NOT NULL,
	"tax_paise" bigint NOT NULL,
	"net_paise" bigint NOT NULL,
	"value_date" text,
	"event_date" text,
	"settlement_id" text,
	"utr" text,
	"raw" jsonb NOT NULL,
	"match_purpose" text,
	"match_ref" text,
	"match_side" text,
	"state" text NOT NULL,
	"matched_line_id" bigint,
	"matched_at" timestamp with time zone,
	"journal_entry_id" uuid,
	"duplicate_of" bigint
);
--> statement-breakpoint
ALTER TABLE "recon_exceptions" ADD CONSTRAINT "recon_exceptions_statement_line_id_statement_lines_id_fk" FOREIGN KEY ("statement_line_id") REFERENCES "public"."statement_lines"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recon_exceptions" ADD CONSTRAINT "recon_exceptions_journal_line_id_journal_lines_id_fk" FOREIGN KEY ("journal_line_id") REFERENCES "public"."journal_lines"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recon_exceptions" ADD CONSTRAINT "recon_exceptions_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recon_exceptions" ADD CONSTRAINT "recon_exceptions_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_imports" ADD CONSTRAINT "statement_imports_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_import_id_statement_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."statement_imports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_matched_line_id_journal_lines_id_fk" FOREIGN KEY ("matched_line_id") REFERENCES "public"."journal_lines"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_journal_entry_id_journal_entries_id_fk" FOREIGN KEY ("journal_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_duplicate_of_statement_lines_id_fk" FOREIGN KEY ("duplicate_of") REFERENCES "public"."statement_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recon_exceptions_open_idx" ON "recon_exceptions" USING btree ("event_date") WHERE "recon_exceptions"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "recon_exceptions_resolved_idx" ON "recon_exceptions" USING btree ("resolved_at");--> statement-breakpoint
CREATE INDEX "statement_imports_at_idx" ON "statement_imports" USING btree ("imported_at");--> statement-breakpoint
CREATE INDEX "statement_lines_import_idx" ON "statement_lines" USING btree ("import_id","row_no");--> statement-breakpoint
CREATE INDEX "statement_lines_match_idx" ON "statement_lines" USING btree ("match_purpose","match_ref","match_side");--> statement-breakpoint
CREATE INDEX "statement_lines_state_idx" ON "statement_lines" USING btree ("state");--> statement-breakpoint
CREATE UNIQUE INDEX "statement_lines_once" ON "statement_lines" USING btree ("kind","line_key") WHERE "statement_lines"."duplicate_of" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "statement_lines_matched_once" ON "statement_lines" USING btree ("matched_line_id");--> statement-breakpoint
-- docs/product.md "The lender's books": an imported statement is evidence, kept as it came.
CREATE FUNCTION statement_imports_never_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'an imported statement is never changed or deleted';
END $$;--> statement-breakpoint
CREATE TRIGGER "statement_imports_never_change" BEFORE UPDATE OR DELETE ON "statement_imports" FOR EACH ROW EXECUTE FUNCTION statement_imports_never_change();--> statement-breakpoint
-- A statement line is never deleted; only its match (state, journal line, when) and the entry that journalled it are written after it.
CREATE FUNCTION statement_lines_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'a statement line is never deleted';
  END IF;
  IF (NEW.id, NEW.import_id, NEW.kind, NEW.row_no, NEW.line_type, NEW.provider_ref, NEW.line_key, NEW.gross_paise, NEW.fee_paise,
      NEW.tax_paise, NEW.net_paise, NEW.value_date, NEW.event_date, NEW.settlement_id, NEW.utr, NEW.raw, NEW.match_purpose,
      NEW.match_ref, NEW.match_side, NEW.duplicate_of)
     IS DISTINCT FROM
     (OLD.id, OLD.import_id, OLD.kind, OLD.row_no, OLD.line_type, OLD.provider_ref, OLD.line_key, OLD.gross_paise, OLD.fee_paise,
      OLD.tax_paise, OLD.net_paise, OLD.value_date, OLD.event_date, OLD.settlement_id, OLD.utr, OLD.raw, OLD.match_purpose,
      OLD.match_ref, OLD.match_side, OLD.duplicate_of) THEN
    RAISE EXCEPTION 'a statement line keeps what its file said';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "statement_lines_kept" BEFORE UPDATE OR DELETE ON "statement_lines" FOR EACH ROW EXECUTE FUNCTION statement_lines_kept();--> statement-breakpoint
-- An exception is resolved once, with a note, and never changed or deleted after.
CREATE FUNCTION recon_exceptions_resolved_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'a reconciliation exception is never deleted';
  END IF;
  IF OLD.resolved_at IS NOT NULL THEN
    RAISE EXCEPTION 'a resolved reconciliation exception is never changed';
  END IF;
  IF (NEW.id, NEW.kind, NEW.side, NEW.reason, NEW.statement_line_id, NEW.journal_line_id, NEW.provider_ref, NEW.line_type,
      NEW.amount_paise, NEW.expected_paise, NEW.event_date, NEW.booked_on, NEW.application_id, NEW.raised_at)
     IS DISTINCT FROM
     (OLD.id, OLD.kind, OLD.side, OLD.reason, OLD.statement_line_id, OLD.journal_line_id, OLD.provider_ref, OLD.line_type,
      OLD.amount_paise, OLD.expected_paise, OLD.event_date, OLD.booked_on, OLD.application_id, OLD.raised_at) THEN
    RAISE EXCEPTION 'an exception keeps what it was raised about: only its resolution is written';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "recon_exceptions_resolved_once" BEFORE UPDATE OR DELETE ON "recon_exceptions" FOR EACH ROW EXECUTE FUNCTION recon_exceptions_resolved_once();
