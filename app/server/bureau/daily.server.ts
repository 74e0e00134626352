/**
 * The bureau files in the daily run (docs/product.md "Credit bureau reporting"): each reporting date
 * of the last 45 days whose files are not made yet gets one per bureau, the day after the date (its
 * figures final once that day's servicing has run), then corrections nearly due are sent.
 */
import { eq, max, min } from "drizzle-orm";
import type { Client } from "../../context.ts";
import { BUREAUS } from "../../domain/bureau/format.ts";
import { CATCH_UP_DAYS, reportingDatesBetween } from "../../domain/bureau/reporting.ts";
import { todayIST } from "../../domain/india-date.ts";
import { addDays, type IsoDate } from "../../domain/loan-math.ts";
import { audit } from "../audit.server.ts";
import { bureauRuns, loanAccounts } from "../db/schema.ts";
import { sendDueCorrections } from "./corrections.server.ts";
import { makeFile } from "./run.server.ts";

type Services = Parameters<typeof makeFile>[0];

/** Every bureau's regular file as at `asOf` that is not made yet; returns those made now. */
export async function makeDateFiles(
  services: Services,
  asOf: IsoDate,
  by: { staff: { id: string; role: string }; client: Client } | null = null,
) {
  const made = [];
  for (const bureau of BUREAUS) {
    const file = await makeFile(services, { bureau, asOf, kind: "regular", createdBy: by?.staff.id ?? null });
    if (!file.ok) continue;
    made.push({ bureau, ...file });
    if (by)
      await audit(services, {
        by: by.staff,
        client: by.client,
        at: services.now(),
        action: "bureau.file",
        subject: { type: "bureau_run", id: file.runId },
        details: { bureau, asOf, accounts: file.accounts, heldBack: file.heldBack },
      });
  }
  return made;
}

/**
 * The day's part of the daily run: the reporting dates from the last regular file's on (at most 45 days
 * back), none before the first loan was paid out (a lender with no loans reports none).
 */
export async function runBureauDay(services: Services, today: IsoDate = todayIST(services.now())) {
  const [first] = await services.db.select({ on: min(loanAccounts.disbursalDate) }).from(loanAccounts);
  const [last] = await services.db
    .select({ on: max(bureauRuns.asOf) })
    .from(bureauRuns)
    .where(eq(bureauRuns.kind, "regular"));
  if (!first?.on) return { files: 0, corrections: 0 };
  const from = [addDays(today, -CATCH_UP_DAYS), first.on, last?.on ?? ""].reduce((a, b) => (a > b ? a : b));
  const dates = reportingDatesBetween(from, addDays(today, -1));
  let files = 0;
  for (const asOf of dates) files += (await makeDateFiles(services, asOf)).length;
  const corrections = await sendDueCorrections(services, today);
  return { files, corrections: corrections.length };
}
