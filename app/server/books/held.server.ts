/**
 * Money received but not applied to a loan (docs/product.md "The lender's books"): a gateway
 * payment whose amount differs from its order (held until staff apply it), an autopay debit after
 * a write-off (held until it is returned). The money is at the gateway all the same: it is booked
 * when held, as an unapplied receipt of no loan's (so it moves none of the loan's accounts), and
 * leaves that account when applied (the payment's entry takes it from there) or returned.
 */
import { eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { formatRupees } from "../../domain/money.ts";
import { journalEntries, payments } from "../db/schema.ts";
import { cashAccountOf } from "./cash.ts";
import { postEntry, reverseEntry } from "./journal.server.ts";

type Services = Pick<AppServices, "db" | "now">;

const heldKey = (paymentId: string) => `held:${paymentId}`;
const returnedKey = (payoutId: string) => `held-returned:${payoutId}`;

async function entryByKey({ db }: Pick<AppServices, "db">, sourceKey: string) {
  const [e] = await db.select({ id: journalEntries.id }).from(journalEntries).where(eq(journalEntries.sourceKey, sourceKey));
  return e ?? null;
}

/** Whether the payment was booked as held (its entry, when applied, then takes the money from unapplied receipts). */
export const wasHeld = async (services: Pick<AppServices, "db">, paymentId: string) =>
  (await entryByKey(services, heldKey(paymentId))) !== null;

/** A payment just held: the money received, in the gateway's clearing account against unapplied receipts. Once per payment. */
export async function bookHeldReceipt(services: Services, { paymentId }: { paymentId: string }) {
  if (await wasHeld(services, paymentId)) return;
  const [p] = await services.db.select().from(payments).where(eq(payments.id, paymentId));
  const amount = p?.receivedPaise ?? p?.amountPaise ?? 0;
  if (!p?.businessDate || amount <= 0) return;
  await postEntry(services, {
    kind: "held_receipt",
    businessDate: p.businessDate,
    applicationId: p.applicationId,
    sourceKey: heldKey(p.id),
    narration: `${formatRupees(amount)} received and held, not applied (${p.failureReason ?? "held"})`,
    lines: [
      { purpose: cashAccountOf(p.provider), paise: amount, applicationId: p.applicationId, providerRef: p.providerPaymentId },
      { purpose: "unapplied_receipts", paise: -amount, applicationId: null },
    ],
  });
}

/** A held payment returned to the borrower by a payout: out of unapplied receipts, through the payout account. */
export async function bookHeldReturned(
  services: Services,
  {
    payout,
    businessDate,
  }: { payout: { id: string; amountPaise: number; providerPayoutId: string | null; applicationId: string }; businessDate: string },
) {
  if (await entryByKey(services, returnedKey(payout.id))) return;
  await postEntry(services, {
    kind: "held_returned",
    businessDate,
    applicationId: payout.applicationId,
    sourceKey: returnedKey(payout.id),
    narration: `${formatRupees(payout.amountPaise)} held and returned to the borrower`,
    lines: [
      { purpose: "unapplied_receipts", paise: payout.amountPaise, applicationId: null },
      { purpose: "payout_account", paise: -payout.amountPaise, applicationId: payout.applicationId, providerRef: payout.providerPayoutId },
    ],
  });
}

/** The bank sent a returned payment back: held again (the return's entry reversed). */
export async function bookHeldReturnReversed(services: Services, { payoutId, businessDate }: { payoutId: string; businessDate: string }) {
  const returned = await entryByKey(services, returnedKey(payoutId));
  if (!returned) return;
  const [already] = await services.db
    .select({ id: journalEntries.id })
    .from(journalEntries)
    .where(eq(journalEntries.reversesId, returned.id));
  if (already) return;
  await reverseEntry(services, returned, {
    kind: "held_returned_reversal",
    businessDate,
    narration: "The return of a held payment came back from the bank: held again",
  });
}
