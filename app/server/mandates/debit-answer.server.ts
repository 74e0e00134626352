/**
 * What the provider says about an autopay debit (docs/product.md "Autopay"), applied once with the
 * loan and the debit locked. A debit that succeeds becomes one payment of its presentation date,
 * through the loan account's ledger path like any payment (keyed by the payment, so a second
 * delivery changes nothing); one the bank returns ends the debit in progress, and a first bounce is
 * presented once more 3 working days later with its notice now. A debit arriving for a loan that
 * has ended is kept as what it is (more than was owed: refunded, the loan never reopened).
 */
import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { ASK_AFTER_WORKING_DAYS, askDate, debitAmount, representationDate } from "../../domain/loans/autopay.ts";
import { addDays } from "../../domain/loan-math.ts";
import { loanPath } from "../../domain/loans/servicing.ts";
import { daytime } from "../../domain/notifications.ts";
import { todayIST } from "../../domain/india-date.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { loanApplications, mandateDebits, mandates } from "../db/schema.ts";
import { businessToday } from "../loan-account/account.server.ts";
import { ledgerWritten, paymentApplied, storeReceivedPayment } from "../loan-account/ledger-change.server.ts";
import { notify } from "../notifications/notify.server.ts";
import { dueBy, lockDebit, newDebitReference } from "./debit-rows.server.ts";
import { holdExcess, holdLateDebit } from "./excess.server.ts";
import { bookHeldReceipt } from "../books/held.server.ts";
import type { DebitEvent } from "./provider.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "mandates">;
export type DebitApplied = "succeeded" | "bounced" | "pending" | "unchanged" | "unknown";

export async function applyDebitEvent(services: Services, event: DebitEvent): Promise<DebitApplied> {
  const provider = services.mandates;
  if (!provider) return "unknown";
  const at = services.now();
  // By the provider's id, or (an answer racing our own record of it) by our reference.
  const [owner] = await services.db
    .select({ id: mandateDebits.id, applicationId: mandateDebits.applicationId })
    .from(mandateDebits)
    .where(
      or(
        eq(mandateDebits.providerPaymentId, event.providerPaymentId),
        event.reference ? and(eq(mandateDebits.reference, event.reference), isNull(mandateDebits.providerPaymentId)) : undefined,
      ),
    );
  if (!owner) {
    services.log.warn({ providerPaymentId: event.providerPaymentId }, "a debit event for a debit this application did not present");
    return "unknown";
  }
  return services.db.transaction(async (tx): Promise<DebitApplied> => {
    const [a] = await tx.select().from(loanApplications).where(eq(loanApplications.id, owner.applicationId)).for("update");
    const d = await lockDebit({ db: tx }, owner.id);
    if (!a || !d) return "unknown";
    const inFlight = d.status === "presenting" || d.status === "in_progress";
    if (!inFlight || (d.providerPaymentId && d.providerPaymentId !== event.providerPaymentId)) {
      if (event.state !== "pending" && d.status !== (event.state === "captured" ? "succeeded" : "bounced"))
        // The provider changed its answer (a success after a bounce): money nothing expects, for staff.
        await audit(
          { db: tx },
          {
            by: "system",
            at,
            action: "mandate_debit.late_answer",
            subject: applicationSubject(a.id),
            details: { reference: d.reference, status: d.status, said: event.state, providerPaymentId: event.providerPaymentId },
          },
        );
      return "unchanged";
    }
    if (event.state === "pending") {
      if (d.status === "presenting")
        await tx
          .update(mandateDebits)
          .set({ status: "in_progress", providerPaymentId: event.providerPaymentId, presentedAt: at, updatedAt: at })
          .where(eq(mandateDebits.id, d.id));
      return "pending";
    }
    const [m] = await tx.select().from(mandates).where(eq(mandates.id, d.mandateId));
    const answeredAt = event.at ?? at;
    const debit = { reference: d.reference, seq: d.seq, attempt: d.attempt, providerPaymentId: event.providerPaymentId };
    if (event.state === "captured" && a.status === "written_off") {
      // Autopay ended at the write-off: this debit was not the borrower's to take. Held, never
      // applied to the loan, and returned to them by the system.
      const amountPaise = event.amountPaise ?? d.amountPaise ?? d.noticePaise;
      const held = await holdLateDebit({ db: tx }, { application: a, debit: d, provider: provider.name, event, amountPaise, at });
      await bookHeldReceipt({ ...services, db: tx }, { paymentId: held.id });
      await tx
        .update(mandateDebits)
        .set({ status: "succeeded", providerPaymentId: event.providerPaymentId, paymentId: held.id, answeredAt, updatedAt: at })
        .where(eq(mandateDebits.id, d.id));
      await audit(
        { db: tx },
        {
          by: "system",
          at,
          action: "mandate_debit.after_write_off",
          subject: applicationSubject(a.id),
          details: { ...debit, amountPaise, payment: held.reference },
        },
      );
      if (a.loanNumber) await services.jobs.send("debit-refund", { loanNumber: a.loanNumber }, { db: tx });
      return "succeeded";
    }
    if (event.state === "captured") {
      const amountPaise = event.amountPaise ?? d.amountPaise ?? d.noticePaise;
      const p = await storeReceivedPayment(
        { db: tx },
        {
          application: a,
          payment: {
            provider: provider.name,
            purpose: "due",
            amountPaise,
            providerPaymentId: event.providerPaymentId,
            paidAt: answeredAt,
            // The presentation date is its business date: a debit presented on the due date is on time.
            businessDate: d.presentOn,
            mode: "autopay",
          },
          details: {
            provider: provider.name,
            providerPaymentId: event.providerPaymentId,
            purpose: "due",
            prepay: false,
            method: m?.kind ?? "enach",
            methodDetail: d.reference,
            debitReference: d.reference,
          },
          at,
        },
      );
      await tx
        .update(mandateDebits)
        .set({ status: "succeeded", providerPaymentId: event.providerPaymentId, paymentId: p.id, answeredAt, updatedAt: at })
        .where(eq(mandateDebits.id, d.id));
      if (amountPaise !== d.amountPaise)
        services.log.error(
          { reference: d.reference, presented: d.amountPaise, received: amountPaise },
          "an autopay debit took another amount",
        );
      await audit(
        { db: tx },
        {
          by: "system",
          at,
          action: "mandate_debit.succeeded",
          subject: applicationSubject(a.id),
          details: { ...debit, amountPaise, businessDate: d.presentOn },
        },
      );
      // The loan account does the rest: charges no longer warranted, the figures, a closure; and a
      // debit on a loan already ended is more than was owed, never a reopening: refunded by the system.
      const { advancedPaise } = await paymentApplied(
        { ...services, db: tx },
        { application: a, payment: { id: p.id, amountPaise, businessDate: d.presentOn }, at },
      );
      if ((a.status === "closed" || a.status === "cancelled") && a.loanNumber)
        await services.jobs.send("debit-refund", { loanNumber: a.loanNumber }, { db: tx });
      // It paid an instalment already paid (a payment since it was presented): refunded unless kept.
      else if (advancedPaise > 0 && a.status === "active" && a.loanNumber)
        await holdExcess({ ...services, db: tx }, { debit: d, excessPaise: advancedPaise, loan: { ...a, loanNumber: a.loanNumber } });
      return "succeeded";
    }
    const reason = event.reason ?? "Returned by the bank";
    await tx.update(mandateDebits).set({ status: "bounced", reason, answeredAt, updatedAt: at }).where(eq(mandateDebits.id, d.id));
    await audit(
      { db: tx },
      { by: "system", at, action: "mandate_debit.bounced", subject: applicationSubject(a.id), details: { ...debit, reason } },
    );
    // The instalment is past due again as it was; the daily run levies its one penal charge.
    const refreshed = await ledgerWritten({ ...services, db: tx }, { applicationId: a.id });
    const today = businessToday(services);
    let again: { amountPaise: number; presentOn: string } | null = null;
    if (d.attempt === 1 && a.status === "active" && m?.status === "active" && refreshed && !refreshed.state.settlement) {
      // One re-presentation, 3 working days later, for what is then due; this is its notice.
      const noticePaise = debitAmount({
        duePaise: dueBy(refreshed.state, today),
        noticePaise: m.maxAmountPaise,
        maxAmountPaise: m.maxAmountPaise,
      });
      const presentOn = representationDate(today, services.config.holidays);
      if (noticePaise > 0) {
        const [stored] = await tx
          .insert(mandateDebits)
          .values({
            reference: newDebitReference(),
            mandateId: m.id,
            applicationId: a.id,
            userId: a.userId,
            seq: d.seq,
            attempt: 2,
            dueDate: d.dueDate,
            presentOn,
            status: "notified",
            noticePaise,
            noticeAt: daytime(at),
            createdAt: at,
            updatedAt: at,
          })
          .onConflictDoNothing()
          .returning({ id: mandateDebits.id });
        if (stored) again = { amountPaise: noticePaise, presentOn };
      }
    }
    if (a.loanNumber)
      await notify(
        { ...services, db: tx },
        {
          userId: a.userId,
          event: "autopay_bounced",
          key: d.id,
          data: {
            loanNumber: a.loanNumber,
            loanPath: loanPath(a.product, a.loanNumber),
            amountPaise: d.amountPaise ?? d.noticePaise,
            presentOn: d.presentOn,
            reason,
            again,
          },
        },
      );
    return "bounced";
  });
}

/** When the question of `round` about a debit is asked: soon at first, then less often (at most every 6 hours); now for the first when the provider answers at once. */
function askAfter(services: Pick<AppServices, "mandates">, round: number): { startAfter?: Date } {
  const first = services.mandates?.debitCheckSeconds ?? 0;
  const seconds = Math.min(Math.max(first, 5) * 2 ** round, 6 * 3600);
  return round > 0 || first > 0 ? { startAfter: new Date(Date.now() + seconds * 1000) } : {};
}

/** The next question about a debit in progress: soon at first, then less often (at most every 6 hours). */
export async function askAboutDebit(
  services: Pick<AppServices, "db" | "jobs" | "mandates">,
  { debitId, round }: { debitId: string; round: number },
) {
  await services.jobs.send("debit-check", { debitId, round }, { db: services.db, singletonKey: debitId, ...askAfter(services, round) });
}

/** The first question about each of several debits just presented, in one statement (as `askAboutDebit` asks of one). */
export async function askAboutDebits(services: Pick<AppServices, "db" | "jobs" | "mandates">, debitIds: readonly string[]) {
  await services.jobs.sendMany(
    "debit-check",
    debitIds.map((debitId) => ({ data: { debitId, round: 0 }, singletonKey: debitId, ...askAfter(services, 0) })),
    { db: services.db },
  );
}

/** Asks the provider about a debit in progress and applies what it says. */
export async function checkDebit(services: Services, debitId: string): Promise<DebitApplied> {
  const provider = services.mandates;
  const [d] = await services.db.select().from(mandateDebits).where(eq(mandateDebits.id, debitId));
  if (!provider || !d || d.status !== "in_progress" || !d.providerPaymentId) return "unchanged";
  await services.db.update(mandateDebits).set({ askedAt: services.now() }).where(eq(mandateDebits.id, d.id));
  return applyDebitEvent(services, await provider.fetchDebit(d.providerPaymentId));
}

/**
 * The daily question about debits still without an answer 3 working days after their presentation
 * (a webhook lost, a bank slow to answer): each asked once a day.
 */
export async function askAboutLateDebits(services: Services) {
  const today = businessToday(services);
  const waiting = await services.db
    .select({ id: mandateDebits.id, presentOn: mandateDebits.presentOn, askedAt: mandateDebits.askedAt })
    .from(mandateDebits)
    // 3 working days are at least 3 days: a first cut here, the rest judged below.
    .where(and(eq(mandateDebits.status, "in_progress"), lte(mandateDebits.presentOn, addDays(today, -ASK_AFTER_WORKING_DAYS))));
  let asked = 0;
  for (const d of waiting) {
    if (askDate(d.presentOn, services.config.holidays) > today || (d.askedAt && todayIST(d.askedAt) === today)) continue;
    try {
      await checkDebit(services, d.id);
      asked++;
    } catch (error) {
      services.log.warn({ err: error, debitId: d.id }, "the mandate provider did not answer about a debit");
    }
  }
  return asked;
}
