/**
 * A loan that ended (docs/product.md "Autopay"): closed, foreclosed, cancelled in the cooling-off
 * period or written off. Its live mandate is ended at the provider, then here, audited as the
 * system's. Run by the `mandate-end` job that the change queues in its own transaction; it throws
 * (and is tried again later) while the provider does not answer or the mandate is still being
 * registered, and changes nothing a second time.
 */
import type { AppServices } from "../../context.ts";
import { endLiveMandate } from "./cancel.server.ts";

type Services = Pick<AppServices, "db" | "now" | "log" | "mandates">;

export async function endMandates(services: Services, { applicationId, reason }: { applicationId: string; reason: string }) {
  const ended = await endLiveMandate(services, { applicationId, reason, by: "system", client: null });
  if (!ended.ok && ended.reason !== "no_mandate") throw new Error(`the loan's mandate was not ended (${ended.reason}); trying again later`);
}
