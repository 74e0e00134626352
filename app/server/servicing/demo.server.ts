/**
 * Demo servicing data for a local installation (docs/product.md "Loan servicing"): the demo
 * borrower, mobile 9000000001, with an EMI loan disbursed about four months before the first start
 * (two instalments paid, the third overdue with its penal charge, autopay active with its next debit
 * ten days ahead, its collections case holding a broken promise) and a salary advance repaid and
 * closed with its no-dues certificate. Written through the same ledger as real loans; idempotent
 * (nothing is added once the borrower exists). Never in production.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { addDays, addMonths, emiSchedule, type IsoDate, salaryAdvanceQuote } from "../../domain/loan-math.ts";
import type { LoanKind } from "../../domain/loans/application.ts";
import { loanNumberFrom } from "../../domain/loans/disbursal.ts";
import { todayIST } from "../../domain/india-date.ts";
import type { Db } from "../db/client.ts";
import { collectionCases, loanApplications, promisesToPay, users } from "../db/schema.ts";
import { syncCases } from "../collections/cases.server.ts";
import { newReference } from "../loans/reference.server.ts";
import { runServicingDay } from "./daily.server.ts";
import { DEMO_BORROWER_NAME, insertDemoProfile, storeDemoFiles } from "./demo-profile.server.ts";
import { storeReceivedPayment } from "../loan-account/ledger-change.server.ts";
import { openLoan } from "../loan-account/ledger-change.server.ts";
import { runBooksDay } from "../books/daily.server.ts";
import { receiveMandateWebhook } from "../mandates/answer.server.ts";
import type { LocalMandates } from "../mandates/local.server.ts";
import { startMandate } from "../mandates/start.server.ts";
import { messageLink } from "../../../server/config.ts";

export const DEMO_BORROWER_MOBILE = "9000000001";
type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments" | "keyring" | "storage" | "mandates">;

async function loan(
  services: Services,
  {
    userId,
    kind,
    amountPaise,
    rateBps,
    tenureMonths,
    disbursalDate,
    instalments,
    at,
  }: {
    userId: string;
    kind: LoanKind;
    amountPaise: number;
    rateBps: number;
    tenureMonths: number | null;
    disbursalDate: IsoDate;
    instalments: { seq: number; dueDate: IsoDate; principalPaise: number; interestPaise: number }[];
    at: Date;
  },
) {
  const tx = services.db;
  const disbursedAt = new Date(`${disbursalDate}T05:30:00Z`);
  const [a] = await tx
    .insert(loanApplications)
    .values({
      reference: newReference(),
      userId,
      product: kind,
      status: "active",
      amountPaise,
      tenureMonths,
      purpose: "medical",
      signedAt: disbursedAt,
      loanNumber: loanNumberFrom(Math.random()),
      disbursedAt,
      disbursalDate,
      createdAt: disbursedAt,
      updatedAt: at,
    })
    .returning();
  if (!a) throw new Error("the demo loan was not stored");
  await openLoan(services, {
    applicationId: a.id,
    input: {
      kind,
      amountPaise,
      rateBps,
      penalChargePaise: 500_00,
      coolingOffDays: 3,
      // The products' default fees (docs/product.md "Loan products").
      fees: kind === "emi" ? { feeBps: 200, minFeePaise: 499_00, gstBps: 1800 } : { feeBps: 300, minFeePaise: 0, gstBps: 1800 },
    },
    disbursalDate,
    schedule: instalments,
    disbursal: { payoutId: null, details: { demo: true }, recordedAt: disbursedAt },
    at,
  });
  return a;
}

async function paid(tx: Db, a: { id: string; userId: string }, amountPaise: number, businessDate: IsoDate) {
  const at = new Date(`${businessDate}T06:00:00Z`);
  await storeReceivedPayment(
    { db: tx },
    {
      application: a,
      payment: {
        provider: "local",
        purpose: "due",
        amountPaise,
        providerPaymentId: `demo_${businessDate}_${a.id.slice(0, 8)}`,
        paidAt: at,
        businessDate,
      },
      details: { demo: true },
      at,
    },
  );
}

/**
 * The demo EMI loan's autopay, set up and approved at the local stand-in as a borrower would
 * (docs/product.md "Autopay"); the audit rows say it was the demo seed. None where mandates are not offered.
 */
async function demoMandate(services: Services, { userId, loanNumber }: { userId: string; loanNumber: string | null }) {
  const provider = services.mandates;
  if (!provider || provider.name !== "local" || !loanNumber) return;
  const client = { ip: "demo seed", userAgent: "demo data" };
  const started = await startMandate(services, {
    userId,
    loan: { loanNumber },
    client,
    origin: new URL(messageLink(services.config, "/")).origin,
  });
  if (!started.ok) throw new Error(`the demo mandate was not set up: ${started.reason}`);
  const done = await (provider as LocalMandates).complete(started.authUrl.split("/").at(-1) ?? "", "approve");
  if (done) await receiveMandateWebhook(services, done.webhook.body, done.webhook.headers);
}

/**
 * The overdue loan's case has a promise the borrower made from the loan page ten days ago, to pay
 * ₹5,000 within a week, and did not keep: broken, so the case is high priority (docs/product.md "Collections").
 */
async function demoBrokenPromise(services: Services, applicationId: string, today: IsoDate) {
  await services.db.transaction(async (tx) => {
    const [c] = await tx
      .select({ id: collectionCases.id })
      .from(collectionCases)
      .where(and(eq(collectionCases.applicationId, applicationId), isNull(collectionCases.closedOn)));
    if (!c) throw new Error("the demo loan has no collections case");
    const madeOn = addDays(today, -10);
    await tx.insert(promisesToPay).values({
      caseId: c.id,
      applicationId,
      amountPaise: 5_000_00,
      madeOn,
      dueOn: addDays(madeOn, 7),
      createdAt: new Date(`${madeOn}T06:00:00Z`),
    });
    await syncCases({ db: tx }, { today, applicationIds: [applicationId] });
  });
}

export async function seedDemoLoans(services: Services): Promise<boolean> {
  const [existing] = await services.db.select({ id: users.id }).from(users).where(eq(users.mobile, DEMO_BORROWER_MOBILE));
  if (existing) return false;
  const at = services.now();
  const today = todayIST(at);
  // Ten days short of four months: the fourth instalment falls due in ten days, autopay's next debit.
  const emiStart = addDays(addMonths(today, -4), 10);
  const emi = emiSchedule({ principalPaise: 1_00_000_00, annualRateBps: 1800, months: 12, disbursalDate: emiStart }).schedule.map((l) => ({
    seq: l.instalment,
    dueDate: l.dueDate as IsoDate,
    principalPaise: l.principalPaise,
    interestPaise: l.interestPaise,
  }));
  const advanceStart = addMonths(today, -3);
  const advance = salaryAdvanceQuote({
    principalPaise: 20_000_00,
    dailyRateBps: 8,
    disbursalDate: advanceStart,
    salaryDay: 1,
    fees: { feeBps: 300, minFeePaise: 0, gstBps: 1800 },
  });
  // The KYC files first, their rows with the rest: the borrower's profile is as complete as their loans say.
  const files = await storeDemoFiles(services);
  const created = await services.db
    .transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ mobile: DEMO_BORROWER_MOBILE, mobileVerifiedAt: at, role: "borrower", name: DEMO_BORROWER_NAME })
        .returning({ id: users.id });
      if (!user) throw new Error("the demo borrower was not stored");
      await insertDemoProfile({ ...services, db: tx }, { userId: user.id, files, at });
      const e = await loan(
        { ...services, db: tx },
        {
          userId: user.id,
          kind: "emi",
          amountPaise: 1_00_000_00,
          rateBps: 1800,
          tenureMonths: 12,
          disbursalDate: emiStart,
          instalments: emi,
          at,
        },
      );
      for (const i of emi.slice(0, 2)) await paid(tx, e, i.principalPaise + i.interestPaise, i.dueDate);
      const s = await loan(
        { ...services, db: tx },
        {
          userId: user.id,
          kind: "salary_advance",
          amountPaise: 20_000_00,
          rateBps: 8,
          tenureMonths: null,
          disbursalDate: advanceStart,
          instalments: [{ seq: 1, dueDate: advance.repaymentDate, principalPaise: 20_000_00, interestPaise: advance.interestPaise }],
          at,
        },
      );
      await paid(tx, s, advance.totalRepayablePaise, addDays(advance.repaymentDate, -1));
      return { userId: user.id, emi: { userId: user.id, loanNumber: e.loanNumber, applicationId: e.id } };
    })
    .catch((error: unknown) => {
      // Another process starting at the same moment created the borrower first.
      if (String((error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code) === "23505") return null;
      throw error;
    });
  if (!created) {
    // Not recorded: the files must not stay behind unowned.
    for (const f of files) await services.storage.remove(f.key);
    return false;
  }
  // The daily run levies the missed instalment's penal charge (with its own date), opens the overdue
  // loan's collections case and closes the repaid advance.
  await runServicingDay(services, today);
  await runBooksDay(services, today);
  await demoBrokenPromise(services, created.emi.applicationId, today);
  await demoMandate(services, created.emi);
  return true;
}
