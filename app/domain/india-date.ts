/**
 * India dates and times, in one place (docs/product.md "Money, dates and the loan math"): times are
 * stored in UTC; the business day, "today" and every date or time shown are India's. India
 * Standard Time is UTC+05:30 all year (no daylight saving), so a fixed offset is exact. Pure and
 * browser-safe: every function takes the instant it works on, none reads the clock.
 */
import type { IsoDate } from "./loan-math.ts";
import type { Language } from "../i18n/languages.ts";

/** India Standard Time's offset from UTC: the only place it is written. */
const IST_OFFSET_MS = 5.5 * 3600_000;
const DAY_MS = 86_400_000;

/** `at` moved by the offset, so that its UTC fields read India's wall clock. */
const indiaClock = (at: Date) => new Date(at.getTime() + IST_OFFSET_MS);

// ---- Days and instants ----------------------------------------------------------------------

/** Today's date in India at `at` ("YYYY-MM-DD"). */
export const todayIST = (at: Date): IsoDate => indiaClock(at).toISOString().slice(0, 10);

/** The hour (0–23) on India's clock at `at`. */
export const istHour = (at: Date): number => indiaClock(at).getUTCHours();

/** The instant India's clock reads `time` ("HH:MM") on `day`. */
export const indiaTime = (day: IsoDate, time: `${number}:${number}`) => new Date(Date.parse(`${day}T${time}:00Z`) - IST_OFFSET_MS);

/** India's wall clock at `at` as a `datetime-local` input's value ("YYYY-MM-DDTHH:MM"). */
export const istDateTimeInput = (at: Date) => indiaClock(at).toISOString().slice(0, 16);

/** The instant a `datetime-local` value ("YYYY-MM-DDTHH:MM", seconds optional) names on India's clock; null if it names none. */
export function fromIstDateTimeInput(value: string): Date | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [, day, hour, minute, second = "00"] = match;
  const at = new Date(Date.parse(`${day}T${hour}:${minute}:${second}Z`) - IST_OFFSET_MS);
  // A day or time that does not exist (31 Feb, 25:00) rolls over: refused instead.
  return !Number.isNaN(at.getTime()) && istDateTimeInput(at) === `${day}T${hour}:${minute}` ? at : null;
}

/** The instant an India day ("YYYY-MM-DD") starts. */
export const istDayStart = (day: IsoDate) => indiaTime(day, "00:00");
/** The instant after an India day ends (the next day's start). */
export const istDayEnd = (day: IsoDate) => new Date(istDayStart(day).getTime() + DAY_MS);

/** India's calendar day at `at` as a number: whole days since 1970-01-01 (a Thursday) in India. */
export const istDayNumber = (at: Date): number => Math.floor((at.getTime() + IST_OFFSET_MS) / DAY_MS);
/** The instant (ms since the epoch) India day number `day` starts. */
export const istDayNumberStart = (day: number): number => day * DAY_MS - IST_OFFSET_MS;

// ---- Shown -----------------------------------------------------------------------------------

const timeFormat = new Intl.DateTimeFormat("en-IN", {
  hour: "numeric",
  minute: "2-digit",
  hour12: true,
  timeZone: "Asia/Kolkata",
});

/** Month names as each language writes a date: English short ("22 Nov 2026"), Hindi whole ("22 नवंबर 2026", docs/product.md "Languages"). */
const MONTHS: Record<Language, readonly string[]> = {
  en: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
  hi: ["जनवरी", "फ़रवरी", "मार्च", "अप्रैल", "मई", "जून", "जुलाई", "अगस्त", "सितंबर", "अक्टूबर", "नवंबर", "दिसंबर"],
};

/** "3:05 pm", in India time (the same in both languages). */
export const formatTimeIST = (date: Date) => timeFormat.format(date);
/** "22 Nov 2026" ("22 नवंबर 2026" in Hindi), in India time. */
export const formatDateIST = (date: Date, language: Language = "en") => longDate(todayIST(date), language);
/** "22 Nov 2026, 3:05 pm", in India time. */
export const formatDateTimeIST = (date: Date, language: Language = "en") => `${formatDateIST(date, language)}, ${formatTimeIST(date)}`;

/** "22 Nov 2026" ("22 नवंबर 2026" in Hindi) for an ISO date (already India's: no time zone is involved). The same on the server and in the browser: no Intl data is read. */
export function longDate(date: IsoDate, language: Language = "en"): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return `${d} ${MONTHS[language][m - 1]} ${y}`;
}

/** "2026-11-23 15:05:09", India time: the audit CSV's time column. */
export const csvTimeIST = (date: Date) => indiaClock(date).toISOString().slice(0, 19).replace("T", " ");
