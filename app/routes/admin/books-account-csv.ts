import { data } from "react-router";
import { requestContext, servicesContext } from "../../context.ts";
import { csvLine } from "../../domain/audit.ts";
import { BOOKS_EXPORT_LIMIT, drCr, isPurpose, parseRange, rupeesText } from "../../domain/books/reports.ts";
import { todayIST } from "../../domain/india-date.ts";
import { chartAccounts, ledgerExportBatches, type LedgerLine, ledgerSummary, recordExport } from "../../server/books/reports.server.ts";
import { streamedDownload } from "../../web/file-response.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/books-account-csv";

export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

const COLUMNS = [
  "entry_date",
  "entry_no",
  "kind",
  "narration",
  "loan_number",
  "provider_ref",
  "debit",
  "credit",
  "balance",
  "balance_side",
];
/** A balance as the file writes it: the amount, and its side in the next column. */
const balanceCells = (balance: number) => [rupeesText(Math.abs(balance)), drCr(balance)];

/**
 * GET /admin/books/accounts/:purpose/ledger.csv?from=&to=: the account's ledger for the period as
 * CSV: the opening balance, each line with the running balance (at most BOOKS_EXPORT_LIMIT lines,
 * streamed), then the closing balance. Audited.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const purpose = params.purpose;
  if (!isPurpose(purpose)) throw data({ message: "There is no such account in the books." }, { status: 404 });
  const { range } = parseRange(new URL(request.url).searchParams, todayIST(services.now()));
  const [chart, summary] = await Promise.all([chartAccounts(services), ledgerSummary(services, purpose, range)]);
  const rows = Math.min(summary.lines, BOOKS_EXPORT_LIMIT);
  await recordExport(services, {
    by: user,
    client: context.get(requestContext),
    report: "general_ledger",
    filters: { purpose, from: range.from, to: range.to },
    rows,
    matching: summary.lines,
  });
  const account = chart.account(purpose);
  const capped = summary.lines > rows;
  return streamedDownload({
    head:
      csvLine(COLUMNS) +
      csvLine([
        range.from,
        "",
        "opening",
        `Opening balance of ${account.code} ${account.name}`,
        "",
        "",
        "",
        "",
        ...balanceCells(summary.opening),
      ]),
    batches: ledgerExportBatches(services, { purpose, range, opening: summary.opening, limit: BOOKS_EXPORT_LIMIT }),
    write: (lines: LedgerLine[]) =>
      lines
        .map((l) =>
          csvLine([
            l.entryDate,
            String(l.entryNo),
            l.kind,
            l.narration,
            l.loanNumber,
            l.providerRef,
            rupeesText(l.debit),
            rupeesText(l.credit),
            ...balanceCells(l.balance),
          ]),
        )
        .join(""),
    // A file cut at the cap has no closing line: its last balance is not the period's.
    tail: capped ? "" : csvLine([range.to, "", "closing", "Closing balance", "", "", "", "", ...balanceCells(summary.closing)]),
    filename: `ledger-${account.code || purpose}-${range.from}-to-${range.to}.csv`.replace(/[^\w.-]/g, "_"),
    contentType: "text/csv; charset=utf-8",
  });
}
