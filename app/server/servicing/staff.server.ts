/**
 * Staff servicing (docs/product.md "Loan servicing"): the staff loan page, a payment received
 * outside the gateway, a payment reversed (asked by one, confirmed by another: four eyes), a penal
 * charge waived, a held payment applied, the collections notes, a write-off after 180 days past
 * due, and the refund of an overpayment through the payout interface. Each is one transaction with
 * the loan locked, writes the ledger where money is concerned, and is audited.
 */
import { and, asc, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { bucketOf, BUCKETS, nextDue, replay } from "../../domain/loans/servicing.ts";
import { receivableOn, WRITE_OFF_AFTER_DPD, type ContactOutcome, type OfflineMode } from "../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import type { Db } from "../db/client.ts";
import { borrowerProfiles, collectionNotes, loanAccounts, loanApplications, loanLedger, payments, payouts, users } from "../db/schema.ts";
import { changeStatus } from "../loans/lifecycle.server.ts";
import type { Application } from "../loans/rows.server.ts";
import type { Staff } from "../review/rows.server.ts";
import { businessToday, ledgerOf, lockLoan, termsOf } from "../loan-account/account.server.ts";
import { afterLedgerChange, newPaymentReference, paymentApplied } from "../loan-account/ledger-change.server.ts";
import { penalLines } from "../loan-account/read.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;
export type StaffResult = { ok: true; message?: string } | { ok: false; reason: string };

/** One of the loan's payments by its reference, locked. */
async function lockPayment(tx: Db, a: Application, reference: string) {
  const [p] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.applicationId, a.id)))
    .for("update");
  return p ?? null;
}

/** Everything the staff loan page shows. */
export async function staffLoanView(services: Services, loanNumber: string) {
  const [row] = await services.db
    .select({ a: loanApplications, name: borrowerProfiles.fullName, mobile: users.mobile })
    .from(loanApplications)
    .innerJoin(users, eq(users.id, loanApplications.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, loanApplications.userId))
    .where(eq(loanApplications.loanNumber, loanNumber));
  if (!row?.a.disbursalDate) return null;
  const a = row.a;
  const found = await termsOf(services, a.id);
  if (!found) return null;
  const { rows, events } = await ledgerOf(services, a.id);
  const today = businessToday(services);
  const state = replay(found.terms, events, today);
  const paymentRows = await services.db
    .select({ p: payments, recordedBy: users.name })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.recordedBy))
    .where(eq(payments.applicationId, a.id))
    .orderBy(desc(payments.createdAt));
  const staffNames = new Map(
    (
      await services.db
        .select({ id: users.id, name: users.name })
        .from(users)
        .where(sql`${users.role} <> 'borrower'`)
    ).map((u) => [u.id, u.name]),
  );
  const notes = await services.db
    .select({
      id: collectionNotes.id,
      outcome: collectionNotes.outcome,
      note: collectionNotes.note,
      followUpOn: collectionNotes.followUpOn,
      createdAt: collectionNotes.createdAt,
      by: users.name,
    })
    .from(collectionNotes)
    .innerJoin(users, eq(users.id, collectionNotes.staffUserId))
    .where(eq(collectionNotes.applicationId, a.id))
    .orderBy(desc(collectionNotes.createdAt));
  const refunds = await services.db
    .select({
      id: payouts.id,
      status: payouts.status,
      amountPaise: payouts.amountPaise,
      utr: payouts.utr,
      requestedAt: payouts.requestedAt,
    })
    .from(payouts)
    .where(and(eq(payouts.applicationId, a.id), eq(payouts.purpose, "refund")))
    .orderBy(desc(payouts.requestedAt));
  return {
    application: {
      reference: a.reference,
      status: a.status,
      kind: a.product,
      loanNumber,
      userId: a.userId,
      disbursalDate: found.terms.disbursalDate,
    },
    borrower: { name: row.name, mobile: row.mobile },
    today,
    terms: {
      principalPaise: found.terms.principalPaise,
      rateBps: found.terms.rateBps,
      tenure: found.terms.instalments.length,
      penalPaise: found.terms.penalPaise,
    },
    state: {
      outstandingPrincipalPaise: state.outstandingPrincipalPaise,
      overduePaise: state.overduePaise,
      penalDuePaise: state.penalDuePaise,
      advancePaise: state.advancePaise,
      refundDuePaise: state.refundDuePaise,
      dpd: state.dpd,
      bucket: bucketOf(state.dpd),
      settlement: state.settlement,
      nextDue: nextDue(state),
    },
    instalments: state.instalments,
    penals: penalLines(rows, state),
    ledger: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      businessDate: r.businessDate,
      amountPaise: r.kind === "disbursal" || r.kind === "disbursal_reversal" ? r.principalPaise : r.amountPaise,
      seq: r.seq,
      by: r.actorUserId ? (staffNames.get(r.actorUserId) ?? "staff") : "system",
      details: r.details,
      recordedAt: r.recordedAt.toISOString(),
    })),
    payments: paymentRows
      .filter(({ p }) => p.status !== "created")
      .map(({ p, recordedBy }) => ({
        reference: p.reference,
        provider: p.provider,
        mode: p.mode,
        providerPaymentId: p.providerPaymentId,
        amountPaise: p.amountPaise,
        receivedPaise: p.receivedPaise,
        status: p.status,
        businessDate: p.businessDate,
        failureReason: p.failureReason,
        recordedBy,
        reversalRequestedBy: p.reversalRequestedBy,
        reversalRequestedByName: p.reversalRequestedBy ? (staffNames.get(p.reversalRequestedBy) ?? "staff") : null,
        reversalReason: p.reversalReason,
        allocation: state.allocations.get(p.id) ?? null,
      })),
    notes: notes.map((n) => ({ ...n, createdAt: n.createdAt.toISOString() })),
    refunds: refunds.map((r) => ({ ...r, requestedAt: r.requestedAt.toISOString() })),
  };
}
export type StaffLoanView = NonNullable<Awaited<ReturnType<typeof staffLoanView>>>;

/** Money received outside the gateway (NEFT to the lender's account, a cheque, cash at a branch), on the date it was received. */
export async function recordOfflinePayment(
  services: Services,
  {
    staff,
    client,
    loanNumber,
    amountPaise,
    date,
    mode,
    reference,
  }: { staff: Staff; client: Client; loanNumber: string; amountPaise: number; date: IsoDate; mode: OfflineMode; reference: string },
): Promise<StaffResult> {
  const at = services.now();
  const today = businessToday(services);
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    if (a.status !== "active" && a.status !== "closed") return { ok: false, reason: "not_open" };
    if (!receivableOn(date, a.disbursalDate as string, today)) return { ok: false, reason: "bad_date" };
    const [dup] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.provider, "offline"), eq(payments.providerPaymentId, reference)));
    if (dup) return { ok: false, reason: "duplicate_reference" };
    const [p] = await tx
      .insert(payments)
      .values({
        reference: newPaymentReference(),
        applicationId: a.id,
        userId: a.userId,
        provider: "offline",
        purpose: "offline",
        amountPaise,
        status: "captured",
        providerPaymentId: reference,
        receivedPaise: amountPaise,
        paidAt: at,
        businessDate: date,
        mode,
        recordedBy: staff.id,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!p) throw new Error("the payment was not stored");
    await tx.insert(loanLedger).values({
      applicationId: a.id,
      kind: "payment",
      principalPaise: 0,
      amountPaise,
      businessDate: date,
      paymentId: p.id,
      actorUserId: staff.id,
      details: { reference: p.reference, mode, bankReference: reference },
      recordedAt: at,
    });
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "payment.recorded",
        subject: applicationSubject(a.id),
        details: { reference: p.reference, amountPaise, date, mode, bankReference: reference },
      },
    );
    await paymentApplied({ ...services, db: tx }, { application: a, payment: { id: p.id, amountPaise, businessDate: date }, at });
    return { ok: true, message: `${formatRupees(amountPaise)} recorded as received on ${date}.` };
  });
}

/** A payment held because its amount differed from the order: applied for what was actually received. */
export async function releaseHeldPayment(
  services: Services,
  { staff, client, loanNumber, paymentRef }: { staff: Staff; client: Client; loanNumber: string; paymentRef: string },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    const p = await lockPayment(tx, a, paymentRef);
    if (!p || p.status !== "held" || !p.receivedPaise || !p.businessDate) return { ok: false, reason: "not_held" };
    await tx.update(payments).set({ status: "captured", amountPaise: p.receivedPaise, updatedAt: at }).where(eq(payments.id, p.id));
    await tx.insert(loanLedger).values({
      applicationId: a.id,
      kind: "payment",
      principalPaise: 0,
      amountPaise: p.receivedPaise,
      businessDate: p.businessDate,
      paymentId: p.id,
      actorUserId: staff.id,
      details: { reference: p.reference, released: true, orderedPaise: p.amountPaise },
      recordedAt: at,
    });
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "payment.released",
        subject: applicationSubject(a.id),
        details: { reference: p.reference, orderedPaise: p.amountPaise, receivedPaise: p.receivedPaise },
      },
    );
    await paymentApplied(
      { ...services, db: tx },
      { application: a, payment: { id: p.id, amountPaise: p.receivedPaise, businessDate: p.businessDate }, at },
    );
    return { ok: true, message: `${formatRupees(p.receivedPaise)} applied to the loan.` };
  });
}

/**
 * Reversing a payment (a bounced cheque, a chargeback): one staff member asks with the reason, a
 * second confirms (never the one who asked, nor who recorded it). Confirmed, the payment leaves the
 * ledger's replay; a loan it had closed opens again.
 */
export async function reversePayment(
  services: Services,
  {
    staff,
    client,
    loanNumber,
    paymentRef,
    step,
    reason,
  }: { staff: Staff; client: Client; loanNumber: string; paymentRef: string; step: "request" | "confirm" | "cancel"; reason?: string },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    const p = await lockPayment(tx, a, paymentRef);
    if (!p || p.status !== "captured") return { ok: false, reason: "not_reversible" };
    if (step === "request") {
      if (p.reversalRequestedBy) return { ok: false, reason: "already_requested" };
      if (!reason) return { ok: false, reason: "reason_missing" };
      await tx
        .update(payments)
        .set({ reversalRequestedBy: staff.id, reversalRequestedAt: at, reversalReason: reason, updatedAt: at })
        .where(eq(payments.id, p.id));
      await audit(
        { db: tx },
        {
          by: staff,
          client,
          at,
          action: "payment.reversal_requested",
          subject: applicationSubject(a.id),
          details: { reference: p.reference, reason },
        },
      );
      return { ok: true, message: "Reversal asked for. A second colleague must confirm it." };
    }
    if (!p.reversalRequestedBy) return { ok: false, reason: "not_requested" };
    if (step === "cancel") {
      await tx
        .update(payments)
        .set({ reversalRequestedBy: null, reversalRequestedAt: null, reversalReason: null, updatedAt: at })
        .where(eq(payments.id, p.id));
      await audit(
        { db: tx },
        {
          by: staff,
          client,
          at,
          action: "payment.reversal_cancelled",
          subject: applicationSubject(a.id),
          details: { reference: p.reference },
        },
      );
      return { ok: true, message: "The reversal request is withdrawn." };
    }
    if (p.reversalRequestedBy === staff.id || p.recordedBy === staff.id) return { ok: false, reason: "four_eyes" };
    const [refunding] = await tx
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.applicationId, a.id), eq(payouts.purpose, "refund"), eq(payouts.status, "requested")));
    if (refunding) return { ok: false, reason: "refund_in_flight" };
    const [entry] = await tx
      .select({ id: loanLedger.id })
      .from(loanLedger)
      .where(and(eq(loanLedger.paymentId, p.id), eq(loanLedger.kind, "payment")));
    if (!entry) return { ok: false, reason: "not_reversible" };
    await tx.update(payments).set({ status: "reversed", updatedAt: at }).where(eq(payments.id, p.id));
    await tx.insert(loanLedger).values({
      applicationId: a.id,
      kind: "payment_reversal",
      principalPaise: 0,
      amountPaise: p.amountPaise,
      businessDate: businessToday(services),
      paymentId: p.id,
      refId: entry.id,
      actorUserId: staff.id,
      details: { reference: p.reference, reason: p.reversalReason, requestedBy: p.reversalRequestedBy },
      recordedAt: at,
    });
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "payment.reversed",
        subject: applicationSubject(a.id),
        details: { reference: p.reference, amountPaise: p.amountPaise, reason: p.reversalReason, requestedBy: p.reversalRequestedBy },
      },
    );
    await afterLedgerChange({ ...services, db: tx }, { application: a, at });
    return { ok: true, message: `${formatRupees(p.amountPaise)} reversed.` };
  });
}

/** A penal charge waived, with the reason (it leaves the replay; what paid it goes to the dues). */
export async function waivePenal(
  services: Services,
  { staff, client, loanNumber, penalId, reason }: { staff: Staff; client: Client; loanNumber: string; penalId: string; reason: string },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    const [penal] = await tx
      .select()
      .from(loanLedger)
      .where(and(eq(loanLedger.id, penalId), eq(loanLedger.applicationId, a.id), eq(loanLedger.kind, "penal")));
    if (!penal) return { ok: false, reason: "not_found" };
    const inserted = await tx
      .insert(loanLedger)
      .values({
        applicationId: a.id,
        kind: "penal_waiver",
        principalPaise: 0,
        amountPaise: penal.amountPaise,
        businessDate: businessToday(services),
        refId: penal.id,
        seq: penal.seq,
        actorUserId: staff.id,
        details: { reason },
        recordedAt: at,
      })
      .onConflictDoNothing()
      .returning({ id: loanLedger.id });
    if (inserted.length === 0) return { ok: false, reason: "already_undone" };
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "penal.waived",
        subject: applicationSubject(a.id),
        details: { penalId, seq: penal.seq, amountPaise: penal.amountPaise, reason },
      },
    );
    await afterLedgerChange({ ...services, db: tx }, { application: a, at });
    return { ok: true, message: `The ${formatRupees(penal.amountPaise)} charge is waived.` };
  });
}

export async function addCollectionNote(
  services: Services,
  {
    staff,
    client,
    loanNumber,
    outcome,
    note,
    followUpOn,
  }: { staff: Staff; client: Client; loanNumber: string; outcome: ContactOutcome; note: string; followUpOn?: IsoDate },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const [a] = await tx.select().from(loanApplications).where(eq(loanApplications.loanNumber, loanNumber));
    if (!a?.disbursalDate) return { ok: false, reason: "not_found" };
    await tx
      .insert(collectionNotes)
      .values({ applicationId: a.id, staffUserId: staff.id, outcome, note, followUpOn: followUpOn ?? null, createdAt: at });
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "collections.note",
        subject: applicationSubject(a.id),
        details: { outcome, followUpOn: followUpOn ?? null },
      },
    );
    return { ok: true, message: "Note saved." };
  });
}

/** An administrator writes off a loan at least 180 days past due. */
export async function writeOff(
  services: Services,
  { staff, client, loanNumber, reason }: { staff: Staff; client: Client; loanNumber: string; reason: string },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    if (a.status !== "active") return { ok: false, reason: "not_open" };
    const found = await termsOf({ ...services, db: tx }, a.id);
    if (!found) return { ok: false, reason: "not_found" };
    const state = replay(found.terms, (await ledgerOf({ db: tx }, a.id)).events, businessToday(services));
    if (state.dpd < WRITE_OFF_AFTER_DPD) return { ok: false, reason: "too_early" };
    await changeStatus(
      { db: tx },
      {
        application: a,
        to: "written_off",
        by: { actor: staff.role, actorUserId: staff.id, reason, ip: client.ip, userAgent: client.userAgent },
        at,
        details: { dpd: state.dpd, outstandingPrincipalPaise: state.outstandingPrincipalPaise },
      },
    );
    await tx.insert(loanLedger).values({
      applicationId: a.id,
      kind: "write_off",
      principalPaise: 0,
      amountPaise: state.outstandingPrincipalPaise,
      businessDate: businessToday(services),
      actorUserId: staff.id,
      details: { reason, dpd: state.dpd, overduePaise: state.overduePaise, penalDuePaise: state.penalDuePaise },
      recordedAt: at,
    });
    return { ok: true, message: `Written off with ${formatRupees(state.outstandingPrincipalPaise)} of principal outstanding.` };
  });
}

/** The collections queue: active loans past due in a bucket, most days past due first, with the latest contact note. */
export async function collectionsQueue(
  { db }: Pick<AppServices, "db">,
  { minDpd, maxDpd, page }: { minDpd: number; maxDpd: number | null; page: number },
) {
  const perPage = 50;
  const list = await db
    .select({
      id: loanApplications.id,
      loanNumber: loanApplications.loanNumber,
      kind: loanApplications.product,
      dpd: loanAccounts.dpd,
      overduePaise: loanAccounts.overduePaise,
      penalDuePaise: loanAccounts.penalDuePaise,
      outstandingPrincipalPaise: loanAccounts.outstandingPrincipalPaise,
      name: borrowerProfiles.fullName,
      mobile: users.mobile,
    })
    .from(loanAccounts)
    .innerJoin(loanApplications, and(eq(loanApplications.id, loanAccounts.applicationId), eq(loanApplications.status, "active")))
    .innerJoin(users, eq(users.id, loanApplications.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, loanApplications.userId))
    .where(and(gte(loanAccounts.dpd, minDpd), maxDpd === null ? undefined : lte(loanAccounts.dpd, maxDpd)))
    .orderBy(desc(loanAccounts.dpd), asc(loanApplications.loanNumber))
    .limit(perPage + 1)
    .offset((page - 1) * perPage);
  const shown = list.slice(0, perPage);
  const notes = shown.length
    ? await db
        .selectDistinctOn([collectionNotes.applicationId], {
          applicationId: collectionNotes.applicationId,
          outcome: collectionNotes.outcome,
          createdAt: collectionNotes.createdAt,
          followUpOn: collectionNotes.followUpOn,
        })
        .from(collectionNotes)
        .where(
          inArray(
            collectionNotes.applicationId,
            shown.map((r) => r.id),
          ),
        )
        .orderBy(collectionNotes.applicationId, desc(collectionNotes.createdAt))
    : [];
  const latest = new Map(notes.map((n) => [n.applicationId, n]));
  return {
    more: list.length > perPage,
    rows: shown.map(({ id, ...r }) => {
      const n = latest.get(id);
      return { ...r, lastOutcome: n?.outcome ?? null, lastNoteAt: n?.createdAt.toISOString() ?? null, followUpOn: n?.followUpOn ?? null };
    }),
  };
}

const BUCKET_OF_DPD = sql<string>`case when ${loanAccounts.dpd} <= 0 then 'current' when ${loanAccounts.dpd} <= 30 then 'SMA-0' when ${loanAccounts.dpd} <= 60 then 'SMA-1' when ${loanAccounts.dpd} <= 90 then 'SMA-2' else 'NPA' end`;

/** How many active loans, their principal outstanding and what is overdue, in each bucket (the collections tabs and the portfolio report). */
export async function bucketCounts({ db }: Pick<AppServices, "db">) {
  const rows = await db
    .select({
      bucket: BUCKET_OF_DPD,
      loans: sql<number>`count(*)::int`,
      outstanding: sql<string>`coalesce(sum(${loanAccounts.outstandingPrincipalPaise}), 0)::text`,
      overdue: sql<string>`coalesce(sum(${loanAccounts.overduePaise} + ${loanAccounts.penalDuePaise}), 0)::text`,
    })
    .from(loanAccounts)
    .innerJoin(loanApplications, and(eq(loanApplications.id, loanAccounts.applicationId), eq(loanApplications.status, "active")))
    .groupBy(BUCKET_OF_DPD);
  const by = new Map(rows.map((r) => [r.bucket, r]));
  return BUCKETS.map((bucket) => {
    const r = by.get(bucket);
    return { bucket, loans: Number(r?.loans ?? 0), outstandingPaise: Number(r?.outstanding ?? 0), overduePaise: Number(r?.overdue ?? 0) };
  });
}

/** The staff home's count: active loans past due (1 day or more), what the collections queue works. */
export async function overdueLoanCount({ db }: Pick<AppServices, "db">): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loanAccounts)
    .innerJoin(loanApplications, and(eq(loanApplications.id, loanAccounts.applicationId), eq(loanApplications.status, "active")))
    .where(gte(loanAccounts.dpd, 1));
  return Number(row?.n ?? 0);
}
