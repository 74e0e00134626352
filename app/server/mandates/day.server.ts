/**
 * Autopay's part of the day (docs/product.md "Autopay"), after the daily servicing run: today's
 * debits presented, the pre-debit notices of the coming days sent, and debits without an answer
 * for 3 working days asked about. The 10-minute sweep presents what a stopped process left, and
 * asks the provider about mandates still waiting for the bank (a webhook lost, or one the provider
 * sends without naming the mandate).
 */
import { and, eq, gt, isNotNull, lt } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { mandates } from "../db/schema.ts";
import { applyMandateEvent } from "./answer.server.ts";
import { businessToday } from "../loan-account/account.server.ts";
import { askAboutLateDebits } from "./debit-answer.server.ts";
import { refundDueExcesses } from "./excess.server.ts";
import { noticeDebits } from "./notice.server.ts";
import { presentDebits } from "./present.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "mandates" | "payouts" | "keyring">;

export async function runAutopayDay(services: Services) {
  if (!services.mandates) return null;
  const day = businessToday(services);
  const presented = await presentDebits(services, day);
  const announced = await noticeDebits(services, { day });
  const asked = await askAboutLateDebits(services);
  services.log.info({ day, presented, announced, asked }, "autopay's daily run finished");
  return { day, presented, announced, asked };
}

/** A mandate waiting for the bank this long is asked about by the sweep. */
export const ASK_PENDING_AFTER_MINUTES = 10;

export async function sweepAutopay(services: Services) {
  const provider = services.mandates;
  if (!provider) return null;
  const presented = await presentDebits(services, businessToday(services));
  // Debits that paid an instalment already paid, not kept as an advance by their refund day.
  const refunded = await refundDueExcesses(services);
  const waiting = await services.db
    .select({ providerMandateId: mandates.providerMandateId })
    .from(mandates)
    .where(
      and(
        eq(mandates.status, "pending"),
        eq(mandates.provider, provider.name),
        isNotNull(mandates.providerMandateId),
        lt(mandates.createdAt, new Date(services.now().getTime() - ASK_PENDING_AFTER_MINUTES * 60_000)),
        // One not approved within a week was left at the bank: asked no more.
        gt(mandates.createdAt, new Date(services.now().getTime() - 7 * 86_400_000)),
      ),
    );
  let asked = 0;
  for (const { providerMandateId } of waiting) {
    if (!providerMandateId) continue;
    try {
      await applyMandateEvent(services, await provider.fetch(providerMandateId));
      asked++;
    } catch (error) {
      services.log.warn({ err: error, providerMandateId }, "the mandate provider did not answer about a mandate waiting for the bank");
    }
  }
  return { presented, refunded, asked };
}
