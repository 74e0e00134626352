import { redirect } from "react-router";
import { servicesContext } from "../../context.ts";
import { returnFromMandate } from "../../server/mandates/answer.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import type { Route } from "./+types/mandate-return";

const TOLD = {
  active: { type: "success", title: "Autopay is set up: your instalments will be debited on their due dates." },
  pending: { type: "info", title: "Your bank has not confirmed autopay yet. This page shows it as soon as it does." },
  rejected: {
    type: "error",
    title: "Autopay was not approved, so nothing will be debited. Pay each instalment with Pay now, or try again.",
  },
  cancelled: { type: "info", title: "Autopay is cancelled." },
  paused: { type: "info", title: "Autopay is paused." },
} as const;

/**
 * GET /api/mandates/{provider}/return: where the mandate provider sends the borrower back (docs/product.md
 * "Autopay"). Checked by the provider's signature, not by session; the mandate is confirmed with the
 * provider, then the borrower lands on the loan page with what became of it.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  if (!services.mandates || params.provider !== services.mandates.name) return new Response("Not found", { status: 404 });
  const back = await returnFromMandate(services, new URL(request.url).searchParams);
  if (!back)
    return new Response("This return from the autopay service could not be checked.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return back.status in TOLD ? redirectWithToast(services.config, request, back.path, TOLD[back.status]) : redirect(back.path);
}
