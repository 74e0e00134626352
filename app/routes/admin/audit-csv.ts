import { requestContext, servicesContext } from "../../context.ts";
import { can } from "../../domain/roles.ts";
import { AUDIT_CSV_COLUMNS, AUDIT_EXPORT_LIMIT, csvLine, filterForRecord, parseAuditFilter } from "../../domain/audit.ts";
import { csvTimeIST, todayIST } from "../../domain/india-date.ts";
import { audit } from "../../server/audit.server.ts";
import { auditExportBatches, auditExportStart, type AuditRow } from "../../server/audit/read.server.ts";
import { streamedDownload } from "../../web/file-response.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/audit-csv";

/** Only administrators export the log; the export is itself audited. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("audit.export")];

const cells = (r: AuditRow) =>
  csvLine([
    csvTimeIST(r.at),
    r.actorName ?? (r.actorRole === "system" ? "system" : ""),
    r.actorRole,
    r.action,
    r.subjectType,
    r.subjectId,
    r.reference,
    r.borrowerMobile,
    r.details === null || r.details === undefined ? "" : JSON.stringify(r.details),
    r.ip,
    r.userAgent,
  ]);

/**
 * GET /admin/audit.csv?<the viewer's filters>: the matching rows, newest first, as CSV (at most
 * AUDIT_EXPORT_LIMIT), streamed in batches. Filters that are not understood are dropped, as on the page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const client = context.get(requestContext);
  const parsed = parseAuditFilter(new URL(request.url).searchParams).filter;
  const filter = { ...parsed, hideScreening: !can(user.role, "aml.view") };
  const { upToId, total } = await auditExportStart(services, filter);
  const rows = Math.min(total, AUDIT_EXPORT_LIMIT);
  await audit(services, {
    by: user,
    client,
    at: "database",
    action: "audit.exported",
    details: { filters: filterForRecord(parsed), rows, ...(total > rows ? { matching: total } : {}) },
  });
  const batches = auditExportBatches(services, { filter: { ...filter, page: 1 }, upToId, limit: AUDIT_EXPORT_LIMIT });
  return streamedDownload({
    head: csvLine([...AUDIT_CSV_COLUMNS]),
    batches,
    write: (batch) => batch.map(cells).join(""),
    filename: `audit-${todayIST(services.now())}.csv`,
    contentType: "text/csv; charset=utf-8",
  });
}
