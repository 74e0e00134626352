import { describe, expect, it } from "vitest";
import {
  csvTimeIST,
  formatDateIST,
  formatDateTimeIST,
  formatTimeIST,
  indiaTime,
  istDayEnd,
  istDayNumber,
  istDayNumberStart,
  istDayStart,
  istHour,
  longDate,
  todayIST,
} from "../../app/domain/india-date.ts";
import { daytime } from "../../app/domain/notifications.ts";

// Instants are written in UTC here, so that the expectations do not lean on the offset under test.
const utc = (iso: string) => new Date(`${iso}Z`);

describe("India dates (UTC+05:30 all year)", () => {
  it("turns the day at 18:30 UTC", () => {
    expect(todayIST(utc("2026-11-22T18:29:59.999"))).toBe("2026-11-22");
    expect(todayIST(utc("2026-11-22T18:30:00"))).toBe("2026-11-23");
    // Across a month's and a year's end, and on a leap day.
    expect(todayIST(utc("2026-12-31T18:29:59"))).toBe("2026-12-31");
    expect(todayIST(utc("2026-12-31T18:30:00"))).toBe("2027-01-01");
    expect(todayIST(utc("2028-02-28T18:30:00"))).toBe("2028-02-29");
    expect(istDayNumber(utc("2026-11-22T18:29:59.999")) + 1).toBe(istDayNumber(utc("2026-11-22T18:30:00")));
  });

  it("reads India's hour", () => {
    expect(istHour(utc("2026-11-22T18:29:59"))).toBe(23);
    expect(istHour(utc("2026-11-22T18:30:00"))).toBe(0);
    expect(istHour(utc("2026-11-23T02:30:00"))).toBe(8);
  });

  it("knows when an India day starts and ends", () => {
    expect(istDayStart("2026-11-23").toISOString()).toBe("2026-11-22T18:30:00.000Z");
    expect(istDayEnd("2026-11-23").toISOString()).toBe("2026-11-23T18:30:00.000Z");
    expect(istDayEnd("2026-12-31")).toEqual(istDayStart("2027-01-01"));
    expect(indiaTime("2026-11-23", "08:00").toISOString()).toBe("2026-11-23T02:30:00.000Z");
    expect(indiaTime("2026-11-23", "23:59").toISOString()).toBe("2026-11-23T18:29:00.000Z");
    expect(todayIST(istDayStart("2026-11-23"))).toBe("2026-11-23");
    expect(todayIST(new Date(istDayEnd("2026-11-23").getTime() - 1))).toBe("2026-11-23");
  });

  it("numbers India days from 1970-01-01 and finds their start", () => {
    expect(istDayNumber(utc("1970-01-01T00:00:00"))).toBe(0);
    expect(istDayNumber(utc("1969-12-31T18:30:00"))).toBe(0);
    expect(istDayNumber(utc("1969-12-31T18:29:59"))).toBe(-1);
    const day = istDayNumber(utc("2026-11-23T06:00:00"));
    expect(day).toBe(Date.parse("2026-11-23T00:00:00Z") / 86_400_000);
    expect(istDayNumberStart(day)).toBe(istDayStart("2026-11-23").getTime());
  });

  it("moves a notice made at night to 08:00 India time", () => {
    const noon = utc("2026-11-23T06:30:00");
    expect(daytime(noon)).toBe(noon);
    expect(daytime(utc("2026-11-23T13:30:00")).toISOString()).toBe("2026-11-24T02:30:00.000Z"); // 19:00 → next 08:00
    expect(daytime(utc("2026-11-22T20:00:00")).toISOString()).toBe("2026-11-23T02:30:00.000Z"); // 01:30 → same day's 08:00
  });

  it("writes dates and times as the pages, PDFs and CSV do", () => {
    expect(longDate("2026-11-22")).toBe("22 Nov 2026");
    expect(longDate("2027-01-01")).toBe("1 Jan 2027");
    expect(longDate("2028-02-29")).toBe("29 Feb 2028");
    expect(longDate("2026-12-09")).toBe("9 Dec 2026");
    const at = utc("2026-11-23T09:35:09");
    expect(csvTimeIST(at)).toBe("2026-11-23 15:05:09");
    expect(csvTimeIST(utc("2026-11-22T18:30:00"))).toBe("2026-11-23 00:00:00");
    expect(csvTimeIST(utc("2026-11-22T18:29:59"))).toBe("2026-11-22 23:59:59");
    expect(formatTimeIST(at)).toBe("3:05 pm");
    expect(formatDateIST(at)).toBe("23 Nov 2026");
    expect(formatDateIST(utc("2026-11-22T18:29:59"))).toBe("22 Nov 2026");
    expect(formatDateTimeIST(at)).toBe("23 Nov 2026, 3:05 pm");
  });
});
