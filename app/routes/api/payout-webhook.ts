import { servicesContext } from "../../context.ts";
import { receivePaymentWebhook } from "../../server/payments/gateway-answer.server.ts";
import { receivePayoutWebhook } from "../../server/payouts/webhook.server.ts";
import type { Route } from "./+types/payout-webhook";

/**
 * POST /api/webhooks/{provider}: the payment gateway's events (razorpay, or the local checkout's
 * "local") and the payout provider's (razorpayx), docs/product.md "Loan servicing" and
 * "Disbursal". Checked by signature, not by origin; a repeated delivery changes nothing.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  if (request.method !== "POST") return new Response("Not found", { status: 404 });
  if (params.provider === services.payments.name) {
    const outcome = await receivePaymentWebhook(services, await request.text(), request.headers);
    if (outcome === "bad_signature") return Response.json({ error: "The signature does not match." }, { status: 401 });
    return Response.json({ status: outcome });
  }
  if (params.provider !== services.payouts.name) return new Response("Not found", { status: 404 });
  const body = await request.text();
  const outcome = await receivePayoutWebhook(services, body, request.headers);
  if (outcome === "bad_signature") return Response.json({ error: "The signature does not match." }, { status: 401 });
  return Response.json({ status: outcome });
}

export function loader() {
  return new Response("Not found", { status: 404 });
}
