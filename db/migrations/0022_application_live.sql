-- The borrower's open pages follow their application live (docs/product.md "Loan applications"):
-- a status change (taken, approved, rejected, disbursed, sent back) or a request from the officer
-- and its answer notify the realtime channel of every process, which tells that borrower's open
-- pages to read their data again. Sent at commit, whoever wrote the row.
CREATE OR REPLACE FUNCTION notify_application_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner uuid;
  ref text;
BEGIN
  IF TG_TABLE_NAME = 'loan_applications' THEN
    owner := NEW.user_id;
    ref := NEW.reference;
  ELSE
    SELECT a.user_id, a.reference INTO owner, ref FROM loan_applications a WHERE a.id = NEW.application_id;
  END IF;
  IF owner IS NOT NULL THEN
    PERFORM pg_notify('app_events_' || TG_TABLE_SCHEMA,
      json_build_object('type', 'application_changed', 'userId', owner, 'reference', ref)::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER loan_applications_changed AFTER UPDATE OF status ON loan_applications
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION notify_application_changed();
--> statement-breakpoint
CREATE TRIGGER application_requests_changed AFTER INSERT OR UPDATE ON application_requests
  FOR EACH ROW EXECUTE FUNCTION notify_application_changed();
