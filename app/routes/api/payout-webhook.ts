import { servicesContext } from "../../context.ts";
import { receiveMandateWebhook } from "../../server/mandates/answer.server.ts";
import { receivePaymentWebhook } from "../../server/payments/gateway-answer.server.ts";
import { receivePayoutWebhook } from "../../server/payouts/webhook.server.ts";
import type { Route } from "./+types/payout-webhook";

/**
 * POST /api/webhooks/{provider}: the payment gateway's events (razorpay, or the local checkout's
 * "local"), the payout provider's (razorpayx) and the mandate provider's (as `mandate-{name}`):
 * docs/product.md "Loan servicing", "Disbursal" and "Autopay". Checked by signature, not by
 * origin; a repeated delivery changes nothing.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  if (request.method !== "POST") return new Response("Not found", { status: 404 });
  if (services.mandates && params.provider === `mandate-${services.mandates.name}`) {
    const outcome = await receiveMandateWebhook(services, await request.text(), request.headers);
    if (outcome === "bad_signature") return Response.json({ error: "The signature does not match." }, { status: 401 });
    return Response.json({ status: outcome });
  }
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
