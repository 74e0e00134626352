import { requestContext, servicesContext } from "../../context.ts";
import { parseJournalFilter, TALLY_HEAD, TALLY_TAIL, tallyVoucher } from "../../domain/books/reports.ts";
import { todayIST } from "../../domain/india-date.ts";
import { startJournalExport, type JournalVoucher, journalVoucherBatches } from "../../server/books/reports.server.ts";
import { streamedDownload } from "../../web/file-response.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/books-journal-xml";

export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

/**
 * GET /admin/books/journal.xml?<the journal's filters>: the matching entries as a Tally Prime import
 * file, a journal voucher an entry with a ledger entry per account it moves (the per-loan lines
 * summed: Tally keeps no loan subledger), newest first, at most BOOKS_EXPORT_LIMIT vouchers. Audited.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const { filter } = parseJournalFilter(new URL(request.url).searchParams);
  const { chart, batch } = await startJournalExport(services, {
    filter,
    format: "tally",
    by: user,
    client: context.get(requestContext),
  });
  return streamedDownload({
    head: TALLY_HEAD,
    tail: TALLY_TAIL,
    batches: journalVoucherBatches(services, batch),
    write: (vouchers: JournalVoucher[]) =>
      vouchers
        .filter((v) => v.lines.length > 0)
        .map((v) => tallyVoucher({ ...v, lines: v.lines.map((l) => ({ ledger: chart.account(l.purpose).name, paise: l.paise })) }))
        .join(""),
    filename: `journal-tally-${todayIST(services.now())}.xml`,
    contentType: "application/xml; charset=utf-8",
  });
}
