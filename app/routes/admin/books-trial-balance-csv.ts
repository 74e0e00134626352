import { requestContext, servicesContext } from "../../context.ts";
import { csvLine } from "../../domain/audit.ts";
import { parseOn, rupeesText } from "../../domain/books/reports.ts";
import { todayIST } from "../../domain/india-date.ts";
import { recordExport, trialBalance } from "../../server/books/reports.server.ts";
import { downloadHeaders } from "../../web/file-response.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/books-trial-balance-csv";

export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

/** GET /admin/books/trial-balance.csv?on=: the trial balance as CSV (RFC 4180, amounts in rupees), audited. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const { on } = parseOn(new URL(request.url).searchParams, todayIST(services.now()));
  const tb = await trialBalance(services, on);
  await recordExport(services, {
    by: user,
    client: context.get(requestContext),
    report: "trial_balance",
    filters: { on },
    rows: tb.accounts.length,
  });
  const body = [
    csvLine(["on", "account_code", "account_name", "purpose", "type", "debit", "credit"]),
    ...tb.accounts.map((a) => csvLine([on, a.code, a.name, a.purpose, a.type, rupeesText(a.debit), rupeesText(a.credit)])),
    csvLine([on, "", "Total", "", "", rupeesText(tb.totals.debit), rupeesText(tb.totals.credit)]),
  ].join("");
  return new Response(body, { headers: downloadHeaders(`trial-balance-${on}.csv`, "text/csv; charset=utf-8") });
}
