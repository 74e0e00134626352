/**
 * What a payout's answer does (docs/product.md "Disbursal"), applied once with the application and
 * the payout locked: a disbursal processed opens the loan account (the schedule from the date the
 * money left, a revised KFS when it differs) and activates the loan; failed or reversed, the loan
 * goes back to approved; a refund processed or reversed is written to the loan account's ledger.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { type Instalment, loanNumberFrom, loanSchedule, revisedTerms, scheduleDiffers } from "../../domain/loans/disbursal.ts";
import { buildKfs } from "../../domain/loans/kfs.ts";
import { kfsWords } from "../loans/kfs-words.server.ts";
import { todayIST } from "../../domain/india-date.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import type { Db } from "../db/client.ts";
import { loanApplications, loanInstalments, loanLedger, payments, payouts, revisedKfs } from "../db/schema.ts";
import { changeStatus } from "../loans/lifecycle.server.ts";
import { signedTerms } from "../loans/signed-terms.server.ts";
import type { Application } from "../loans/rows.server.ts";
import { notify } from "../notifications/notify.server.ts";
import { loanPath } from "../../domain/loans/servicing.ts";
import { renderRevisedKfsPdf } from "../pdf/pdf.server.ts";
import { type Put, storingObjects } from "../storage/put-bytes.server.ts";
import { ckycOnDisbursal } from "../ckyc/upload.server.ts";
import { ledgerWritten, openLoan } from "../loan-account/ledger-change.server.ts";
import { bookLoan } from "../books/book-loan.server.ts";
import { bookHeldReturned, bookHeldReturnReversed } from "../books/held.server.ts";
import type { PayoutAnswer } from "./provider.server.ts";
import { excessRefundFailed, isExcessRefund } from "../mandates/excess-rows.server.ts";

type Services = Pick<AppServices, "db" | "now" | "jobs" | "payouts" | "keyring" | "config" | "log" | "storage">;
type Payout = typeof payouts.$inferSelect;

const SYSTEM = { actor: "system", actorUserId: null } as const;

async function newLoanNumber(tx: Db): Promise<string> {
  for (;;) {
    const candidate = loanNumberFrom(Math.random());
    const [taken] = await tx.select({ id: loanApplications.id }).from(loanApplications).where(eq(loanApplications.loanNumber, candidate));
    if (!taken) return candidate;
  }
}

/**
 * A processed payout makes the loan `active`: its loan number, the schedule fixed from the
 * provider's processing date, the disbursal in the ledger, a revised KFS when a date or amount
 * differs from the signed one, and the borrower's SMS with the amount, UTR and first due date.
 */
async function activate(
  services: Services,
  { application: a, payout, answer, at, put }: { application: Application; payout: Payout; answer: PayoutAnswer; at: Date; put: Put },
) {
  const tx = services.db;
  const disbursedAt = answer.at ?? at;
  const disbursalDate = todayIST(disbursedAt);
  const signed = await signedTerms({ ...services, db: tx }, a);
  // requestDisbursal refused loans without them; a processed payout must never be lost to a throw here.
  const input = signed?.input;
  if (!signed || !input) throw new Error(`the signed terms of application ${a.id} are missing`);
  const { signedOn } = signed;
  const actual: Instalment[] = loanSchedule(input, disbursalDate);
  const revised = scheduleDiffers(loanSchedule(input, input.assumedDisbursalDate), actual);
  const loanNumber = a.loanNumber ?? (await newLoanNumber(tx));
  await changeStatus(
    { ...services, db: tx },
    {
      application: a,
      to: "active",
      by: { ...SYSTEM, reason: `Disbursed ${payout.accountMasked}, UTR ${answer.utr ?? "not given"}` },
      at,
      extra: { loanNumber, disbursedAt, disbursalDate },
      details: { payoutId: payout.id, utr: answer.utr, amountPaise: payout.amountPaise, loanNumber, revisedKfs: revised },
    },
  );
  await openLoan(
    { ...services, db: tx },
    {
      applicationId: a.id,
      input,
      disbursalDate,
      schedule: actual,
      disbursal: {
        payoutId: payout.id,
        details: { utr: answer.utr, paidOutPaise: payout.amountPaise, upfrontChargesPaise: input.amountPaise - payout.amountPaise },
        recordedAt: at,
      },
      at,
    },
  );
  // The borrower's KYC record is due at the central registry within 10 days of this disbursal.
  await ckycOnDisbursal({ ...services, db: tx }, { userId: a.userId, applicationId: a.id, disbursalDate, at });
  if (revised) {
    const terms = revisedTerms(input, disbursalDate);
    const kfs = buildKfs(terms, kfsWords(signed.language));
    const pdf = await renderRevisedKfsPdf(terms, kfs, signedOn, at);
    const stored = await put(pdf);
    await tx
      .update(revisedKfs)
      .set({ supersededAt: at })
      .where(and(eq(revisedKfs.applicationId, a.id), isNull(revisedKfs.supersededAt)));
    await tx
      .insert(revisedKfs)
      .values({ applicationId: a.id, payoutId: payout.id, pdfKey: stored.key, sha256: stored.sha256, terms: kfs, issuedAt: at });
  }
  const first = actual[0];
  const path = loanPath(a.product, loanNumber);
  if (first)
    await notify(
      { ...services, db: tx },
      {
        userId: a.userId,
        event: "loan_disbursed",
        key: payout.id,
        data: {
          applicationId: a.id,
          amountPaise: payout.amountPaise,
          accountMasked: payout.accountMasked,
          utr: answer.utr ?? null,
          loanNumber,
          firstDuePaise: first.principalPaise + first.interestPaise,
          firstDueDate: first.dueDate,
          loanPath: path,
        },
      },
    );
  if (revised)
    await notify(
      { ...services, db: tx },
      {
        userId: a.userId,
        event: "revised_kfs",
        key: payout.id,
        data: { applicationId: a.id, loanNumber, loanPath: path },
      },
    );
}

/** A processed payout the bank returned: the loan goes back to `approved` (docs/product.md "Loan lifecycle"), the disbursal reversed in the ledger. */
async function reverse(
  services: Services,
  { application: a, payout, answer, at }: { application: Application; payout: Payout; answer: PayoutAnswer; at: Date },
) {
  const tx = services.db;
  if (a.status !== "active") {
    services.log.error(
      { reference: a.reference, status: a.status, payoutId: payout.id },
      "a payout was reversed on a loan that is not active",
    );
    return;
  }
  await changeStatus(
    { ...services, db: tx },
    {
      application: a,
      to: "approved",
      by: { ...SYSTEM, reason: `The bank returned the disbursal: ${answer.failureReason ?? "no reason given"}` },
      at,
      extra: { disbursedAt: null, disbursalDate: null },
      details: { payoutId: payout.id, utr: payout.utr },
    },
  );
  const [disbursal] = await tx
    .select({ principalPaise: loanLedger.principalPaise })
    .from(loanLedger)
    .where(and(eq(loanLedger.payoutId, payout.id), eq(loanLedger.kind, "disbursal")));
  await tx.insert(loanLedger).values({
    applicationId: a.id,
    kind: "disbursal_reversal",
    principalPaise: -(disbursal?.principalPaise ?? 0),
    businessDate: todayIST(answer.at ?? at),
    payoutId: payout.id,
    details: { utr: payout.utr, reason: answer.failureReason },
    recordedAt: at,
  });
  await bookLoan({ ...services, db: tx }, { applicationId: a.id });
  await tx.delete(loanInstalments).where(eq(loanInstalments.applicationId, a.id));
  await tx
    .update(revisedKfs)
    .set({ supersededAt: at })
    .where(and(eq(revisedKfs.applicationId, a.id), isNull(revisedKfs.supersededAt)));
  if (a.loanNumber)
    await notify(
      { ...services, db: tx },
      {
        userId: a.userId,
        event: "disbursal_reversed",
        key: payout.id,
        data: { amountPaise: payout.amountPaise, accountMasked: payout.accountMasked, loanNumber: a.loanNumber },
      },
    );
}

/** A processed refund of an overpayment: in the ledger (it leaves what is owed back to the borrower), and the borrower told. */
async function refund(
  services: Services,
  { application: a, payout, answer, at }: { application: Application; payout: Payout; answer: PayoutAnswer; at: Date },
) {
  const tx = services.db;
  if (payout.returnsPaymentId) {
    // A payment never applied to the loan, returned as it was: nothing in the ledger.
    await tx.update(payments).set({ status: "reversed", updatedAt: at }).where(eq(payments.id, payout.returnsPaymentId));
    await bookHeldReturned({ ...services, db: tx }, { payout, businessDate: todayIST(answer.at ?? at) });
    if (a.loanNumber) await services.jobs.send("debit-refund", { loanNumber: a.loanNumber }, { db: tx });
  } else
    await tx
      .insert(loanLedger)
      .values({
        applicationId: a.id,
        kind: "refund",
        principalPaise: 0,
        amountPaise: payout.amountPaise,
        businessDate: todayIST(answer.at ?? at),
        payoutId: payout.id,
        // A debit's excess goes back out of the advance the loan held (docs/product.md "Autopay").
        details: {
          utr: answer.utr,
          accountMasked: payout.accountMasked,
          ...((await isExcessRefund({ db: tx }, payout.id)) ? { fromAdvance: true } : {}),
        },
        recordedAt: at,
      })
      .onConflictDoNothing();
  await ledgerWritten({ ...services, db: tx }, { applicationId: a.id });
  if (a.loanNumber)
    await notify(
      { ...services, db: tx },
      {
        userId: a.userId,
        event: "refund_processed",
        key: payout.id,
        data: {
          amountPaise: payout.amountPaise,
          loanNumber: a.loanNumber,
          loanPath: loanPath(a.product, a.loanNumber),
          accountMasked: payout.accountMasked,
          utr: answer.utr ?? null,
        },
      },
    );
}

export type Applied = "pending" | "processed" | "failed" | "reversed" | "unchanged";

/**
 * What the provider said about a payout, applied once: in one transaction with the application
 * and the payout locked, so a webhook delivered twice, a webhook racing the job's own question,
 * or an answer arriving out of order changes nothing a second time.
 */
export async function applyAnswer(services: Services, payoutId: string, answer: PayoutAnswer): Promise<Applied> {
  // A revised KFS goes to file storage before its row (removed again if the transaction fails).
  return storingObjects(services, (put) => applyLocked(services, put, payoutId, answer));
}

/** applyAnswer's transaction; `put` stores a PDF before the row that names it is written. */
async function applyLocked(services: Services, put: Put, payoutId: string, answer: PayoutAnswer): Promise<Applied> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const [owner] = await tx.select({ applicationId: payouts.applicationId }).from(payouts).where(eq(payouts.id, payoutId));
    if (!owner) return "unchanged";
    // Application first, then payout: the order requestDisbursal locks them in.
    const [a] = await tx.select().from(loanApplications).where(eq(loanApplications.id, owner.applicationId)).for("update");
    const [p] = await tx.select().from(payouts).where(eq(payouts.id, payoutId)).for("update");
    if (!a || !p) return "unchanged";
    // What every audit row of the provider's answer names: the payout, on the loan's application.
    const aboutPayout = { payoutId: p.id, attempt: p.attempt, provider: p.provider };
    const subject = applicationSubject(p.applicationId);
    const known = { providerPayoutId: p.providerPayoutId ?? answer.providerPayoutId, checkedAt: at, updatedAt: at };
    if (p.status === "requested" && answer.state === "pending") {
      await tx.update(payouts).set(known).where(eq(payouts.id, p.id));
      return "pending";
    }
    if (p.status === "requested" && answer.state === "processed" && p.purpose === "refund") {
      await tx
        .update(payouts)
        .set({ ...known, status: "processed", utr: answer.utr, providerAt: answer.at ?? at })
        .where(eq(payouts.id, p.id));
      await audit(
        { db: tx },
        { by: "system", at, action: "refund.processed", subject, details: { ...aboutPayout, utr: answer.utr, amountPaise: p.amountPaise } },
      );
      await refund({ ...services, db: tx }, { application: a, payout: { ...p, utr: answer.utr }, answer, at });
      return "processed";
    }
    if (p.status === "requested" && answer.state === "processed") {
      await tx
        .update(payouts)
        .set({ ...known, status: "processed", utr: answer.utr, providerAt: answer.at ?? at })
        .where(eq(payouts.id, p.id));
      await audit(
        { db: tx },
        { by: "system", at, action: "payout.processed", subject, details: { ...aboutPayout, utr: answer.utr, amountPaise: p.amountPaise } },
      );
      if (a.status === "approved")
        await activate({ ...services, db: tx }, { application: a, payout: { ...p, utr: answer.utr }, answer, at, put });
      else
        services.log.error(
          { reference: a.reference, status: a.status, payoutId: p.id },
          "a payout was processed for an application that is not approved",
        );
      return "processed";
    }
    if (p.status === "requested" && (answer.state === "failed" || answer.state === "reversed")) {
      // Confirmed: no money reached the borrower. The application stays approved; a new attempt may be made.
      await tx
        .update(payouts)
        .set({
          ...known,
          status: answer.state,
          failureReason: answer.failureReason ?? "The provider gave no reason",
          providerAt: answer.at ?? at,
        })
        .where(eq(payouts.id, p.id));
      await audit(
        { db: tx },
        { by: "system", at, action: `payout.${answer.state}`, subject, details: { ...aboutPayout, reason: answer.failureReason } },
      );
      if (p.purpose === "refund") await excessRefundFailed({ ...services, db: tx }, p.id);
      // A returned payment whose refund failed is ours again: held, for operations to see.
      if (p.returnsPaymentId) await tx.update(payments).set({ status: "held", updatedAt: at }).where(eq(payments.id, p.returnsPaymentId));
      return answer.state;
    }
    if (p.status === "processed" && answer.state === "reversed" && p.purpose === "refund") {
      // A refund the bank returned: the money is ours again, so it is owed to the borrower again.
      await tx
        .update(payouts)
        .set({ ...known, status: "reversed", failureReason: answer.failureReason ?? "Returned by the bank", providerAt: answer.at ?? at })
        .where(eq(payouts.id, p.id));
      await audit(
        { db: tx },
        { by: "system", at, action: "refund.reversed", subject, details: { ...aboutPayout, reason: answer.failureReason, utr: p.utr } },
      );
      if (p.returnsPaymentId) {
        await tx.update(payments).set({ status: "held", updatedAt: at }).where(eq(payments.id, p.returnsPaymentId));
        await bookHeldReturnReversed({ ...services, db: tx }, { payoutId: p.id, businessDate: todayIST(answer.at ?? at) });
      }
      // A debit's excess the bank sent back is undecided again: refunded on the next working day, or kept.
      else await excessRefundFailed({ ...services, db: tx }, p.id);
      const [sent] = await tx
        .select({ id: loanLedger.id })
        .from(loanLedger)
        .where(and(eq(loanLedger.payoutId, p.id), eq(loanLedger.kind, "refund")));
      if (sent)
        await tx.insert(loanLedger).values({
          applicationId: a.id,
          kind: "refund_reversal",
          principalPaise: 0,
          amountPaise: p.amountPaise,
          businessDate: todayIST(answer.at ?? at),
          payoutId: p.id,
          refId: sent.id,
          details: { reason: answer.failureReason, utr: p.utr },
          recordedAt: at,
        });
      await ledgerWritten({ ...services, db: tx }, { applicationId: a.id });
      return "reversed";
    }
    if (p.status === "processed" && answer.state === "reversed") {
      await tx
        .update(payouts)
        .set({ ...known, status: "reversed", failureReason: answer.failureReason ?? "Returned by the bank", providerAt: answer.at ?? at })
        .where(eq(payouts.id, p.id));
      await audit(
        { db: tx },
        { by: "system", at, action: "payout.reversed", subject, details: { ...aboutPayout, reason: answer.failureReason, utr: p.utr } },
      );
      await reverse({ ...services, db: tx }, { application: a, payout: p, answer, at });
      return "reversed";
    }
    if (p.status === "processed" && answer.state === "processed" && !p.utr && answer.utr) {
      // The bank's reference can follow the processing (RazorpayX's payout.updated): kept, and the borrower told.
      await tx
        .update(payouts)
        .set({ ...known, utr: answer.utr })
        .where(eq(payouts.id, p.id));
      await audit({ db: tx }, { by: "system", at, action: "payout.utr", subject, details: { ...aboutPayout, utr: answer.utr } });
      if (a.loanNumber)
        await notify(
          { ...services, db: tx },
          {
            userId: a.userId,
            event: "disbursal_utr",
            key: p.id,
            data: { amountPaise: p.amountPaise, utr: answer.utr, loanNumber: a.loanNumber, loanPath: loanPath(a.product, a.loanNumber) },
          },
        );
      return "processed";
    }
    if (p.status !== answer.state && answer.state !== "pending") {
      // A final state contradicted (processed after failed): nothing is changed; staff must look.
      services.log.error({ payoutId: p.id, stored: p.status, told: answer.state }, "a payout's provider state contradicts the stored one");
      await audit(
        { db: tx },
        { by: "system", at, action: "payout.conflict", subject, details: { ...aboutPayout, stored: p.status, told: answer.state } },
      );
    }
    return "unchanged";
  });
}
