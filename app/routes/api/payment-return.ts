import { redirect } from "react-router";
import { servicesContext } from "../../context.ts";
import { returnFromGateway } from "../../server/payments/gateway-answer.server.ts";
import { translatorFor } from "../../web/i18n.server.ts";
import type { Route } from "./+types/payment-return";

/**
 * GET /api/payments/{provider}/return: where the gateway sends the borrower back. Checked by the
 * gateway's signature (not by session or origin); the payment is confirmed with the gateway, then
 * the borrower lands on `/{state}/{payment reference}`, which shows the server's status.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  if (params.provider !== services.payments.name) return new Response("Not found", { status: 404 });
  const to = await returnFromGateway(services, new URL(request.url).searchParams);
  if (!to)
    return new Response(translatorFor(context, "loanPayment")("unchecked"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return redirect(to);
}
