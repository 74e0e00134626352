import { data, Form, Link, redirect, useNavigation } from "react-router";
import { requestContext, servicesContext } from "../../../context.ts";
import { kindOfPath, type LoanKind, stepPath } from "../../../domain/loans/application.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { applicationInProgress, applyOpen, startApplication } from "../../../server/loans/start.server.ts";
import { readForm } from "../../../web/forms.server.ts";
import { pageOf, signedInContext } from "../../../web/guards.server.ts";
import { notFoundFullPath } from "../../../web/not-found.server.ts";
import type { Route } from "./+types/start";

/**
 * /User/newLoan/Emi and /User/newLoan/salaryAdvance (docs/product.md "Credit policy"): a borrower
 * with an application of this kind in progress is taken to it; otherwise the page says whether a
 * new one is open to them now and starts it with a POST (a page view never creates a draft; two
 * starts at once make one).
 */
function kindOf(request: Request): LoanKind {
  const kind = kindOfPath(pageOf(request).path);
  if (!kind) notFoundFullPath(request);
  return kind;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const kind = kindOf(request);
  const existing = await applicationInProgress(services, { userId: user.id, kind });
  if (existing) throw redirect(stepPath(kind, existing.reference, "Step0"));
  const open = await applyOpen(services, { userId: user.id });
  return { kind, reasons: open.open ? [] : open.reasons };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const kind = kindOf(request);
  await readForm(request);
  const started = await startApplication(services, { userId: user.id, kind, client: context.get(requestContext) });
  if (!started.ok) return data({ reasons: started.reasons }, { status: 403 });
  throw redirect(stepPath(kind, started.application.reference, "Step0"));
}

export default function StartApplication({ loaderData, actionData }: Route.ComponentProps) {
  const { kind } = loaderData;
  const reasons = actionData?.reasons ?? loaderData.reasons;
  const busy = useNavigation().state === "submitting";
  const overdue = reasons.some((r) => r.code === "own_overdue");
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <h1 className="text-2xl sm:text-3xl">{kind === "emi" ? "Apply for an EMI loan" : "Apply for a salary advance"}</h1>
      {reasons.length ? (
        <section className="card space-y-3 border-amber-300 bg-amber-50" aria-labelledby="not-open-title" data-testid="apply-closed">
          <h2 id="not-open-title" className="text-xl">
            {kind === "emi" ? "A new EMI loan is not open to you now" : "A new salary advance is not open to you now"}
          </h2>
          <ul className="list-disc space-y-1 pl-5" data-testid="apply-reasons">
            {reasons.map((r) => (
              <li key={r.code}>{r.message}</li>
            ))}
          </ul>
          <p className="flex flex-wrap gap-3">
            {overdue ? (
              <Link className="btn-primary" to="/User/Loans">
                Pay what is overdue
              </Link>
            ) : null}
            <Link className="btn-secondary" to="/User/Dashboard">
              Back to your dashboard
            </Link>
          </p>
        </section>
      ) : (
        <section className="card space-y-4" aria-labelledby="start-title">
          <h2 id="start-title" className="text-xl">
            What happens next
          </h2>
          <ol className="list-decimal space-y-1 pl-5">
            <li>With your consent we check your PAN and your credit history, then show what we can offer you.</li>
            <li>
              {kind === "emi"
                ? "You choose the amount and tenure, the purpose and the bank account the money goes to."
                : "You choose the amount, the purpose and the bank account the money goes to."}
            </li>
            <li>You read the Key Fact Statement and the agreement, and sign them with a one-time code.</li>
            <li>Our credit team checks your application; we send you an SMS with the decision.</li>
          </ol>
          <Form method="post">
            <button type="submit" className="btn-primary" disabled={busy}>
              {kind === "emi" ? "Start my EMI loan application" : "Start my salary advance application"}
            </button>
          </Form>
        </section>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.kind === "salary_advance" ? "Apply for a salary advance" : "Apply for an EMI loan");
