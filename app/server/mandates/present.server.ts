/**
 * Presenting autopay debits (docs/product.md "Autopay"): on its date the daily job presents each
 * announced debit for what is then due of the instalments due by that date, never more than its
 * notice named or the mandate's maximum; a Pay now made before lowers it or, when nothing is left,
 * cancels it. The debit is marked presenting (so the instalment is not past due while it lasts) in
 * one transaction with the loan locked, the provider is asked outside it with the debit's id as
 * the idempotency key, and its answer is kept; a presentation cut off half-way is sent again with
 * the same key (never a second debit). The daily job claims debits 100 at a time (their loans locked
 * together, figured in memory, written in a few statements) and keeps their answers together; what
 * does not fit a batch (a debit cut off half-way, two of one loan, a loan without an account yet, a
 * batch that failed) is presented alone, by `presentDebit`.
 */
import { and, asc, eq, gt, inArray, lte, or, lt, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { DEBIT_CANCELLED, debitAmount, noticeIsInTime } from "../../domain/loans/autopay.ts";
import { type LoanState, replay } from "../../domain/loans/servicing.ts";
import { loanApplications, mandateDebits, mandates } from "../db/schema.ts";
import type { DebitEvent, MandateProvider } from "./provider.server.ts";
import { cacheState, cacheStates, ledgerOf, loansForReplay, pendingDebitEvent, termsOf } from "../loan-account/account.server.ts";
import { applyDebitEvent, askAboutDebit, askAboutDebits } from "./debit-answer.server.ts";
import { dueBy, lockDebit, type MandateDebit } from "./debit-rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "mandates">;

/** A presentation not confirmed as sent this long after it began was cut off: sent again (same key). */
export const PRESENTING_RETRY_SECONDS = 120;

export type Presented = "in_progress" | "presenting" | "cancelled" | "unchanged" | "answered";

/** Debits claimed together, and their answers kept together (as the daily run serves loans 100 to a transaction). */
const BATCH = 100;
/**
 * While a batch's debits are sent one after another, those still waiting are claimed again (and the
 * answers so far kept) this often: far inside PRESENTING_RETRY_SECONDS even with a provider call at
 * its slowest after it, so that a sweep never takes a debit waiting its turn for one cut off.
 */
const RECLAIM_MS = 30_000;

/** Every debit whose date has come (today's and any a stopped process left), presented. */
export async function presentDebits(services: Services, day: IsoDate) {
  const counts: Record<Presented, number> = { in_progress: 0, presenting: 0, cancelled: 0, unchanged: 0, answered: 0 };
  const stale = new Date(services.now().getTime() - PRESENTING_RETRY_SECONDS * 1000);
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const page = await services.db
      .select({ id: mandateDebits.id, status: mandateDebits.status })
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
    for (let i = 0; i < page.length; i += BATCH) {
      const batch = page.slice(i, i + BATCH);
      const waiting = batch.filter((d) => d.status === "notified").map((d) => d.id);
      // A debit cut off half-way is sent again alone.
      let alone = batch.filter((d) => d.status !== "notified").map((d) => d.id);
      try {
        alone = [...alone, ...(await presentBatch(services, waiting, day, counts))];
      } catch (error) {
        // Nothing of a batch that could not be claimed changed: its debits are presented one by one.
        services.log.warn({ err: error, day }, "a batch of autopay debits could not be claimed; presenting them one by one");
        alone = [...alone, ...waiting];
      }
      for (const id of alone) {
        try {
          counts[await presentDebit(services, { debitId: id, day })]++;
        } catch (error) {
          // One debit's trouble never stops the others; the sweep tries it again.
          services.log.error({ err: error, debitId: id }, "an autopay debit could not be presented");
        }
      }
    }
    after = page[page.length - 1]?.id ?? after;
  }
  return counts;
}

interface Claimed {
  debit: MandateDebit;
  providerMandateId: string;
}

/**
 * Debits waiting for their date (`notified`), presented as `presentDebit` presents each: claimed
 * together, sent to the provider one after another, their answers kept together. Throws only when
 * the claim failed (then nothing changed); returns the debits left to `presentDebit`.
 */
async function presentBatch(services: Services, ids: readonly string[], day: IsoDate, counts: Record<Presented, number>) {
  const provider = services.mandates;
  if (!provider || ids.length === 0) return [...ids];
  const { outcomes, claimed, alone } = await claimBatch(services, provider, ids, day);
  for (const outcome of outcomes) counts[outcome]++;
  let answered: { debitId: string; answer: DebitEvent; presentedAt: Date }[] = [];
  let since = performance.now();
  for (const [i, { debit: d, providerMandateId }] of claimed.entries()) {
    try {
      const answer = await provider.present({
        key: d.id,
        reference: d.reference,
        providerMandateId,
        amountPaise: d.amountPaise ?? d.noticePaise,
        presentOn: d.presentOn,
        description: `Instalment ${d.seq}`,
      });
      answered.push({ debitId: d.id, answer, presentedAt: services.now() });
    } catch (error) {
      services.log.warn({ err: error, debitId: d.id }, "the mandate provider did not take the debit; presenting it again later");
      counts.presenting++;
    }
    const rest = claimed.slice(i + 1).map((c) => c.debit.id);
    if (rest.length === 0 || performance.now() - since >= RECLAIM_MS) {
      await keepAnswers(services, provider, answered, rest, counts);
      answered = [];
      since = performance.now();
    }
  }
  return alone;
}

/**
 * The claim of `presentBatch`, in one transaction: the loans locked together (in id order, as the
 * daily run locks them), then the debits; each debit judged and figured as `presentDebit` does it
 * (the loans replayed from one read of their accounts, schedules and ledgers), then cancelled or
 * marked presenting, and the cached figures of the loans with a debit presenting written in one
 * statement. Two debits of one loan, and a loan without an account yet, are left to `presentDebit`.
 */
async function claimBatch(services: Services, provider: MandateProvider, ids: readonly string[], day: IsoDate) {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const outcomes: Presented[] = [];
    const claimed: Claimed[] = [];
    const alone: string[] = [];
    const owners = await tx
      .select({ id: mandateDebits.id, applicationId: mandateDebits.applicationId })
      .from(mandateDebits)
      .where(inArray(mandateDebits.id, [...ids]));
    const byLoan = Map.groupBy(owners, (o) => o.applicationId);
    const lone = new Set<string>();
    for (const list of byLoan.values())
      for (const o of list)
        if (list.length === 1) lone.add(o.id);
        else alone.push(o.id);
    const loanIds = [...byLoan.keys()].filter((id) => byLoan.get(id)?.length === 1);
    const apps = new Map(
      (loanIds.length
        ? await tx
            .select()
            .from(loanApplications)
            .where(inArray(loanApplications.id, loanIds))
            .orderBy(asc(loanApplications.id))
            .for("update")
        : []
      ).map((a) => [a.id, a]),
    );
    const debits = new Map(
      (lone.size
        ? await tx
            .select()
            .from(mandateDebits)
            .where(inArray(mandateDebits.id, [...lone]))
            .orderBy(asc(mandateDebits.id))
            .for("update")
        : []
      ).map((d) => [d.id, d]),
    );
    const mandateIds = [...new Set([...debits.values()].map((d) => d.mandateId))];
    const mandatesById = new Map(
      (mandateIds.length ? await tx.select().from(mandates).where(inArray(mandates.id, mandateIds)) : []).map((m) => [m.id, m]),
    );
    const cancelled = new Map<string, string[]>();
    const cancel = (id: string, reason: string) => cancelled.set(reason, [...(cancelled.get(reason) ?? []), id]);
    const toFigure: { d: MandateDebit; providerMandateId: string; maxAmountPaise: number }[] = [];
    for (const id of ids) {
      if (alone.includes(id)) continue;
      const d = debits.get(id);
      const a = d && apps.get(d.applicationId);
      if (!d || !a || d.status !== "notified" || d.presentOn > day) {
        outcomes.push("unchanged");
        continue;
      }
      const m = mandatesById.get(d.mandateId);
      if (a.status !== "active") cancel(d.id, DEBIT_CANCELLED.loanEnded);
      else if (!m || m.status !== "active" || !m.providerMandateId || m.provider !== provider.name)
        cancel(d.id, DEBIT_CANCELLED.mandateEnded);
      // The notice said 24 hours before: a debit may be late, never early.
      else if (!noticeIsInTime(d.noticeAt, day)) outcomes.push("unchanged");
      else toFigure.push({ d, providerMandateId: m.providerMandateId, maxAmountPaise: m.maxAmountPaise });
    }
    const loans = await loansForReplay({ ...services, db: tx }, [...new Set(toFigure.map((f) => f.d.applicationId))]);
    const presenting: { d: MandateDebit; providerMandateId: string; amountPaise: number }[] = [];
    const states: { applicationId: string; state: LoanState }[] = [];
    for (const { d, providerMandateId, maxAmountPaise } of toFigure) {
      const found = loans.get(d.applicationId);
      if (!found) {
        // A loan activated before accounts existed: presentDebit opens its account.
        alone.push(d.id);
        continue;
      }
      const state = replay(found.terms, found.events, day);
      const amountPaise = debitAmount({ duePaise: state.settlement ? 0 : dueBy(state, day), noticePaise: d.noticePaise, maxAmountPaise });
      if (amountPaise === 0) {
        cancel(d.id, DEBIT_CANCELLED.paid);
        continue;
      }
      // The presentation date is the debit's business date.
      const debit: MandateDebit = { ...d, status: "presenting", amountPaise, presentOn: day, updatedAt: at };
      presenting.push({ d: debit, providerMandateId, amountPaise });
      // From now on the instalment is not past due while the debit lasts: the cached figures say so.
      states.push({ applicationId: d.applicationId, state: replay(found.terms, [...found.events, pendingDebitEvent(debit)], day) });
    }
    for (const [reason, list] of cancelled) {
      await tx.update(mandateDebits).set({ status: "cancelled", reason, updatedAt: at }).where(inArray(mandateDebits.id, list));
      outcomes.push(...list.map((): Presented => "cancelled"));
    }
    if (presenting.length) {
      const values = sql.join(
        presenting.map((p) => sql`(${p.d.id}::uuid, ${p.amountPaise}::int)`),
        sql`, `,
      );
      const marked = (await tx.execute(sql`
        update mandate_debits d set status = 'presenting', amount_paise = v.amount, present_on = ${day}, updated_at = ${at.toISOString()}::timestamptz
        from (values ${values}) as v(id, amount) where d.id = v.id
        returning d.id`)) as unknown as { rows: { id: string }[] };
      if (marked.rows.length !== presenting.length) throw new Error("a debit of the batch was not marked presenting");
      await cacheStates({ ...services, db: tx }, states);
      for (const p of presenting) claimed.push({ debit: p.d, providerMandateId: p.providerMandateId });
    }
    return { outcomes, claimed, alone };
  });
}

/**
 * The answers of a batch's debits kept in one transaction as `presentDebit` keeps each (a debit
 * still presenting becomes in progress, and the provider is asked about it later), and those
 * still waiting their turn claimed again; then an answer that is already final is applied.
 */
async function keepAnswers(
  services: Services,
  provider: MandateProvider,
  answered: readonly { debitId: string; answer: DebitEvent; presentedAt: Date }[],
  waiting: readonly string[],
  counts: Record<Presented, number>,
) {
  if (answered.length === 0 && waiting.length === 0) return;
  const at = services.now();
  try {
    await services.db.transaction(async (tx) => {
      if (answered.length) {
        const values = sql.join(
          answered.map((a) => sql`(${a.debitId}::uuid, ${a.answer.providerPaymentId}::text, ${a.presentedAt.toISOString()}::timestamptz)`),
          sql`, `,
        );
        const kept = (await tx.execute(sql`
          update mandate_debits d set status = 'in_progress', provider_payment_id = v.provider_payment_id, presented_at = v.presented_at,
            updated_at = ${at.toISOString()}::timestamptz
          from (values ${values}) as v(id, provider_payment_id, presented_at) where d.id = v.id and d.status = 'presenting'
          returning d.id`)) as unknown as { rows: { id: string }[] };
        if (provider.debitCheckSeconds !== null)
          await askAboutDebits(
            { ...services, db: tx },
            kept.rows.map((r) => r.id),
          );
      }
      if (waiting.length)
        await tx
          .update(mandateDebits)
          .set({ updatedAt: at })
          .where(and(inArray(mandateDebits.id, [...waiting]), eq(mandateDebits.status, "presenting")));
    });
  } catch (error) {
    // Left presenting: the sweep sends them again with the same keys.
    for (const a of answered) services.log.error({ err: error, debitId: a.debitId }, "an autopay debit could not be presented");
    return;
  }
  for (const { debitId, answer } of answered) {
    if (answer.state === "pending") {
      counts.in_progress++;
      continue;
    }
    try {
      await applyDebitEvent(services, answer);
      counts.answered++;
    } catch (error) {
      services.log.error({ err: error, debitId }, "an autopay debit could not be presented");
    }
  }
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
