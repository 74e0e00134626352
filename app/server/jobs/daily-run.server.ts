/**
 * The night's run (the `servicing-daily` job at 00:30 Asia/Kolkata), stage by stage in the order the
 * day needs them: each stage is safe to run again and picks up where a stopped run left off, so the job
 * retried after a failure (or a process killed mid-way) posts nothing twice.
 */
import type { AppServices } from "../../context.ts";
import { businessToday } from "../loan-account/account.server.ts";
import { runDunning } from "../collections/dunning.server.ts";
import { catchUpServicing } from "../servicing/daily.server.ts";
import { runBooksDay } from "../books/daily.server.ts";
import { provisionMonthsEnded } from "../books/provision.server.ts";
import { runAutopayDay } from "../mandates/day.server.ts";
import { runBureauDay } from "../bureau/daily.server.ts";
import { eraseExpired } from "../privacy/erase.server.ts";

export const DAILY_STAGES = [
  // A month that has ended is provisioned first, on the figures it ended with (before today's run moves them).
  ["provisioning of months ended", (s: AppServices) => provisionMonthsEnded(s, businessToday(s))],
  ["servicing", (s: AppServices) => catchUpServicing(s)],
  // The books after the day's figures: journals, NPA, accrual (and any month end not provisioned yet).
  ["books", (s: AppServices) => runBooksDay(s)],
  // Autopay after the day's figures: today's debits presented, the coming days' announced.
  ["autopay", (s: AppServices) => runAutopayDay(s)],
  // Collections after both: a debit presented today holds its case's reminders.
  ["dunning", (s: AppServices) => runDunning(s, { day: businessToday(s) })],
  // The bureau files last, on the figures the day's run left: a failure is logged and the next run tries again.
  [
    "bureau",
    (s: AppServices) => runBureauDay(s).catch((error: unknown) => s.log.error({ err: error }, "the credit bureau files could not be made")),
  ],
  // Records an erasure kept, erased once the law no longer keeps them.
  [
    "erasure",
    (s: AppServices) =>
      eraseExpired(s).catch((error: unknown) => s.log.error({ err: error }, "records past their keeping could not be erased")),
  ],
] as const;

export type DailyStage = (typeof DAILY_STAGES)[number][0];

/**
 * Runs the night's stages in order. `around` wraps each stage (the bench times them; `skip` leaves
 * some out there), the job passes neither.
 */
export async function runDailyJob(
  services: AppServices,
  {
    skip = [],
    around = (_stage, run) => run(),
  }: { skip?: readonly DailyStage[]; around?: (stage: DailyStage, run: () => Promise<unknown>) => Promise<unknown> } = {},
) {
  for (const [stage, run] of DAILY_STAGES) if (!skip.includes(stage)) await around(stage, () => run(services));
}
