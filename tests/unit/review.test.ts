import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bureauBand, checklistComplete, formatWorkingAge, workingMinutesBetween } from "../../app/domain/review.ts";
import { createLocalCreditBureau, createLocalPanVerifier } from "../../app/server/credit/checks.server.ts";

/** An instant given in India time ("2026-11-23T10:00"). */
const ist = (local: string) => new Date(`${local}:00+05:30`);

describe("age in working hours (09:30–18:30 India time, working days)", () => {
  it("counts only the working part of a day", () => {
    expect(workingMinutesBetween(ist("2026-11-23T09:00"), ist("2026-11-23T10:00"))).toBe(30);
    expect(workingMinutesBetween(ist("2026-11-23T12:00"), ist("2026-11-23T20:00"))).toBe(390);
    expect(workingMinutesBetween(ist("2026-11-23T19:00"), ist("2026-11-23T23:00"))).toBe(0);
  });
  it("skips the weekend and holidays", () => {
    // Friday 18:00 to Monday 10:30: half an hour on Friday, an hour on Monday.
    expect(workingMinutesBetween(ist("2026-11-20T18:00"), ist("2026-11-23T10:30"))).toBe(90);
    expect(workingMinutesBetween(ist("2026-11-20T18:00"), ist("2026-11-23T10:30"), ["2026-11-23"])).toBe(30);
    // A whole working week.
    expect(workingMinutesBetween(ist("2026-11-16T09:30"), ist("2026-11-20T18:30"))).toBe(5 * 9 * 60);
  });
  it("is zero when the end is not after the start", () => {
    expect(workingMinutesBetween(ist("2026-11-23T12:00"), ist("2026-11-23T11:00"))).toBe(0);
  });
  it("reads as a person says it", () => {
    expect(formatWorkingAge(0)).toBe("under a minute");
    expect(formatWorkingAge(135)).toBe("2 h 15 min");
    expect(formatWorkingAge(9 * 60 + 185)).toBe("1 working day 3 h");
    expect(formatWorkingAge(45 * 60)).toBe("5 working days");
  });
});

describe("the checklist", () => {
  it("is complete only with all five items", () => {
    expect(checklistComplete(new Set(["identity", "selfie", "bank", "income"]))).toBe(false);
    expect(checklistComplete(new Set(["identity", "selfie", "bank", "income", "bureau"]))).toBe(true);
  });
});

describe("the local PAN and bureau stand-ins", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "checks-"));
  const now = () => new Date("2026-11-23T04:30:00Z");
  const bureau = createLocalCreditBureau(dir, now);
  const pan = createLocalPanVerifier(dir, now);
  const person = { name: "Neha Gupta", dateOfBirth: "1992-06-15", mobile: "9876543210" };
  it("reads the score from the PAN's digits, so every band can be shown, and always the same", async () => {
    const score = async (p: string) => (await bureau.report({ ...person, pan: p })).score;
    expect(await score("ABCPE8000F")).toBe(780);
    expect(await score("ABCPE6000F")).toBe(660);
    expect(await score("ABCPE2000F")).toBe(420);
    expect(await score("ABCPE0042F")).toBeNull();
    expect(await score("ABCPE9999F")).toBe(900);
    expect(await score("ABCPE8000F")).toBe(780);
    expect([780, 720, 660, 420, null].map(bureauBand)).toEqual(["excellent", "good", "fair", "poor", "no_history"]);
  });
  it("verifies an individual's PAN, refuses a firm's and one not on record", async () => {
    expect(await pan.verify({ ...person, pan: "ABCPE8000F" })).toMatchObject({
      status: "valid",
      nameOnRecord: "NEHA GUPTA",
      nameMatch: 100,
    });
    expect((await pan.verify({ ...person, pan: "ABCFE8000F" })).status).toBe("not_individual");
    expect((await pan.verify({ ...person, pan: "ABCPE0000F" })).status).toBe("invalid");
  });
});
