import { requestContext, servicesContext } from "../../context.ts";
import { csvLine } from "../../domain/audit.ts";
import { parseRange, rupeesText } from "../../domain/books/reports.ts";
import { todayIST } from "../../domain/india-date.ts";
import { incomeStatement, recordExport } from "../../server/books/reports.server.ts";
import { downloadHeaders } from "../../web/file-response.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/books-income-csv";

export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

/** GET /admin/books/income.csv?from=&to=: each income and expense account's movement in the period, the totals and the net. Audited. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const { range } = parseRange(new URL(request.url).searchParams, todayIST(services.now()));
  const s = await incomeStatement(services, range);
  const line = (code: string, name: string, type: string, debits: number | null, credits: number | null, movement: number) =>
    csvLine([
      range.from,
      range.to,
      code,
      name,
      type,
      debits === null ? "" : rupeesText(debits),
      credits === null ? "" : rupeesText(credits),
      rupeesText(movement),
    ]);
  const rows = [
    ...s.income.map((l) => line(l.code, l.name, "income", l.debits, l.credits, l.movement)),
    line("", "Total income", "total", null, null, s.totalIncome),
    ...s.expenses.map((l) => line(l.code, l.name, "expense", l.debits, l.credits, l.movement)),
    line("", "Total expenses", "total", null, null, s.totalExpenses),
    line("", "Net income", "net", null, null, s.net),
  ];
  await recordExport(services, {
    by: user,
    client: context.get(requestContext),
    report: "income",
    filters: { from: range.from, to: range.to },
    rows: rows.length,
  });
  return new Response(csvLine(["from", "to", "account_code", "account_name", "type", "debits", "credits", "movement"]) + rows.join(""), {
    headers: downloadHeaders(`income-${range.from}-to-${range.to}.csv`, "text/csv; charset=utf-8"),
  });
}
