import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CKYC_NUMBER, ckycDueBy, ckycRetryMinutes, ckycStateText, ckycTiming } from "../../app/domain/ckyc.ts";
import { type CkycUpload, CkycRefusal, createLocalCkyc, localCkycNumber } from "../../app/server/ckyc/provider.server.ts";

// The local CKYC stand-in (docs/product.md: CKYC) and the 10-day rules the pages show.
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function standIn() {
  const dir = mkdtempSync(path.join(tmpdir(), "ckyc-"));
  dirs.push(dir);
  return { dir, ckyc: createLocalCkyc(dir, () => new Date("2026-11-02T06:00:00Z"), "a-test-secret") };
}

const photo = Buffer.from("a selfie's bytes");
const record = (pan: string, over: Partial<CkycUpload> = {}): CkycUpload => {
  const address = { line1: "4, Park Street", line2: null, city: "Kolkata", district: "Kolkata", state: "West Bengal", pincode: "700016" };
  return {
    reference: "00000000-0000-4000-8000-000000000001",
    name: "Neha Gupta",
    dateOfBirth: "1992-06-15",
    gender: "female",
    pan,
    currentAddress: address,
    permanentAddress: address,
    mobile: "9876543210",
    email: "neha@example.com",
    documents: [
      {
        role: "photo",
        kind: "selfie",
        contentType: "image/jpeg",
        sha256: createHash("sha256").update(photo).digest("hex"),
        sizeBytes: photo.length,
        bytes: async () => photo,
      },
    ],
    ...over,
  };
};

describe("the local CKYC stand-in", () => {
  it("gives a 14-digit number, the same for the same PAN, and another for another PAN", async () => {
    const { ckyc } = standIn();
    const first = await ckyc.upload(record("ABCPE7500K"));
    expect(first.ckycNumber).toMatch(CKYC_NUMBER);
    expect(first.ckycNumber[0]).not.toBe("0");
    expect(await ckyc.upload(record("ABCPE7500K"))).toEqual(first);
    expect((await ckyc.upload(record("ABCPE7510K"))).ckycNumber).not.toBe(first.ckycNumber);
    for (let i = 0; i < 200; i++) expect(localCkycNumber(String(i))).toMatch(CKYC_NUMBER);
  });

  it("finds a record uploaded before by PAN and date of birth, and nothing else", async () => {
    const { ckyc } = standIn();
    expect(await ckyc.search({ pan: "ABCPE7600K", dateOfBirth: "1992-06-15" })).toBeNull();
    const { ckycNumber } = await ckyc.upload(record("ABCPE7600K"));
    expect(await ckyc.search({ pan: "ABCPE7600K", dateOfBirth: "1992-06-15" })).toEqual({ ckycNumber });
    expect(await ckyc.search({ pan: "abcpe7600k", dateOfBirth: "1992-06-15" })).toEqual({ ckycNumber });
    expect(await ckyc.search({ pan: "ABCPE7600K", dateOfBirth: "1990-01-01" })).toBeNull();
    expect(await ckyc.search({ pan: "ABCPE7700K", dateOfBirth: "1992-06-15" })).toBeNull();
  });

  it("keeps each record under the PAN's keyed hash, never the PAN in clear, and the photo only by its hash", async () => {
    const { ckyc, dir } = standIn();
    await ckyc.upload(record("ABCPE7800K"));
    const files = readdirSync(path.join(dir, "ckyc"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{64}\.json$/);
    const text = readFileSync(path.join(dir, "ckyc", files[0] ?? ""), "utf8");
    expect(text).not.toContain("ABCPE7800K");
    expect(text).not.toContain("Neha");
    expect(JSON.parse(text)).toMatchObject({ uploads: 1, documents: [{ role: "photo", kind: "selfie", sizeBytes: photo.length }] });
  });

  it("fails every upload of a PAN whose digits are 9999, and only the first of one whose digits are 9998", async () => {
    const { ckyc } = standIn();
    for (let i = 0; i < 3; i++) await expect(ckyc.upload(record("ABCPW9999K"))).rejects.toBeInstanceOf(CkycRefusal);
    expect(await ckyc.search({ pan: "ABCPW9999K", dateOfBirth: "1992-06-15" })).toBeNull();
    await expect(ckyc.upload(record("ABCPW9998K"))).rejects.toThrow(/busy/);
    expect((await ckyc.upload(record("ABCPW9998K"))).ckycNumber).toMatch(CKYC_NUMBER);
  });

  it("refuses a record without a photo, or with a photo whose bytes are not the ones named", async () => {
    const { ckyc } = standIn();
    await expect(ckyc.upload(record("ABCPE7900K", { documents: [] }))).rejects.toThrow(/no photo/);
    const [selfie] = record("ABCPE7900K").documents;
    if (!selfie) throw new Error("no selfie");
    const other = { ...selfie, bytes: async () => Buffer.from("other bytes") };
    await expect(ckyc.upload(record("ABCPE7900K", { documents: [other] }))).rejects.toThrow(/photo could not be read/);
  });
});

describe("the 10 days", () => {
  it("run from the disbursal date; days left, due today, then late", () => {
    expect(ckycDueBy("2026-11-25")).toBe("2026-12-05");
    expect(ckycTiming("2026-12-05", "2026-12-01")).toEqual({ days: 4, late: false, text: "4 days left" });
    expect(ckycTiming("2026-12-05", "2026-12-04").text).toBe("1 day left");
    expect(ckycTiming("2026-12-05", "2026-12-05").text).toBe("due today");
    expect(ckycTiming("2026-12-05", "2026-12-08")).toEqual({ days: -3, late: true, text: "3 days late" });
  });

  it("back off between tries: 15 minutes, an hour, four, then every 12 hours", () => {
    expect([1, 2, 3, 4, 5, 9].map(ckycRetryMinutes)).toEqual([15, 60, 240, 720, 720, 720]);
  });

  it("say where a record stands", () => {
    const base = { ckycNumber: null, dueBy: null, searchedAt: null, uploadedAt: null, attempts: 0, lastError: null };
    const today = "2026-12-01";
    expect(ckycStateText(null, today)).toMatch(/^Not searched yet/);
    expect(ckycStateText({ ...base, status: "pending", searchedAt: "2026-11-20T05:00:00Z" }, today)).toMatch(/^None found/);
    expect(ckycStateText({ ...base, status: "found", ckycNumber: "12345678901234" }, today)).toBe(
      "Existing record 12345678901234, found by the search before onboarding.",
    );
    expect(ckycStateText({ ...base, status: "uploaded", ckycNumber: "12345678901234", uploadedAt: "2026-11-26T05:00:00Z" }, today)).toBe(
      "12345678901234, uploaded 26 Nov 2026.",
    );
    expect(ckycStateText({ ...base, status: "pending", dueBy: "2026-12-05" }, today)).toBe(
      "Upload pending, due by 5 Dec 2026 (4 days left).",
    );
    expect(ckycStateText({ ...base, status: "failed", dueBy: "2026-11-30", attempts: 2, lastError: "Busy" }, today)).toBe(
      "Upload failed (2 attempts): Busy; due by 30 Nov 2026 (1 day late).",
    );
  });
});
