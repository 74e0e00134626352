/**
 * A loan that ended (docs/product.md "Autopay"): closed, foreclosed, cancelled in the cooling-off
 * period or written off. Its live mandate is ended at the provider, then here, audited as the
 * system's. Run by the `mandate-end` job that the change queues in its own transaction; it throws
 * (and is tried again later) while the provider does not answer or the mandate is still being
 * registered, and changes nothing a second time.
 */
import { eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { mandates } from "../db/schema.ts";
import { lockLiveMandate, registering } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "now" | "log" | "mandates">;

export async function endMandates(services: Services, { applicationId, reason }: { applicationId: string; reason: string }) {
  const mandate = await lockLiveMandate(services, applicationId);
  if (!mandate) return;
  if (registering(mandate, services.now())) throw new Error("the loan's mandate is still being registered; ending it later");
  if (mandate.providerMandateId) {
    if (services.mandates?.name !== mandate.provider)
      throw new Error(`the mandate's provider (${mandate.provider}) is not configured: it cannot be ended at the bank`);
    const answer = await services.mandates.cancel(mandate.providerMandateId);
    if (answer.state !== "cancelled" && answer.state !== "rejected") throw new Error("the mandate provider did not end the mandate");
  }
  const at = services.now();
  await services.db.transaction(async (tx) => {
    const m = await lockLiveMandate({ db: tx }, applicationId);
    if (!m || m.id !== mandate.id) return;
    await tx.update(mandates).set({ status: "cancelled", reason, endedAt: at, updatedAt: at }).where(eq(mandates.id, m.id));
    await audit(
      { db: tx },
      {
        by: "system",
        at,
        action: "mandate.cancelled",
        subject: applicationSubject(applicationId),
        details: { reference: m.reference, reason, wasStatus: m.status },
      },
    );
  });
}
