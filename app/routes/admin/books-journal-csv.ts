import { requestContext, servicesContext } from "../../context.ts";
import { csvLine } from "../../domain/audit.ts";
import { parseJournalFilter, rupeesText } from "../../domain/books/reports.ts";
import { todayIST } from "../../domain/india-date.ts";
import { type JournalExportLine, startJournalExport, journalLineBatches } from "../../server/books/reports.server.ts";
import { streamedDownload } from "../../web/file-response.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/books-journal-csv";

export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

const COLUMNS = [
  "entry_no",
  "entry_date",
  "business_date",
  "kind",
  "narration",
  "account_code",
  "account_name",
  "loan_number",
  "provider_ref",
  "debit",
  "credit",
];

/**
 * GET /admin/books/journal.csv?<the journal's filters>: the matching entries' lines, a row a line,
 * newest entry first (at most BOOKS_EXPORT_LIMIT lines, streamed), amounts in rupees. Audited.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const { filter } = parseJournalFilter(new URL(request.url).searchParams);
  const { chart, batch } = await startJournalExport(services, {
    filter,
    format: "csv",
    by: user,
    client: context.get(requestContext),
  });
  return streamedDownload({
    head: csvLine(COLUMNS),
    batches: journalLineBatches(services, batch),
    write: (lines: JournalExportLine[]) =>
      lines
        .map((l) => {
          const account = chart.account(l.purpose);
          return csvLine([
            String(l.entryNo),
            l.entryDate,
            l.businessDate,
            l.kind,
            l.narration,
            account.code,
            account.name,
            l.loanNumber,
            l.providerRef,
            rupeesText(l.debit),
            rupeesText(l.credit),
          ]);
        })
        .join(""),
    filename: `journal-${todayIST(services.now())}.csv`,
    contentType: "text/csv; charset=utf-8",
  });
}
