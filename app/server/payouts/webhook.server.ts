import { and, eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { isUuid } from "../../domain/validators/ids.ts";
import { payouts } from "../db/schema.ts";
import { type Applied, applyAnswer } from "./answer.server.ts";

type Services = Pick<AppServices, "db" | "now" | "jobs" | "payouts" | "keyring" | "config" | "log" | "storage">;

/**
 * A payout provider's webhook: its signature checked, the payout found by the idempotency key it
 * was created with (or the provider's id), the answer applied once however often it comes.
 */
export async function receivePayoutWebhook(
  services: Services,
  rawBody: string,
  headers: Headers,
): Promise<Applied | "bad_signature" | "ignored" | "unknown_payout"> {
  const event = services.payouts.webhook(rawBody, headers);
  if (event === "bad_signature" || event === "ignored") return event;
  const byKey = event.key && isUuid(event.key) ? eq(payouts.id, event.key) : undefined;
  const [row] = await services.db
    .select({ id: payouts.id })
    .from(payouts)
    .where(byKey ?? and(eq(payouts.provider, services.payouts.name), eq(payouts.providerPayoutId, event.answer.providerPayoutId)));
  if (!row) {
    services.log.warn({ providerPayoutId: event.answer.providerPayoutId }, "a payout webhook for a payout this application did not make");
    return "unknown_payout";
  }
  return applyAnswer(services, row.id, event.answer);
}
