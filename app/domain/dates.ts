/**
 * Calendar dates as ISO strings "YYYY-MM-DD" (no time, no time zone). All
 * arithmetic is on integers (days since 1970-01-01 by the proleptic Gregorian
 * calendar); nothing here reads the clock or depends on the process's zone.
 */

/** A calendar date, "YYYY-MM-DD". */
export type IsoDate = string;

/** The same date as numbers; m is 1–12. */
export interface CalendarDate {
  y: number;
  m: number;
  d: number;
}

/** Holidays as ISO dates (a Set is faster for long searches). */
export type Holidays = readonly IsoDate[] | ReadonlySet<IsoDate>;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

export function daysInMonth(y: number, m: number): number {
  if (m === 2 && isLeapYear(y)) return 29;
  const days = MONTH_DAYS[m - 1];
  if (days === undefined) throw new RangeError(`month out of range: ${m}`);
  return days;
}

/** Parses "YYYY-MM-DD" and checks that the day exists; throws RangeError otherwise. */
export function parseIsoDate(date: IsoDate): CalendarDate {
  const match = ISO_DATE.exec(date);
  if (!match) throw new RangeError(`not a date (YYYY-MM-DD): ${date}`);
  const y = Number(match[1]);
  const m = Number(match[2]);
  const d = Number(match[3]);
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) throw new RangeError(`no such date: ${date}`);
  return { y, m, d };
}

/** Whether a string is a real calendar date in the form "YYYY-MM-DD". */
export function isIsoDate(value: unknown): value is IsoDate {
  if (typeof value !== "string") return false;
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const m = Number(match[2]);
  const d = Number(match[3]);
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(Number(match[1]), m);
}

const pad2 = (n: number) => String(n).padStart(2, "0");

export function toIsoDate({ y, m, d }: CalendarDate): IsoDate {
  if (y < 0 || y > 9999) throw new RangeError(`year out of range: ${y}`);
  return `${String(y).padStart(4, "0")}-${pad2(m)}-${pad2(d)}`;
}

/** Days since 1970-01-01 (negative before). Howard Hinnant's days_from_civil. */
function toDayNumber({ y, m, d }: CalendarDate): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The inverse of toDayNumber (civil_from_days). */
function fromDayNumber(z0: number): CalendarDate {
  const z = z0 + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

/** Days since 1970-01-01 of an ISO date. */
export function dayNumber(date: IsoDate): number {
  return toDayNumber(parseIsoDate(date));
}

/** The ISO date of a day number (days since 1970-01-01). */
export function fromDayNumberToIso(day: number): IsoDate {
  return toIsoDate(fromDayNumber(day));
}

/** `n` days after `date` (before it when n < 0). */
export function addDays(date: IsoDate, n: number): IsoDate {
  if (!Number.isInteger(n)) throw new RangeError(`days must be a whole number, got ${n}`);
  return fromDayNumberToIso(dayNumber(date) + n);
}

/** Calendar days from `from` to `to`: positive when `to` is later. daysBetween("2026-01-31", "2026-02-28") = 28. */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return dayNumber(to) - dayNumber(from);
}

/** −1, 0 or 1 (ISO strings also sort correctly as plain strings). */
export function compareIsoDates(a: IsoDate, b: IsoDate): number {
  const diff = dayNumber(a) - dayNumber(b);
  return diff < 0 ? -1 : diff > 0 ? 1 : 0;
}

/**
 * The same day of the month `n` calendar months after `anchor`, clamped to
 * the last day of a shorter month. Always computed from the anchor, never
 * chained: from 31 Jan, +1 is 28/29 Feb and +2 is 31 Mar.
 */
export function addMonthsClamped(anchor: IsoDate, n: number): IsoDate {
  if (!Number.isInteger(n)) throw new RangeError(`months must be a whole number, got ${n}`);
  const { y, m, d } = parseIsoDate(anchor);
  const index = y * 12 + (m - 1) + n;
  const ny = Math.floor(index / 12);
  const nm = index - ny * 12 + 1;
  return toIsoDate({ y: ny, m: nm, d: Math.min(d, daysInMonth(ny, nm)) });
}

/** The given day of a month, clamped to the month's end: (2026, 2, 31) → "2026-02-28". */
export function dayOfMonthClamped(y: number, m: number, day: number): IsoDate {
  return toIsoDate({ y, m, d: Math.min(day, daysInMonth(y, m)) });
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: IsoDate): number {
  // 1970-01-01 was a Thursday (4).
  return (((dayNumber(date) + 4) % 7) + 7) % 7;
}

function holidaySet(holidays: Holidays): ReadonlySet<IsoDate> {
  return holidays instanceof Set ? holidays : new Set(holidays as readonly IsoDate[]);
}

function isWorkingDayIn(date: IsoDate, holidays: ReadonlySet<IsoDate>): boolean {
  const weekday = dayOfWeek(date);
  return weekday !== 0 && weekday !== 6 && !holidays.has(date);
}

/** Monday to Friday, except the configured holidays (PRODUCT.md §4). */
export function isWorkingDay(date: IsoDate, holidays: Holidays = []): boolean {
  return isWorkingDayIn(date, holidaySet(holidays));
}

/**
 * The `n`th working day after `date` (n > 0), or before it (n < 0); `date`
 * itself when n = 0. addWorkingDays(friday, 1) is the next Monday (unless a holiday).
 */
export function addWorkingDays(date: IsoDate, n: number, holidays: Holidays = []): IsoDate {
  if (!Number.isInteger(n)) throw new RangeError(`working days must be a whole number, got ${n}`);
  const set = holidaySet(holidays);
  const step = n < 0 ? -1 : 1;
  let day = dayNumber(date);
  let left = Math.abs(n);
  // A year without a working day means the holiday list is broken.
  let guard = 0;
  while (left > 0) {
    day += step;
    if (isWorkingDayIn(fromDayNumberToIso(day), set)) {
      left--;
      guard = 0;
    } else if (++guard > 366) {
      throw new RangeError("no working day within a year: check the holiday list");
    }
  }
  return fromDayNumberToIso(day);
}

/** The first working day strictly after `date`. */
export function nextWorkingDay(date: IsoDate, holidays: Holidays = []): IsoDate {
  return addWorkingDays(date, 1, holidays);
}

const MONTH_ABBREVIATIONS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** "22 Nov 2026": how dates are shown on screens, PDFs and SMS. */
export function formatDateIN(date: IsoDate): string {
  const { y, m, d } = parseIsoDate(date);
  return `${d} ${MONTH_ABBREVIATIONS[m - 1] ?? ""} ${y}`;
}

/**
 * Whole years of age on `asOf` for someone born on `dateOfBirth`. A 29 February
 * birthday counts from 1 March in common years.
 */
export function ageOn(dateOfBirth: IsoDate, asOf: IsoDate): number {
  const birth = parseIsoDate(dateOfBirth);
  const on = parseIsoDate(asOf);
  const beforeBirthday = on.m < birth.m || (on.m === birth.m && on.d < birth.d);
  return on.y - birth.y - (beforeBirthday ? 1 : 0);
}
