import type { AppServices } from "../../context.ts";
import type { Applied } from "../payouts/answer.server.ts";
import { askAgain, checkPayout, nextCheckSeconds, sweepPayouts } from "../payouts/check.server.ts";
import { returnHeldDebits } from "../mandates/excess.server.ts";
import { refundOverpayment } from "../payouts/refund.server.ts";
import { sweepPayments } from "../payments/gateway-answer.server.ts";
import { runCreditChecks } from "../review/credit-checks.server.ts";
import { finishCreditReport } from "../credit/pull.server.ts";
import { deliverNotice } from "../notifications/notify.server.ts";
import { closeResolvedTickets } from "../help/close-resolved.server.ts";
import { sendTicketEmail } from "../help/email.server.ts";
import { endMandates } from "../mandates/end.server.ts";
import { askAboutDebit, checkDebit } from "../mandates/debit-answer.server.ts";
import { sweepAutopay } from "../mandates/day.server.ts";
import { runMatching } from "../reconciliation/match.server.ts";
import { searchCkyc } from "../ckyc/search.server.ts";
import { sweepCkyc, uploadCkyc } from "../ckyc/upload.server.ts";
import { rescreenPart, screenBorrowers } from "../aml/screen.server.ts";
import { sendNoticePart } from "../privacy/breaches.server.ts";
import { sweepOrphans } from "../storage/sweep.server.ts";
import { housekeeping } from "./housekeeping.server.ts";
import { runDailyJob } from "./daily-run.server.ts";

/** Registers this process's job handlers and the schedules (docs/ARCHITECTURE.md "Where a new thing goes": a job). */
export async function startWorkers(services: AppServices) {
  const { jobs, log } = services;
  await jobs.work("housekeeping", async () => {
    const removed = await housekeeping(services);
    // Resolved tickets not reopened within 7 days are closed.
    const ticketsClosed = await closeResolvedTickets(services);
    log.info({ removed, ticketsClosed }, "housekeeping done");
  });
  await jobs.work("sms", (message) => services.sms.send(message));
  await jobs.work("notify", ({ notificationId }) => deliverNotice(services, notificationId));
  await jobs.work("aml-screen", async ({ userId }) => {
    await screenBorrowers(services, [userId]);
  });
  await jobs.work("aml-rescreen", async ({ after }) => {
    const next = await rescreenPart(services, after);
    if (next) await jobs.send("aml-rescreen", { after: next });
  });
  // Each part queues the next in its own transaction.
  await jobs.work("breach-notices", async (job) => {
    await sendNoticePart(services, job);
  });
  await jobs.work("ticket-email", ({ messageId, language }) => sendTicketEmail(services, messageId, language));
  // Thrown (the provider did not answer, or the mandate is still being registered), it is tried again later.
  await jobs.work("mandate-end", (job) => endMandates(services, job));
  await jobs.work("credit-checks", async ({ applicationId }) => {
    const ran = await runCreditChecks(services, { applicationId });
    // Thrown, the job is tried again later (3 times, backing off); the page offers to fetch again after that.
    if (!ran.pan || !ran.bureau) throw new Error("a credit-check provider did not answer");
  });
  await jobs.work("credit-report", (job) => finishCreditReport(services, job));
  await jobs.work("payout-check", async ({ payoutId, round }) => {
    let state: Applied | null;
    try {
      state = await checkPayout(services, payoutId);
    } catch (error) {
      // No usable answer (a timeout, a 5xx): the payout stays requested and is asked about again.
      log.warn({ err: error, payoutId }, "the payout provider gave no answer; asking again later");
      state = "pending";
    }
    if (state !== "pending") return;
    await askAgain(services, payoutId, round + 1, { inSeconds: nextCheckSeconds(services.payouts.firstCheckSeconds, round) });
  });
  await jobs.work("payouts-sweep", async () => {
    const asked = await sweepPayouts(services);
    if (asked) log.warn({ asked }, "payouts waiting without questions were asked about again");
  });
  // Servicing, books, autopay, dunning, the bureau and erasure, in that order (daily-run.server.ts).
  await jobs.work("servicing-daily", () => runDailyJob(services));
  await jobs.work("debit-check", async ({ debitId, round }) => {
    let state;
    try {
      state = await checkDebit(services, debitId);
    } catch (error) {
      // No usable answer: the debit stays in progress and is asked about again.
      log.warn({ err: error, debitId }, "the mandate provider gave no answer about a debit; asking again later");
      state = "pending";
    }
    if (state === "pending") await askAboutDebit(services, { debitId, round: round + 1 });
  });
  await jobs.work("debit-refund", async ({ loanNumber }) => {
    // A written-off loan's late debits were never applied: each is returned as it was.
    const returned = await returnHeldDebits(services, { loanNumber });
    if (returned.waiting) throw new Error("a late autopay debit waits for another refund's answer; tried again later");
    if (returned.returned) return;
    const sent = await refundOverpayment(services, { by: "system", client: null, loanNumber });
    if (sent.ok || sent.reason === "nothing_to_refund") return;
    // Another refund on its way, or no account to send to: tried again later (then left for operations, who see it owed).
    throw new Error(`the refund of a late autopay debit was not sent (${sent.reason})`);
  });
  await jobs.work("autopay-sweep", async () => {
    await sweepAutopay(services);
  });
  await jobs.work("payments-sweep", async () => {
    const asked = await sweepPayments(services);
    if (asked) log.info({ asked }, "repayments without a final answer were asked about");
  });
  await jobs.work("reconciliation-match", async () => {
    const done = await runMatching(services);
    if (done.matched || done.raised || done.cleared) log.info(done, "reconciliation matched");
  });
  // Thrown (the registry did not answer a search), it is tried again later; an upload's failure is kept on its row instead.
  await jobs.work("ckyc-search", async (job) => {
    await searchCkyc(services, job);
  });
  await jobs.work("ckyc-upload", async (job) => {
    await uploadCkyc(services, job);
  });
  await jobs.work("ckyc-sweep", async () => {
    const queued = await sweepCkyc(services);
    if (queued) log.info({ queued }, "CKYC uploads due were queued again");
  });
  await jobs.work("storage-sweep", async () => {
    const swept = await sweepOrphans(services);
    if (swept.removed) log.warn(swept, "stored files no row names were removed");
  });
  await jobs.schedule("housekeeping", "17 * * * *", {});
  await jobs.schedule("storage-sweep", "47 3 * * *", {});
  await jobs.schedule("ckyc-sweep", "41 * * * *", {});
  // After the night's servicing and books: payments and payouts now old enough join the exceptions queue.
  await jobs.schedule("reconciliation-match", "15 1 * * *", {});
  await jobs.schedule("servicing-daily", "30 0 * * *", {});
  await jobs.schedule("payments-sweep", "*/10 * * * *", {});
  await jobs.schedule("autopay-sweep", "*/10 * * * *", {});
  // Days missed while no process ran are run now (one run at a time across processes).
  await jobs.send("servicing-daily", {}, { singletonKey: "daily" });
  await jobs.schedule("payouts-sweep", "*/10 * * * *", {});
}
