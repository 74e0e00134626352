/**
 * Presenting autopay debits (docs/product.md "Autopay"): on its date the daily job presents each
 * announced debit for what is then due of the instalments due by that date, never more than its
 * notice named or the mandate's maximum; a Pay now made before lowers it or, when nothing is left,
 * cancels it. The debit is marked presenting (so the instalment is not past due while it lasts) in
 * one transaction with the loan locked, the provider is asked outside it with the debit's id as
 * the idempotency key, and its answer is kept; a presentation cut off half-way is sent again with
 * the same key (never a second debit).
 */
import { and, asc, eq, gt, lte, or, lt } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { DEBIT_CANCELLED, debitAmount, noticeIsInTime } from "../../domain/loans/autopay.ts";
import { replay } from "../../domain/loans/servicing.ts";
import { loanApplications, mandateDebits, mandates } from "../db/schema.ts";
import { cacheState, ledgerOf, pendingDebitEvent, termsOf } from "../loan-account/account.server.ts";
import { applyDebitEvent, askAboutDebit } from "./debit-answer.server.ts";
import { dueBy, lockDebit, type MandateDebit } from "./debit-rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "mandates">;

/** A presentation not confirmed as sent this long after it began was cut off: sent again (same key). */
export const PRESENTING_RETRY_SECONDS = 120;

export type Presented = "in_progress" | "presenting" | "cancelled" | "unchanged" | "answered";

/** Every debit whose date has come (today's and any a stopped process left), presented. */
export async function presentDebits(services: Services, day: IsoDate) {
  const counts: Record<Presented, number> = { in_progress: 0, presenting: 0, cancelled: 0, unchanged: 0, answered: 0 };
  const stale = new Date(services.now().getTime() - PRESENTING_RETRY_SECONDS * 1000);
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const page = await services.db
      .select({ id: mandateDebits.id })
      .from(mandateDebits)
      .where(
        and(
          gt(mandateDebits.id, after),
          or(
            and(eq(mandateDebits.status, "notified"), lte(mandateDebits.presentOn, day)),
            and(eq(mandateDebits.status, "presenting"), lt(mandateDebits.updatedAt, stale)),
          ),
        ),
      )
      .orderBy(asc(mandateDebits.id))
      .limit(500);
    if (page.length === 0) break;
    for (const { id } of page) {
      try {
        counts[await presentDebit(services, { debitId: id, day })]++;
      } catch (error) {
        // One debit's trouble never stops the others; the sweep tries it again.
        services.log.error({ err: error, debitId: id }, "an autopay debit could not be presented");
      }
    }
    after = page[page.length - 1]?.id ?? after;
  }
  return counts;
}

/** One debit: claimed and figured with its loan locked, presented, and the provider's answer kept. */
export async function presentDebit(services: Services, { debitId, day }: { debitId: string; day: IsoDate }): Promise<Presented> {
  const provider = services.mandates;
  if (!provider) return "unchanged";
  const at = services.now();
  const claimed = await services.db.transaction(async (tx): Promise<{ debit: MandateDebit; providerMandateId: string } | Presented> => {
    const [owner] = await tx
      .select({ applicationId: mandateDebits.applicationId })
      .from(mandateDebits)
      .where(eq(mandateDebits.id, debitId));
    if (!owner) return "unchanged";
    const [a] = await tx.select().from(loanApplications).where(eq(loanApplications.id, owner.applicationId)).for("update");
    const d = await lockDebit({ db: tx }, debitId);
    if (!a || !d) return "unchanged";
    const [m] = await tx.select().from(mandates).where(eq(mandates.id, d.mandateId));
    if (d.status === "presenting") {
      // Sent before without an answer kept: sent again as it was.
      if (!m?.providerMandateId || at.getTime() - d.updatedAt.getTime() < PRESENTING_RETRY_SECONDS * 1000) return "unchanged";
      await tx.update(mandateDebits).set({ updatedAt: at }).where(eq(mandateDebits.id, d.id));
      return { debit: d, providerMandateId: m.providerMandateId };
    }
    if (d.status !== "notified" || d.presentOn > day) return "unchanged";
    const cancel = async (reason: string) => {
      await tx.update(mandateDebits).set({ status: "cancelled", reason, updatedAt: at }).where(eq(mandateDebits.id, d.id));
      return "cancelled" as const;
    };
    if (a.status !== "active") return cancel(DEBIT_CANCELLED.loanEnded);
    if (!m || m.status !== "active" || !m.providerMandateId || m.provider !== provider.name) return cancel(DEBIT_CANCELLED.mandateEnded);
    // The notice said 24 hours before: a debit may be late, never early.
    if (!noticeIsInTime(d.noticeAt, day)) return "unchanged";
    const found = await termsOf({ ...services, db: tx }, a.id);
    if (!found) return "unchanged";
    const { events } = await ledgerOf({ db: tx }, a.id);
    const state = replay(found.terms, events, day);
    const amountPaise = debitAmount({
      duePaise: state.settlement ? 0 : dueBy(state, day),
      noticePaise: d.noticePaise,
      maxAmountPaise: m.maxAmountPaise,
    });
    if (amountPaise === 0) return cancel(DEBIT_CANCELLED.paid);
    // The presentation date is the debit's business date.
    const [presenting] = await tx
      .update(mandateDebits)
      .set({ status: "presenting", amountPaise, presentOn: day, updatedAt: at })
      .where(eq(mandateDebits.id, d.id))
      .returning();
    // From now on the instalment is not past due while the debit lasts: the cached figures say so
    // (the ledger read above, with this debit in flight beside it).
    if (presenting) {
      const withDebit = replay(found.terms, [...events, pendingDebitEvent(presenting)], day);
      await cacheState({ ...services, db: tx }, { applicationId: a.id, state: withDebit });
    }
    return presenting ? { debit: presenting, providerMandateId: m.providerMandateId } : "unchanged";
  });
  if (typeof claimed === "string") return claimed;
  const { debit: d, providerMandateId } = claimed;
  let answer;
  try {
    answer = await provider.present({
      key: d.id,
      reference: d.reference,
      providerMandateId,
      amountPaise: d.amountPaise ?? d.noticePaise,
      presentOn: d.presentOn,
      description: `Instalment ${d.seq}`,
    });
  } catch (error) {
    services.log.warn({ err: error, debitId: d.id }, "the mandate provider did not take the debit; presenting it again later");
    return "presenting";
  }
  await services.db.transaction(async (tx) => {
    const now = await lockDebit({ db: tx }, d.id);
    if (now?.status !== "presenting") return;
    await tx
      .update(mandateDebits)
      .set({ status: "in_progress", providerPaymentId: answer.providerPaymentId, presentedAt: services.now(), updatedAt: services.now() })
      .where(eq(mandateDebits.id, d.id));
    if (provider.debitCheckSeconds !== null) await askAboutDebit({ ...services, db: tx }, { debitId: d.id, round: 0 });
  });
  if (answer.state === "pending") return "in_progress";
  await applyDebitEvent(services, answer);
  return "answered";
}
