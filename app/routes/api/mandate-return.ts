import { redirect } from "react-router";
import { servicesContext } from "../../context.ts";
import { returnFromMandate } from "../../server/mandates/answer.server.ts";
import type { Toast } from "../../lib/toast.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { translatorFor } from "../../web/i18n.server.ts";
import type { Route } from "./+types/mandate-return";

/** What the borrower is told of each status, and how (the words in loanAutopay.returned). */
const TOLD = {
  active: "success",
  pending: "info",
  rejected: "error",
  cancelled: "info",
  paused: "info",
} as const satisfies Record<string, Toast["type"]>;

/**
 * GET /api/mandates/{provider}/return: where the mandate provider sends the borrower back (docs/product.md
 * "Autopay"). Checked by the provider's signature, not by session; the mandate is confirmed with the
 * provider, then the borrower lands on the loan page with what became of it, in their language.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  if (!services.mandates || params.provider !== services.mandates.name) return new Response("Not found", { status: 404 });
  const back = await returnFromMandate(services, new URL(request.url).searchParams);
  const t = translatorFor(context, "loanAutopay");
  if (!back)
    return new Response(t("returned.unchecked"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  if (!(back.status in TOLD)) return redirect(back.path);
  const status = back.status as keyof typeof TOLD;
  return redirectWithToast(services.config, request, back.path, { type: TOLD[status], title: t(`returned.${status}`) });
}
