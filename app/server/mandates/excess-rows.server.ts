/**
 * What the payouts module asks about a debit's excess (docs/product.md "Autopay") when a refund's
 * answer arrives, kept apart from the refund itself so that the two modules do not import each other.
 */
import { eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { excessRefundDate } from "../../domain/loans/autopay.ts";
import { todayIST } from "../../domain/india-date.ts";
import { mandateDebits } from "../db/schema.ts";

/**
 * A refund payout of a debit's excess that failed (no money left us): the excess is undecided again,
 * to be refunded on the next working day or kept by the borrower meanwhile.
 */
export async function excessRefundFailed(services: Pick<AppServices, "db" | "config" | "now">, payoutId: string) {
  const at = services.now();
  await services.db
    .update(mandateDebits)
    .set({
      excessChoice: null,
      excessPayoutId: null,
      excessRefundOn: excessRefundDate(todayIST(at), services.config.holidays),
      updatedAt: at,
    })
    .where(eq(mandateDebits.excessPayoutId, payoutId));
}

/** Whether a refund payout sends back a debit's excess (out of the advance held, not of an overpayment). */
export async function isExcessRefund({ db }: Pick<AppServices, "db">, payoutId: string) {
  const [d] = await db.select({ id: mandateDebits.id }).from(mandateDebits).where(eq(mandateDebits.excessPayoutId, payoutId));
  return Boolean(d);
}
