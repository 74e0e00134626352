/**
 * Asking the payout provider (docs/product.md "Disbursal"): a payout sent, or asked about again on
 * a backing-off schedule until it has a final answer; staff may ask now; the sweep finds payouts
 * whose questions were lost. Each answer is applied by answer.server.ts.
 */
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { isUuid } from "../../domain/validators/ids.ts";
import { decrypt } from "../crypto.server.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import type { Db } from "../db/client.ts";
import { loanApplications, payouts, users } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";
import { type Applied, applyAnswer } from "./answer.server.ts";
import { holdOf } from "../aml/screen.server.ts";

type Services = Pick<AppServices, "db" | "now" | "jobs" | "payouts" | "keyring" | "config" | "log" | "storage">;

/**
 * Asks the provider about a requested payout: sends it when it has never been answered (the same
 * idempotency key and body every time, so a send that timed out is never paid twice), else fetches
 * its state; then applies the answer. Null when the payout is not waiting for an answer.
 */
export async function checkPayout(services: Services, payoutId: string, { mayCreate = true } = {}): Promise<Applied | null> {
  const [p] = await services.db
    .select({ payout: payouts, reference: loanApplications.reference, mobile: users.mobile, userId: loanApplications.userId })
    .from(payouts)
    .innerJoin(loanApplications, eq(loanApplications.id, payouts.applicationId))
    .innerJoin(users, eq(users.id, loanApplications.userId))
    .where(eq(payouts.id, payoutId));
  if (!p || p.payout.status !== "requested") return null;
  if (p.payout.provider !== services.payouts.name) {
    services.log.warn({ payoutId, provider: p.payout.provider }, "this payout belongs to another provider than the configured one");
    return null;
  }
  if (!p.payout.providerPayoutId && !mayCreate) {
    // Sending is the job's alone (one at a time per payout): ask it to go now.
    await askAgain(services, payoutId, 0);
    return "pending";
  }
  // Never sent while compliance holds the borrower (a match confirmed, or for a disbursal one still
  // possible, after the payout was requested): it waits, asked about again, until they release it.
  if (!p.payout.providerPayoutId) {
    const hold = await holdOf(services, p.userId);
    if (hold === "confirmed" || (hold && p.payout.purpose === "disbursal")) return "pending";
  }
  // Recorded before the provider is asked: a send that times out is known to have been tried.
  await services.db.update(payouts).set({ checkedAt: services.now() }).where(eq(payouts.id, payoutId));
  const answer = p.payout.providerPayoutId
    ? await services.payouts.fetch(p.payout.providerPayoutId)
    : await services.payouts.create({
        resend: p.payout.checkedAt !== null,
        key: p.payout.id,
        reference: p.reference,
        amountPaise: p.payout.amountPaise,
        beneficiary: {
          name: p.payout.holderName,
          accountNumber: decrypt(services.keyring, p.payout.accountNumberEnc),
          ifsc: p.payout.ifsc,
          mobile: p.mobile ?? "",
        },
      });
  return applyAnswer(services, payoutId, answer);
}

/**
 * "Ask the provider now" on the review page: the application's own payout still waiting, the
 * question audited under the staff member's name; a payout never sent yet is left to its job.
 */
export async function staffCheckPayout(
  services: Services,
  { staff, client, reference, payoutId }: { staff: Staff; client: Client; reference: string; payoutId: string },
): Promise<{ ok: true; state: Applied } | { ok: false; reason: "not_waiting" | "provider_silent" }> {
  if (!isUuid(payoutId)) return { ok: false, reason: "not_waiting" };
  const [p] = await services.db
    .select({ id: payouts.id, applicationId: payouts.applicationId, attempt: payouts.attempt, status: payouts.status })
    .from(payouts)
    .innerJoin(loanApplications, eq(loanApplications.id, payouts.applicationId))
    .where(and(eq(payouts.id, payoutId), eq(loanApplications.reference, reference)));
  if (!p || p.status !== "requested") return { ok: false, reason: "not_waiting" };
  await audit(services, {
    by: staff,
    client,
    at: services.now(),
    action: "payout.checked",
    subject: applicationSubject(p.applicationId),
    details: { payoutId: p.id, attempt: p.attempt },
  });
  try {
    return { ok: true, state: (await checkPayout(services, p.id, { mayCreate: false })) ?? "unchanged" };
  } catch (error) {
    services.log.warn({ err: error, payoutId }, "the payout provider gave no answer to a staff check");
    return { ok: false, reason: "provider_silent" };
  }
}

/** When to ask again about a payout still pending after `round` questions: sooner first, then at most every 30 minutes. */
export const nextCheckSeconds = (firstCheckSeconds: number, round: number) =>
  Math.min(Math.max(1, firstCheckSeconds) * 2 ** Math.min(round, 10), 30 * 60);

/**
 * Queues the next question about a payout: at most one waiting per payout (a "stately" queue keyed
 * by the payout), so a sweep, a staff request and the job's own follow-up never make two chains.
 */
export async function askAgain(
  services: Pick<AppServices, "jobs">,
  payoutId: string,
  round: number,
  options: { db?: Db; inSeconds?: number } = {},
) {
  await services.jobs.send(
    "payout-check",
    { payoutId, round },
    {
      singletonKey: payoutId,
      ...(options.db ? { db: options.db } : {}),
      ...(options.inSeconds ? { startAfter: new Date(Date.now() + options.inSeconds * 1000) } : {}),
    },
  );
}

/**
 * Payouts still waiting whose questions stopped (a job that gave up, a lost database connection):
 * asked about again. A live chain of questions asks at least every 30 minutes, so only those not
 * asked for 45 start a new one.
 */
export async function sweepPayouts(services: Services): Promise<number> {
  const before = new Date(services.now().getTime() - 45 * 60_000);
  const waiting = await services.db
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(eq(payouts.status, "requested"), lt(payouts.requestedAt, before), or(isNull(payouts.checkedAt), lt(payouts.checkedAt, before))),
    );
  for (const { id } of waiting) await askAgain(services, id, 0);
  return waiting.length;
}
