// The borrower's record at the central KYC registry (CKYC, run by CERSAI; docs/product.md "CKYC"):
// searched for when an application is signed, uploaded within 10 days of the first disbursal when
// none was found, its 14-digit number kept. Pure rules and the words staff read.
import { formatDateIST, longDate } from "./india-date.ts";
import { addDays, daysBetween, type IsoDate } from "./loan-math.ts";

/** Days after a loan's disbursal by which the borrower's KYC record must be at the registry. */
export const CKYC_UPLOAD_DAYS = 10;

/** A CKYC number (the KYC Identification Number): 14 digits. */
export const CKYC_NUMBER = /^\d{14}$/;

export type CkycStatus = "pending" | "found" | "uploaded" | "failed";

/** What the pages need of a `ckyc_records` row (times as ISO strings, so it crosses to the browser). */
export interface CkycState {
  status: CkycStatus;
  ckycNumber: string | null;
  dueBy: IsoDate | null;
  searchedAt: string | null;
  uploadedAt: string | null;
  attempts: number;
  lastError: string | null;
}

/** The India date by which a loan disbursed on `disbursalDate` must have its borrower's record uploaded. */
export const ckycDueBy = (disbursalDate: IsoDate): IsoDate => addDays(disbursalDate, CKYC_UPLOAD_DAYS);

/** How an upload due by `dueBy` stands on `today`: days left (negative: days late), and the words. */
export function ckycTiming(dueBy: IsoDate, today: IsoDate): { days: number; late: boolean; text: string } {
  const days = daysBetween(today, dueBy);
  const plural = (n: number) => `${n} day${n === 1 ? "" : "s"}`;
  if (days < 0) return { days, late: true, text: `${plural(-days)} late` };
  return { days, late: false, text: days === 0 ? "due today" : `${plural(days)} left` };
}

/** Minutes before a failed upload is tried again by the sweep: 15, 60, 240, then every 12 hours. */
export const ckycRetryMinutes = (attempts: number) => Math.min(15 * 4 ** Math.max(0, attempts - 1), 12 * 60);

/** One line for a staff page: the number, or where the record stands. */
export function ckycStateText(state: CkycState | null, today: IsoDate): string {
  if (!state) return "Not searched yet: the search runs when an application is signed.";
  const due = state.dueBy ? `due by ${longDate(state.dueBy)} (${ckycTiming(state.dueBy, today).text})` : "";
  switch (state.status) {
    case "found":
      return `Existing record ${state.ckycNumber ?? "—"}, found by the search before onboarding.`;
    case "uploaded":
      return `${state.ckycNumber ?? "—"}, uploaded${state.uploadedAt ? ` ${formatDateIST(new Date(state.uploadedAt))}` : ""}.`;
    case "failed":
      return `Upload failed (${state.attempts} ${state.attempts === 1 ? "attempt" : "attempts"}): ${state.lastError ?? "no reason given"}; ${due}.`;
    case "pending":
      if (state.dueBy) return `Upload pending, ${due}.`;
      return state.searchedAt
        ? `None found at the registry: uploaded within ${CKYC_UPLOAD_DAYS} days of the first disbursal.`
        : "Not searched yet: the search runs when an application is signed.";
  }
}
