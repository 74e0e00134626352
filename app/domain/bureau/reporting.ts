/**
 * Credit bureau reporting's calendar and rules (docs/product.md "Credit bureau reporting"): the
 * reporting dates (the 15th and each month's last day), the file's deadline (7 days), a rejected
 * record's (sent again within 7 days), and which reported records tell the borrower.
 */
import { z } from "zod";
import { monthEnd } from "../books/positions.ts";
import { addDays, daysBetween, type IsoDate } from "../loan-math.ts";

/** A file is ready within this many days of its reporting date. */
export const FILE_WITHIN_DAYS = 7;
/** A record a bureau rejected is corrected and sent again within this many days of the rejection's import. */
export const RESEND_WITHIN_DAYS = 7;
/** The daily run sends a correction file by itself when this many days or fewer are left. */
export const AUTO_RESEND_DAYS_LEFT = 2;
/** The daily run makes the files of reporting dates at most this many days past (older ones are made by hand). */
export const CATCH_UP_DAYS = 45;

export const isReportingDate = (day: IsoDate) => day.slice(8) === "15" || monthEnd(day) === day;

/** The reporting date before `day` (exclusive). */
export function previousReportingDate(day: IsoDate): IsoDate {
  if (Number(day.slice(8)) > 15) return `${day.slice(0, 7)}-15`;
  return monthEnd(addDays(`${day.slice(0, 7)}-01`, -1));
}

/** The reporting dates from `from` to `to`, both included, in order. */
export function reportingDatesBetween(from: IsoDate, to: IsoDate): IsoDate[] {
  const dates: IsoDate[] = [];
  for (let d = isReportingDate(to) ? to : previousReportingDate(to); d >= from; d = previousReportingDate(d)) dates.unshift(d);
  return dates;
}

/** The last `n` reporting dates before `today` (a date's file is made the day after it), newest first. */
export function recentReportingDates(today: IsoDate, n: number): IsoDate[] {
  const dates: IsoDate[] = [];
  for (let d = previousReportingDate(today); dates.length < n; d = previousReportingDate(d)) dates.push(d);
  return dates;
}

/** When a reporting date's files are due (ready within 7 days). */
export const fileDueBy = (asOf: IsoDate) => addDays(asOf, FILE_WITHIN_DAYS);

/** When a rejection imported on `importedOn` must be sent again. */
export const resendDueBy = (importedOn: IsoDate) => addDays(importedOn, RESEND_WITHIN_DAYS);

/** Days left until `dueBy` (negative: days late). */
export const daysLeft = (today: IsoDate, dueBy: IsoDate) => daysBetween(today, dueBy);

/** A reported record that tells the borrower: days past due, or a default (written off). */
export const tellsBorrower = (r: { dpd: number; writtenOff: boolean; heldBack: boolean }) => !r.heldBack && (r.dpd > 0 || r.writtenOff);

/** How staff read a due date against today. */
export function dueWords(today: IsoDate, dueBy: IsoDate): string {
  const left = daysLeft(today, dueBy);
  if (left < 0) return `${-left} day${left === -1 ? "" : "s"} late`;
  if (left === 0) return "due today";
  return `${left} day${left === 1 ? "" : "s"} left`;
}

/** Records shown on a file's page at a time. */
export const RECORDS_PER_PAGE = 200;

/** A bureau's rejection file is at most this large. */
export const MAX_REJECTION_BYTES = 2 * 1024 * 1024;
export const REJECTION_TOO_LARGE = "The file is larger than 2 MB: ask the bureau for the rejections of this file alone.";

/** Importing a bureau's rejection file against the run it answers. */
export const uploadRejectionsSchema = z.object({
  file: z
    .file({ message: "Choose the bureau's rejection file (CSV)" })
    .max(MAX_REJECTION_BYTES, REJECTION_TOO_LARGE)
    .refine((f) => /\.(csv|txt)$/i.test(f.name), "Choose a .csv or .txt file"),
});

export const NOT_A_FILE_DATE =
  "Choose a reporting date (the 15th or a month's last day) before today, on or after the first loan's disbursal.";

/** Making the files of a reporting date by hand (the server also checks it is before today and after the first disbursal). */
export const makeFilesSchema = z.object({
  asOf: z
    .string({ message: "Choose a reporting date" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Choose a reporting date")
    .refine((d) => addDays(d, 0) === d && isReportingDate(d), NOT_A_FILE_DATE),
});

/** Settling a written-off loan: the recoveries received accepted as full and final, and why. */
export const settleWrittenOffSchema = z.object({
  reason: z
    .string({ message: "Say why the recoveries are accepted as full and final" })
    .trim()
    .min(10, "Say why the recoveries are accepted as full and final, in at least 10 characters")
    .max(500, "Keep the reason under 500 characters"),
});
