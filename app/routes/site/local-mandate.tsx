import { Form, redirect } from "react-router";
import { servicesContext } from "../../context.ts";
import { longDate } from "../../domain/india-date.ts";
import { MANDATE_KIND_NAME, type MandateKind } from "../../domain/loans/mandate.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { receiveMandateWebhook } from "../../server/mandates/answer.server.ts";
import type { LocalMandates, MandateOutcome } from "../../server/mandates/local.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import type { Route } from "./+types/local-mandate";

/** The stand-in, only in APP_ENV=local with MANDATE_PROVIDER=local; everywhere else the not-found page. */
function localMandates(context: Route.LoaderArgs["context"], request: Request): LocalMandates {
  const services = context.get(servicesContext);
  if (services.config.appEnv !== "local" || services.mandates?.name !== "local") notFoundFullPath(request);
  return services.mandates as LocalMandates;
}

/**
 * /local-mandate/{id}: the local mandate stand-in's own page (docs/product.md "Autopay"), standing
 * where the bank's e-NACH or UPI AutoPay page would: the mandate and Approve, Reject.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const m = await localMandates(context, request).mandate(params.id);
  if (!m) notFoundFullPath(request);
  return {
    kind: m.kind as MandateKind,
    maxAmountPaise: m.maxAmountPaise,
    endDate: m.endDate,
    description: m.description,
    accountMasked: m.accountMasked,
    state: m.state,
  };
}

/** The choice: as a provider does, the signed webhook is sent, then the borrower returns with a signed query. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const provider = localMandates(context, request);
  const services = context.get(servicesContext);
  const form = await readForm(request);
  const outcome = String(form.get("outcome") ?? "");
  if (outcome !== "approve" && outcome !== "reject") return new Response("Choose Approve or Reject.", { status: 400 });
  const done = await provider.complete(params.id, outcome as MandateOutcome);
  if (!done) notFoundFullPath(request);
  const delivered = await receiveMandateWebhook(services, done.webhook.body, done.webhook.headers);
  services.log.info({ mandate: params.id, outcome, delivered }, "local mandate webhook delivered");
  return redirect(done.returnUrl);
}

export default function LocalMandatePage({ loaderData: m }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-md space-y-6 px-4 py-10">
      <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        Local autopay stand-in: nothing is registered at a bank. In production the borrower approves the mandate on their bank's own page.
      </p>
      <section aria-labelledby="mandate-title" className="card space-y-4">
        <h1 id="mandate-title" className="text-2xl">
          Approve autopay
        </h1>
        <p>{m.description}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-600">Type</dt>
          <dd>{MANDATE_KIND_NAME[m.kind] ?? m.kind}</dd>
          <dt className="text-slate-600">From account</dt>
          <dd>{m.accountMasked}</dd>
          <dt className="text-slate-600">At most a debit</dt>
          <dd>{formatRupees(m.maxAmountPaise)}</dd>
          <dt className="text-slate-600">Until</dt>
          <dd>{longDate(m.endDate)}</dd>
        </dl>
        {m.state === "created" ? (
          <Form method="post" className="grid gap-3">
            <button type="submit" name="outcome" value="approve" className="btn-primary">
              Approve
            </button>
            <button type="submit" name="outcome" value="reject" className="btn-secondary">
              Reject
            </button>
          </Form>
        ) : (
          <p>This mandate is already answered ({m.state}).</p>
        )}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Approve autopay (local stand-in)");
