/**
 * The bureau files of a reporting date (docs/product.md "Credit bureau reporting"): each bureau's
 * loans chosen, the records read once for all of them, a file per bureau not made yet. The daily run
 * makes each date's files the day after it (its figures final once that day's servicing has run),
 * then sends the corrections nearly due.
 */
import { eq, max } from "drizzle-orm";
import { BUREAUS, type Bureau } from "../../domain/bureau/format.ts";
import { CATCH_UP_DAYS, isReportingDate, reportingDatesBetween } from "../../domain/bureau/reporting.ts";
import { todayIST } from "../../domain/india-date.ts";
import { addDays, type IsoDate } from "../../domain/loan-math.ts";
import { isIsoDate } from "../../domain/loans/servicing.ts";
import { bureauRuns } from "../db/schema.ts";
import { sendDueCorrections } from "./corrections.server.ts";
import { firstDisbursal, loansToReport, recordsAsOf } from "./records.server.ts";
import { type By, makeFile, regularRun, type Services } from "./run.server.ts";

/** Every bureau's regular file as at `asOf` that is not made yet; returns those made now. */
export async function makeDateFiles(services: Services, asOf: IsoDate, by: By = null) {
  const todo: { bureau: Bureau; ids: string[] }[] = [];
  for (const bureau of BUREAUS)
    if (!(await regularRun(services, bureau, asOf))) todo.push({ bureau, ids: await loansToReport(services, bureau, asOf) });
  const all = [...new Set(todo.flatMap((t) => t.ids))];
  const records = new Map((await recordsAsOf(services, asOf, all)).map((r) => [r.applicationId, r]));
  const made = [];
  for (const { bureau, ids } of todo) {
    const own = ids.flatMap((id) => records.get(id) ?? []);
    const file = await makeFile(services, { bureau, asOf, kind: "regular", records: own, by });
    if (file.ok) made.push({ bureau, ...file });
  }
  return made;
}

/** A date finance may make the files of by hand: a reporting date before today, on or after the first disbursal. */
export async function mayMakeFilesAsOf(services: Pick<Services, "db">, asOf: string, today: IsoDate) {
  const first = await firstDisbursal(services);
  return isIsoDate(asOf) && isReportingDate(asOf) && asOf < today && first !== null && asOf >= first;
}

/**
 * The day's part of the daily run: the reporting dates from the last regular file's on (at most 45
 * days back), none before the first loan was paid out (a lender with no loans reports none).
 */
export async function runBureauDay(services: Services, today: IsoDate = todayIST(services.now())) {
  const first = await firstDisbursal(services);
  const [last] = await services.db
    .select({ on: max(bureauRuns.asOf) })
    .from(bureauRuns)
    .where(eq(bureauRuns.kind, "regular"));
  if (!first) return { files: 0, corrections: 0, stuck: 0 };
  const from = [addDays(today, -CATCH_UP_DAYS), first, last?.on ?? ""].reduce((a, b) => (a > b ? a : b));
  const dates = reportingDatesBetween(from, addDays(today, -1));
  let files = 0;
  for (const asOf of dates) files += (await makeDateFiles(services, asOf)).length;
  const corrections = await sendDueCorrections(services, today);
  return { files, corrections: corrections.made.length, stuck: corrections.stuck.length };
}
