import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../app/domain/loan-math.ts";
import { formatDateIST, longDate } from "../../app/domain/india-date.ts";
import { auditLog, ckycRecords } from "../../app/server/db/schema.ts";
import { ckycOnDisbursal, uploadCkyc } from "../../app/server/ckyc/upload.server.ts";
import { activeLoan, signedApplication, signedInStaff } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { jobsOf, waitForJobs } from "../helpers/jobs.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// CKYC (docs/product.md: CKYC) through the pages and the local stand-in: the upload after a
// disbursal and its number on the staff pages, a failing PAN listed with its due date and tried
// again by the sweep and by the button, one that fails once, late uploads, the search before
// onboarding, the same upload asked for twice, and who may see the list.
let clock = new Date("2026-11-02T05:30:00Z"); // Monday 2 Nov 2026, 11:00 in India.
let app: TestServer;
let credit: { cookie: string };
let ops: { cookie: string };
let compliance: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }, { now: () => clock });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  compliance = await signedInStaff(app, "compliance", "Kiran Desai");
}, 60_000);
afterAll(async () => {
  await app?.stop();
});

/** The clock moved on: only ever forward, so tests in any order agree on what "now" is. */
const later = (minutes: number) => {
  clock = new Date(clock.getTime() + minutes * 60_000);
};
let serial = 0;
const mobile = () => `95500${String(++serial).padStart(5, "0")}`;
const loan = (profile: { name: string; pan?: string }) => activeLoan(app, mobile(), credit, ops, profile);
const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");
const page = async (pathname: string, cookie: string) => {
  const res = await app.get(pathname, { headers: { Cookie: cookie } });
  expect(res.status, pathname).toBe(200);
  return html(res);
};
const ckycOf = async (userId: string) => (await app.services.db.select().from(ckycRecords).where(eq(ckycRecords.userId, userId)))[0];
const settle = () => waitForJobs(app, ["ckyc-search", "ckyc-upload", "ckyc-sweep"]);
const sweep = async () => {
  await app.services.jobs.send("ckyc-sweep", {});
  await settle();
};
/** The stand-in's files: one per PAN uploaded (or refused). */
const standInRecords = () => {
  const dir = path.join(app.dataDir, "ckyc");
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  return names.map((n) => JSON.parse(readFileSync(path.join(dir, n), "utf8")) as { ckycNumber: string | null; uploads: number });
};
const auditOf = (userId: string, action: string) =>
  app.services.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "user"), eq(auditLog.subjectId, userId), eq(auditLog.action, action)));

describe("CKYC upload after a disbursal", () => {
  it("uploads the borrower's record, stores its 14-digit number and shows it on the staff pages", async () => {
    const b = await loan({ name: "Meera Iyer" });
    await settle();
    const row = await ckycOf(b.userId);
    expect(row).toMatchObject({ status: "uploaded", applicationId: b.id, attempts: 1, lastError: null });
    expect(row?.dueBy).toBe(addDays(b.disbursalDate, 10));
    expect(row?.ckycNumber).toMatch(/^\d{14}$/);
    expect(row?.searchedAt).not.toBeNull();
    const number = row?.ckycNumber ?? "";
    expect(standInRecords().filter((r) => r.ckycNumber === number)).toMatchObject([{ uploads: 1 }]);
    expect(await auditOf(b.userId, "ckyc.uploaded")).toHaveLength(1);

    const borrowerPage = await page(`/admin/borrowers/${b.userId}`, ops.cookie);
    expect(borrowerPage).toContain(`${number}, uploaded ${formatDateIST(clock)}.`);
    expect(borrowerPage).toContain(`CKYC record uploaded, number ${number}`);
    expect(await page(`/admin/loans/${b.loanNumber}`, ops.cookie)).toContain(number);
    expect(await page(`/admin/applications/${b.ref}`, credit.cookie)).toContain(number);
    const list = await page("/admin/ckyc", compliance.cookie);
    expect(list).toMatch(new RegExp(`Meera Iyer.*${b.loanNumber}.*${number}.*Uploaded by us`, "s"));
  });

  it("uploads once when the same upload is asked for twice at once, and not again for another loan", async () => {
    const b = await loan({ name: "Farah Khan" });
    await settle();
    const first = await ckycOf(b.userId);
    expect(first?.status).toBe("uploaded");
    // The job again (twice at once): the row is locked and already uploaded.
    expect(await Promise.all([uploadCkyc(app.services, b), uploadCkyc(app.services, b)])).toEqual(["skipped", "skipped"]);
    // Another disbursal for the borrower: nothing queued, nothing changed.
    const before = (await jobsOf(app, "ckyc-upload")).length;
    await app.services.db.transaction(async (tx) => {
      await ckycOnDisbursal({ ...app.services, db: tx }, { userId: b.userId, applicationId: b.id, disbursalDate: "2026-12-01", at: clock });
    });
    expect((await jobsOf(app, "ckyc-upload")).length).toBe(before);
    expect(await ckycOf(b.userId)).toEqual(first);
    expect(standInRecords().filter((r) => r.ckycNumber === first?.ckycNumber)).toMatchObject([{ uploads: 1 }]);
  });

  it("uploads a pending record once when two jobs take it at the same moment", async () => {
    const b = await signedApplication(app, mobile(), { name: "Tara Singh" });
    await settle();
    await app.services.db
      .update(ckycRecords)
      .set({ status: "pending", dueBy: "2026-11-12", applicationId: b.id })
      .where(eq(ckycRecords.userId, b.userId));
    const outcomes = await Promise.all([uploadCkyc(app.services, b), uploadCkyc(app.services, b)]);
    expect(outcomes.sort()).toEqual(["skipped", "uploaded"]);
    const row = await ckycOf(b.userId);
    expect(row).toMatchObject({ status: "uploaded", attempts: 1 });
    expect(standInRecords().filter((r) => r.ckycNumber === row?.ckycNumber)).toMatchObject([{ uploads: 1 }]);
  });
});

describe("failed uploads", () => {
  it("are listed with the due date, tried again by the sweep once their wait is over, and by the button", async () => {
    const b = await loan({ name: "Rohan Verma", pan: "ABCPW9999K" });
    await settle();
    const failed = await ckycOf(b.userId);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, ckycNumber: null });
    expect(failed?.lastError).toMatch(/^The registry rejected the record: image quality/);
    expect(failed?.lastError).not.toContain("ABCPW9999K");
    expect(failed?.nextAttemptAt?.getTime()).toBe(clock.getTime() + 15 * 60_000);

    const list = await page("/admin/ckyc", compliance.cookie);
    const due = longDate(addDays(b.disbursalDate, 10));
    expect(list).toMatch(new RegExp(`Rohan Verma.*${b.loanNumber}.*${due}.*10 days left.*Failed.*image quality.*Try again now`, "s"));
    expect(await page(`/admin/borrowers/${b.userId}`, ops.cookie)).toMatch(/Upload failed \(1 attempt\): The registry rejected/);

    // The sweep leaves it while it waits, then tries again.
    await sweep();
    expect((await ckycOf(b.userId))?.attempts).toBe(1);
    later(16);
    await sweep();
    expect(await ckycOf(b.userId)).toMatchObject({ status: "failed", attempts: 2 });
    expect((await ckycOf(b.userId))?.nextAttemptAt?.getTime()).toBe(clock.getTime() + 60 * 60_000);

    // Operations see the list but not the button; compliance tries again now.
    expect(await page("/admin/ckyc", ops.cookie)).not.toContain("Try again now");
    expect((await postForm(app, "/admin/ckyc", { intent: "retry", userId: b.userId }, { cookie: ops.cookie })).status).toBe(403);
    const res = await postForm(app, "/admin/ckyc", { intent: "retry", userId: b.userId }, { cookie: compliance.cookie });
    expect(res.status).toBe(302);
    expect(toastOf(res)).toMatch(/tried again now/);
    await settle();
    expect(await ckycOf(b.userId)).toMatchObject({ status: "failed", attempts: 3 });
    expect(await auditOf(b.userId, "ckyc.retry")).toMatchObject([{ actorUserId: compliance.userId, actorRole: "compliance" }]);
    expect(await auditOf(b.userId, "ckyc.upload_failed")).toHaveLength(3);
  });

  it("succeed on the next try when the registry failed only once", async () => {
    const b = await loan({ name: "Sana Mirza", pan: "ABCPW9998K" });
    await settle();
    expect(await ckycOf(b.userId)).toMatchObject({ status: "failed", attempts: 1 });
    expect((await ckycOf(b.userId))?.lastError).toMatch(/busy/);
    later(16);
    await sweep();
    const row = await ckycOf(b.userId);
    expect(row).toMatchObject({ status: "uploaded", attempts: 2, lastError: null, nextAttemptAt: null });
    expect(row?.ckycNumber).toMatch(/^\d{14}$/);
    expect(await page(`/admin/loans/${b.loanNumber}`, ops.cookie)).toContain(row?.ckycNumber ?? "?");
  });

  it("past the 10 days are shown late, ahead of those still in time", async () => {
    const late = await loan({ name: "Lata Joshi", pan: "ABCPX9999K" });
    later(6 * 24 * 60);
    const inTime = await loan({ name: "Irfan Ali", pan: "ABCPY9999K" });
    await settle();
    later(5 * 24 * 60);
    const list = await page("/admin/ckyc", compliance.cookie);
    expect(list).toMatch(/Uploads to make: \d+, \d+ late/);
    const lateAt = list.indexOf("Lata Joshi");
    const inTimeAt = list.indexOf("Irfan Ali");
    expect(lateAt).toBeGreaterThan(-1);
    expect(inTimeAt).toBeGreaterThan(lateAt);
    expect(list.slice(lateAt, inTimeAt)).toContain("Late: 1 day late");
    expect(list.slice(inTimeAt)).toMatch(/^[^]*?5 days left/);
    expect(late.loanNumber).not.toBe(inTime.loanNumber);
  });
});

describe("the search before onboarding", () => {
  it("finds a record the registry holds when the application is signed, and nothing is uploaded after the disbursal", async () => {
    const pan = "ABCPQ8400K";
    // Another institution uploaded this person's record to the registry before.
    const photo = Buffer.from("elsewhere");
    const address = { line1: "1 Road", line2: null, city: "Pune", district: "Pune", state: "Maharashtra", pincode: "411001" };
    const registry = app.services.ckyc;
    if (!registry) throw new Error("the local CKYC stand-in is not configured");
    const { ckycNumber } = await registry.upload({
      reference: "elsewhere",
      name: "Priya Shah",
      dateOfBirth: "1992-06-15",
      gender: "female",
      pan,
      currentAddress: address,
      permanentAddress: address,
      mobile: null,
      email: null,
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
    });
    const b = await loan({ name: "Priya Shah", pan });
    await settle();
    expect(await ckycOf(b.userId)).toMatchObject({ status: "found", ckycNumber, uploadedAt: null, attempts: 0 });
    expect((await jobsOf(app, "ckyc-upload")).filter((j) => j.data?.userId === b.userId)).toEqual([]);
    expect(standInRecords().filter((r) => r.ckycNumber === ckycNumber)).toMatchObject([{ uploads: 1 }]);
    expect(await page(`/admin/applications/${b.ref}`, credit.cookie)).toContain(`Existing record ${ckycNumber}`);
    expect(await page(`/admin/borrowers/${b.userId}`, ops.cookie)).toContain(`Existing record ${ckycNumber}`);
    expect(await page("/admin/ckyc", ops.cookie)).toMatch(new RegExp(`Priya Shah.*${ckycNumber}.*Found by the search`, "s"));
  });

  it("says none was found on the review page, and lists nothing until a loan is disbursed", async () => {
    const b = await signedApplication(app, mobile(), { name: "Nikhil Rao" });
    await settle();
    const row = await ckycOf(b.userId);
    expect(row).toMatchObject({ status: "pending", dueBy: null, ckycNumber: null });
    expect(row?.searchedAt).not.toBeNull();
    expect(await page(`/admin/applications/${b.ref}`, credit.cookie)).toContain("None found at the registry");
    expect(await page("/admin/ckyc", compliance.cookie)).not.toContain("Nikhil Rao");
  });
});

describe("who may see CKYC", () => {
  it("is open to operations, compliance and administrators; refused to other staff and to borrowers", async () => {
    expect((await app.get("/admin/ckyc", { headers: { Cookie: credit.cookie } })).status).toBe(403);
    expect(await page("/admin/ckyc", ops.cookie)).toContain("<h1");
    const b = await signedApplication(app, mobile(), { name: "Dev Patel" });
    expect((await app.get("/admin/ckyc", { headers: { Cookie: b.cookie } })).status).toBe(403);
    expect((await postForm(app, "/admin/ckyc", { intent: "retry", userId: b.userId }, { cookie: b.cookie })).status).toBe(403);
    // Only a failed upload can be tried again.
    const refused = await postForm(app, "/admin/ckyc", { intent: "retry", userId: b.userId }, { cookie: compliance.cookie });
    expect(toastOf(refused)).toMatch(/Only a failed upload/);
    expect(await auditOf(b.userId, "ckyc.retry")).toEqual([]);
  });
});
