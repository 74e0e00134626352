-- What the public pages show changed, whoever wrote the row (the back office, a script, psql):
-- every server process hears it on its realtime channel ("app_events_" and the tables' schema)
-- and renders its cached public pages again (server/page-cache.ts). Products and risk bands also
-- make every process read the products again.
CREATE OR REPLACE FUNCTION notify_public_content_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('app_events_' || TG_TABLE_SCHEMA, TG_ARGV[0]);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER feedback_public_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON feedback
  FOR EACH STATEMENT EXECUTE FUNCTION notify_public_content_changed('{"type":"public_content_changed"}');
--> statement-breakpoint
CREATE TRIGGER products_public_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION notify_public_content_changed('{"type":"products_changed"}');
--> statement-breakpoint
CREATE TRIGGER risk_bands_public_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON risk_bands
  FOR EACH STATEMENT EXECUTE FUNCTION notify_public_content_changed('{"type":"products_changed"}');
