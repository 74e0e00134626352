import { servicesContext } from "../../context.ts";
import { LOAN_NUMBER } from "../../domain/loans/disbursal.ts";
import { readSession } from "../../server/auth/session.server.ts";
import { payoffFor } from "../../server/loan-account/read.server.ts";
import type { Route } from "./+types/payoff";

/**
 * GET /api/loans/{loanNumber}/payoff?on=YYYY-MM-DD (docs/product.md "Loan servicing"), for the
 * owner's session: {"on","principalPaise","interestPaise","overduePaise","penalPaise","totalPaise"}.
 * Another borrower's loan number 404 (as a missing one); a date outside today to 30 days ahead 400.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const signedIn = await readSession(services, request);
  const headers = { "Cache-Control": "private, no-store" };
  if (!signedIn) return Response.json({ error: "Sign in to see your loan." }, { status: 401, headers });
  const loanNumber = params.loanNumber.toUpperCase();
  const on = new URL(request.url).searchParams.get("on") ?? "";
  const asked = LOAN_NUMBER.test(loanNumber)
    ? await payoffFor(services, { userId: signedIn.user.id, loanNumber, on })
    : ({ ok: false, reason: "not_found" } as const);
  if (!asked.ok && asked.reason === "not_found") return Response.json({ error: "No such loan." }, { status: 404, headers });
  if (!asked.ok)
    return Response.json({ error: "on must be a date from today to 30 days ahead, as YYYY-MM-DD.", field: "on" }, { status: 400, headers });
  const q = asked.quote;
  return Response.json(
    {
      on: q.on,
      principalPaise: q.principalPaise,
      interestPaise: q.interestPaise,
      overduePaise: q.overduePaise,
      penalPaise: q.penalPaise,
      totalPaise: q.totalPaise,
    },
    { headers },
  );
}
