import { requestContext, servicesContext } from "../../context.ts";
import { csvLine } from "../../domain/audit.ts";
import { parseMonthParam, rupeesText } from "../../domain/books/reports.ts";
import { todayIST } from "../../domain/india-date.ts";
import { portfolioReport, recordExport } from "../../server/books/reports.server.ts";
import { downloadHeaders } from "../../web/file-response.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/books-portfolio-csv";

export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

const COLUMNS = [
  "as_at",
  "asset_class",
  "loans",
  "principal_outstanding",
  "interest_receivable",
  "interest_in_suspense",
  "book_value",
  "provision",
];

/**
 * GET /admin/books/portfolio.csv?month=: the active loans now by asset class (provision held), then
 * the month end's kept classification (provision required), amounts in rupees. Audited.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const today = todayIST(services.now());
  const { month: asked } = parseMonthParam(new URL(request.url).searchParams);
  const report = await portfolioReport(services, { asked, today });
  const rows = [
    ...report.now.map((r) =>
      csvLine([
        today,
        r.assetClass,
        String(r.loans),
        rupeesText(r.principal),
        rupeesText(r.interestReceivable),
        rupeesText(r.interestSuspense),
        rupeesText(r.bookValue),
        rupeesText(r.provision),
      ]),
    ),
    ...report.monthEnd.map((r) =>
      csvLine([report.month, r.assetClass, String(r.loans), "", "", "", rupeesText(r.bookValue), rupeesText(r.provision)]),
    ),
  ];
  await recordExport(services, {
    by: user,
    client: context.get(requestContext),
    report: "portfolio",
    filters: { today, month: report.month },
    rows: rows.length,
  });
  return new Response(csvLine(COLUMNS) + rows.join(""), {
    headers: downloadHeaders(`portfolio-${today}.csv`, "text/csv; charset=utf-8"),
  });
}
