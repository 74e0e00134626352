import { Form, redirect } from "react-router";
import { servicesContext } from "../../context.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { LocalCheckout, Outcome } from "../../server/payments/local.server.ts";
import { receivePaymentWebhook } from "../../server/payments/gateway-answer.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import type { Route } from "./+types/local-checkout";

/** The stand-in gateway, only in APP_ENV=local with PAYMENT_PROVIDER=local; everywhere else the not-found page. */
function localCheckout(context: Route.LoaderArgs["context"], request: Request): LocalCheckout {
  const services = context.get(servicesContext);
  if (services.config.appEnv !== "local" || services.payments.name !== "local") notFoundFullPath(request);
  return services.payments as LocalCheckout;
}

/**
 * /local-checkout/{order}: the local checkout stand-in's own page (docs/product.md "Loan
 * servicing"), standing where a gateway's hosted page would: the order and Pay, Fail, Cancel.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const order = await localCheckout(context, request).order(params.id);
  if (!order) notFoundFullPath(request);
  return { id: order.id, amountPaise: order.amountPaise, description: order.description, state: order.state };
}

/** The choice: as a gateway does, the signed webhook is sent, then the borrower returns with a signed query. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const gateway = localCheckout(context, request);
  const services = context.get(servicesContext);
  const form = await readForm(request);
  const outcome = String(form.get("outcome") ?? "");
  if (!["pay", "fail", "cancel"].includes(outcome)) return new Response("Choose Pay, Fail or Cancel.", { status: 400 });
  const done = await gateway.complete(params.id, outcome as Outcome);
  if (!done) notFoundFullPath(request);
  const delivered = await receivePaymentWebhook(services, done.webhook.body, done.webhook.headers);
  services.log.info({ order: params.id, outcome, delivered }, "local checkout webhook delivered");
  return redirect(done.returnUrl);
}

export default function LocalCheckoutPage({ loaderData }: Route.ComponentProps) {
  const o = loaderData;
  return (
    <div className="mx-auto max-w-md space-y-6 px-4 py-10">
      <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        Local checkout stand-in: no money moves. In production the borrower pays on the payment gateway's own page.
      </p>
      <section aria-labelledby="checkout-title" className="card space-y-4">
        <h1 id="checkout-title" className="text-2xl">
          Pay {formatRupees(o.amountPaise)}
        </h1>
        <p>{o.description}</p>
        {o.state === "created" ? (
          <Form method="post" className="grid gap-3">
            <button type="submit" name="outcome" value="pay" className="btn-primary">
              Pay {formatRupees(o.amountPaise)}
            </button>
            <button type="submit" name="outcome" value="fail" className="btn-secondary">
              Fail (the bank declines)
            </button>
            <button type="submit" name="outcome" value="cancel" className="btn-secondary">
              Cancel
            </button>
          </Form>
        ) : (
          <p>This order is finished ({o.state}).</p>
        )}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Checkout (local stand-in)");
