import { redirect } from "react-router";
import { servicesContext } from "../../context.ts";
import { msg } from "../../i18n/form-message.ts";
import { returnFromMandate } from "../../server/mandates/answer.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { translatorFor } from "../../web/i18n.server.ts";
import type { Route } from "./+types/mandate-return";

/** What the borrower is told back on the loan page (message keys, said in its language: it loads loanAutopay). */
const TOLD = {
  active: { type: "success", title: msg("loanAutopay.returned.active") },
  pending: { type: "info", title: msg("loanAutopay.returned.pending") },
  rejected: { type: "error", title: msg("loanAutopay.returned.rejected") },
  cancelled: { type: "info", title: msg("loanAutopay.returned.cancelled") },
  paused: { type: "info", title: msg("loanAutopay.returned.paused") },
} as const;

/**
 * The same, in English, back on the application's page (a mandate set up before disbursal): that
 * page does not load the loan page's messages.
 */
const TOLD_IN_ENGLISH = {
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
    return new Response(translatorFor(context, "loanAutopay")("returned.unchecked"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  if (!(back.status in TOLD)) return redirect(back.path);
  const status = back.status as keyof typeof TOLD;
  const onLoanPage = back.path.startsWith("/User/Loans/");
  return redirectWithToast(services.config, request, back.path, onLoanPage ? TOLD[status] : TOLD_IN_ENGLISH[status]);
}
