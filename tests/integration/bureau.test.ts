import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIELD_RULES, parseFile, rejectionCsv } from "../../app/domain/bureau/format.ts";
import { indiaTime } from "../../app/domain/india-date.ts";
import { addDays, daysBetween, type IsoDate } from "../../app/domain/loan-math.ts";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import { runBooksDay } from "../../app/server/books/daily.server.ts";
import { runBureauDay } from "../../app/server/bureau/daily.server.ts";
import {
  borrowerProfiles,
  bureauAlerts,
  bureauRecords,
  bureauRejections,
  bureauRuns,
  loanApplications,
  loanInstalments,
  loanLedger,
  notifications,
} from "../../app/server/db/schema.ts";
import { payoffFor } from "../../app/server/loan-account/read.server.ts";
import { runServicingDay } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, instalmentOf, signedApplication, signedInStaff, staffSessionAgain } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
import { originOf, postForm, toastOf } from "../helpers/http.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Credit bureau reporting (docs/product.md "Credit bureau reporting", docs/decisions/0006): a
// portfolio with a loan in each state reported as at a reporting date, each bureau's file read back
// field by field against the decision record's rules; a bureau's rejection imported and the record
// sent again; the borrower told once per reporting of days past due or a default.
const clock: TestClock = { now: new Date("2026-01-05T05:30:00Z") };
let app: TestServer;
let credit: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
let admin: { cookie: string; userId: string };
let finance: { cookie: string; userId: string };
let serial = 0;

beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  admin = await signedInStaff(app, "admin", "Anil Kumar");
  finance = await signedInStaff(app, "finance", "Farah Iqbal");
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

const at = (day: IsoDate, time: `${number}:${number}` = "11:00") => {
  clock.now = indiaTime(day, time);
};
const freshSessions = () => Promise.all([credit, ops, admin, finance].map((s) => staffSessionAgain(app, s)));
const mobileOf = () => `97800${String(++serial).padStart(5, "0")}`;
const newLoan = async (day: IsoDate) => {
  at(day);
  await freshSessions();
  return activeLoan(app, mobileOf(), credit, ops);
};
type Loan = Awaited<ReturnType<typeof newLoan>>;

/** The reporting date of the portfolio, and the loans in each state on it. */
const AS_OF: IsoDate = "2026-08-15";
const loans: Partial<Record<"current" | "sma0" | "sma1" | "sma2" | "npa" | "writtenOff" | "settled" | "closed" | "cancelledAfter", Loan>> =
  {};
let cancelledBefore: { id: string; ref: string };

async function freshCookie(userId: string) {
  const { setCookie } = await createUserSession(app.services, {
    userId,
    deviceId: `again-${userId}-${clock.now.getTime()}`,
    ip: "127.0.0.1",
    userAgent: "test",
  });
  return setCookie.split(";")[0] ?? "";
}

async function recordPayment(loan: Loan, rupees: string, day: IsoDate, reference: string) {
  const res = await postForm(
    app,
    `/admin/loans/${loan.loanNumber}`,
    { intent: "record_payment", amount: rupees, mode: "NEFT", reference, date: day },
    { cookie: ops.cookie },
  );
  expect(res.status).toBe(302);
  return toastOf(res);
}

/** A bureau's rejection file posted to a run's page as the form sends it. */
function uploadRejections(path: string, name: string, csv: string, cookie: string) {
  const form = new FormData();
  form.set("file", new Blob([csv], { type: "text/csv" }), name);
  return app.get(path, { method: "POST", body: form, headers: { Cookie: cookie, Origin: originOf(app) } });
}

/** The TL segment fields of each account in a file, read with the decision record's tag-length-value rule. */
function accountsOf(text: string) {
  const parsed = parseFile(text);
  return new Map(parsed.records.map((r) => [r.accountNumber, r]));
}

/** A staff page's HTML as finance reads it, without React's text separators. */
const pageText = async (path: string) =>
  (await (await app.get(path, { headers: { Cookie: finance.cookie } })).text()).replaceAll("<!-- -->", "");

async function setGender(userId: string, gender: string | null) {
  await app.services.db.update(borrowerProfiles).set({ gender }).where(eq(borrowerProfiles.userId, userId));
}

/** What a loan owes on `day` in whole rupees (half-up), from its schedule and charges: the balance and the overdue. */
async function owedOn(loan: Loan, day: IsoDate) {
  const rows = await app.services.db.select().from(loanInstalments).where(eq(loanInstalments.applicationId, loan.id));
  const charges = await app.services.db
    .select()
    .from(loanLedger)
    .where(and(eq(loanLedger.applicationId, loan.id), eq(loanLedger.kind, "penal")));
  const due = rows.filter((r) => r.dueDate < day);
  const penal = charges.reduce((s, c) => s + c.amountPaise, 0);
  const interest = due.reduce((s, r) => s + r.interestPaise, 0);
  const rupees = (paise: number) => Math.floor((paise + 50) / 100);
  return [rupees(1_00_000_00 + interest + penal), rupees(due.reduce((s, r) => s + r.principalPaise + r.interestPaise, 0) + penal)];
}

async function fileOf(runId: string) {
  const res = await app.get(`/admin/bureau/runs/${runId}/file`, { headers: { Cookie: finance.cookie } });
  expect(res.status).toBe(200);
  return res.text();
}

describe("credit bureau reporting", { shuffle: false }, () => {
  it("builds a portfolio with a loan in each state", async () => {
    // Two loans never paid: written off at 181 days past due, one of them settled after a recovery.
    loans.writtenOff = await newLoan("2026-01-05");
    loans.settled = await newLoan("2026-01-05");
    loans.npa = await newLoan("2026-04-01");
    loans.sma2 = await newLoan("2026-05-05");
    loans.sma1 = await newLoan("2026-06-05");
    loans.sma0 = await newLoan("2026-06-25");
    loans.closed = await newLoan("2026-07-01");
    loans.current = await newLoan("2026-08-01");
    // Closed in the period: paid off in full on 5 August.
    at("2026-08-05");
    const quote = await payoffFor(app.services, { userId: loans.closed.userId, loanNumber: loans.closed.loanNumber, on: "2026-08-05" });
    if (!quote.ok) throw new Error("no payoff quote");
    await recordPayment(loans.closed, (quote.quote.totalPaise / 100).toFixed(2), "2026-08-05", "UTRCLOSE0001");
    // Written off at 181 days past due; a recovery on the other, then settled.
    const due = (await instalmentOf(app, loans.writtenOff.id, 1)).dueDate;
    at(addDays(due, 181));
    await freshSessions();
    for (const loan of [loans.writtenOff, loans.settled]) {
      const res = await postForm(
        app,
        `/admin/loans/${loan.loanNumber}`,
        { intent: "write_off", reason: "No contact for six months" },
        { cookie: admin.cookie },
      );
      expect(toastOf(res)).toContain("Written off");
    }
    at(addDays(due, 182));
    await recordPayment(loans.settled, "20000.00", addDays(due, 182), "UTRRECOVER01");
    const settle = await postForm(
      app,
      `/admin/loans/${loans.settled.loanNumber}`,
      { intent: "settle_written_off", reason: "One-time settlement agreed with the borrower" },
      { cookie: admin.cookie },
    );
    expect(toastOf(settle)).toContain("accepted as full and final");
    // Cancelled after disbursal, within the cooling-off period; and an application cancelled before.
    loans.cancelledAfter = await newLoan("2026-08-10");
    at("2026-08-11");
    const exit = await postForm(
      app,
      `/User/Loans/Emi/${loans.cancelledAfter.loanNumber}`,
      { intent: "pay", choice: "cooling_off" },
      { cookie: await freshCookie(loans.cancelledAfter.userId) },
    );
    expect(exit.status).toBe(302);
    const checkout = exit.headers.get("location") ?? "";
    const done = await postForm(app, checkout, { outcome: "pay" });
    const back = new URL(done.headers.get("location") ?? "");
    expect((await app.get(`${back.pathname}${back.search}`)).status).toBe(302);
    const signed = await signedApplication(app, mobileOf());
    const cancel = await postForm(app, `/User/newLoan/Emi/${signed.ref}/Step7`, { intent: "cancel" }, { cookie: signed.cookie });
    expect(cancel.status).toBe(302);
    cancelledBefore = { id: signed.id, ref: signed.ref };
    const statuses = await app.services.db.select({ id: loanApplications.id, status: loanApplications.status }).from(loanApplications);
    const statusOf = (id: string) => statuses.find((s) => s.id === id)?.status;
    expect(statusOf(loans.closed.id)).toBe("closed");
    expect(statusOf(loans.writtenOff.id)).toBe("written_off");
    expect(statusOf(loans.cancelledAfter.id)).toBe("cancelled");
    expect(statusOf(cancelledBefore.id)).toBe("cancelled");
    // The day's run on the reporting date: days past due cached, the NPA flagged.
    at(AS_OF, "00:30");
    await runServicingDay(app.services, AS_OF);
    await runBooksDay(app.services, AS_OF);
  }, 300_000);

  it("makes each bureau's file as at the reporting date: every loan in its state, read back field by field against the decision record", async () => {
    at("2026-08-16", "09:00");
    await freshSessions();
    // The closed loan's borrower has no gender on file: that record is held back, listed with why.
    await setGender(loans.closed!.userId, null);
    // Finance makes the date's four files from the page (the daily run would have, the day after the date).
    const made = await postForm(app, "/admin/bureau", { intent: "make", asOf: AS_OF }, { cookie: finance.cookie });
    expect(toastOf(made)).toContain("Made 4 files as at 15 Aug 2026: 8 accounts each, 4 records held back (see each file)");
    const again = await postForm(app, "/admin/bureau", { intent: "make", asOf: AS_OF }, { cookie: finance.cookie });
    expect(toastOf(again)).toContain("were made already");
    const runs = await app.services.db.select().from(bureauRuns).where(eq(bureauRuns.asOf, AS_OF));
    expect(runs.map((r) => r.bureau).sort()).toEqual(["cibil", "crif", "equifax", "experian"]);
    const expected = Object.fromEntries(Object.values(loans).map((l) => [l.loanNumber, l]));
    const ddmmyyyy = (d: string) => `${d.slice(8)}${d.slice(5, 7)}${d.slice(0, 4)}`;
    const dueOf = async (loan: Loan) => (await instalmentOf(app, loan.id, 1)).dueDate as IsoDate;
    for (const run of runs) {
      expect(run).toMatchObject({ kind: "regular", accounts: 8, heldBack: 1, delinquent: 6 });
      const text = await fileOf(run.id);
      expect(text.startsWith(`TUDF12${app.config.bureau.memberIds[run.bureau as "cibil"]}`)).toBe(true);
      const accounts = accountsOf(text);
      expect([...accounts.keys()].sort()).toEqual(
        Object.keys(expected)
          .filter((n) => n !== loans.closed!.loanNumber)
          .sort(),
      );
      for (const [number, record] of accounts) {
        // Every mandatory field of every segment present, within its length.
        for (const segment of record.segments) {
          for (const rule of FIELD_RULES.filter((r) => r.segment === segment.tag)) {
            const value = segment.fields[rule.field];
            if (rule.mandatory) expect(value, `${number} ${segment.tag} ${rule.field}`).toBeDefined();
            if (value !== undefined) expect(value.length, `${number} ${segment.tag} ${rule.field}`).toBeLessThanOrEqual(rule.maxLength);
            if (value !== undefined && rule.codes) expect(rule.codes, `${number} ${segment.tag} ${rule.field}`).toContain(value);
          }
        }
        const tags = record.segments.map((g) => g.tag);
        expect(tags.slice(0, 3)).toEqual(["PN", "ID", "PT"]);
        expect(tags.slice(-2)).toEqual(["TL", "ES"]);
        const tl = record.segments.find((g) => g.tag === "TL")?.fields ?? {};
        const loan = expected[number] as Loan;
        expect(tl).toMatchObject({
          "03": number,
          "04": "05",
          "05": "1",
          "08": ddmmyyyy(loan.disbursalDate),
          "11": "15082026",
          "12": "100000",
        });
      }
      const tl = (loan: Loan) => accounts.get(loan.loanNumber)?.segments.find((g) => g.tag === "TL")?.fields ?? {};
      // Current: nothing overdue, the whole principal outstanding, standard.
      expect(tl(loans.current!)).toMatchObject({ "13": "100000", "14": "0", "15": "0", "26": "01" });
      expect(tl(loans.current!)["10"]).toBeUndefined();
      // Each bucket: the days since the first unpaid instalment's due date; NPA's asset class sub-standard.
      for (const [key, cls] of [
        ["sma0", "01"],
        ["sma1", "01"],
        ["sma2", "01"],
        ["npa", "02"],
      ] as const) {
        const dpd = daysBetween(await dueOf(loans[key]!), AS_OF);
        expect(tl(loans[key]!), key).toMatchObject({ "15": String(dpd), "26": cls });
        expect(Number(tl(loans[key]!)["14"]), key).toBeGreaterThan(0);
      }
      expect(daysBetween(await dueOf(loans.sma0!), AS_OF)).toBeLessThanOrEqual(30);
      expect(daysBetween(await dueOf(loans.sma1!), AS_OF)).toBeGreaterThan(30);
      expect(daysBetween(await dueOf(loans.sma2!), AS_OF)).toBeGreaterThan(60);
      expect(daysBetween(await dueOf(loans.npa!), AS_OF)).toBeGreaterThan(90);
      // Written off: status 02, the principal written off, a loss asset; settled after write-off: 04 with the amount.
      expect(tl(loans.writtenOff!)).toMatchObject({ "22": "02", "42": "100000", "26": "04" });
      expect(Number(tl(loans.writtenOff!)["41"])).toBeGreaterThan(100000);
      expect(tl(loans.settled!)).toMatchObject({ "22": "04", "43": "20000", "45": "20000", "26": "04" });
      expect(tl(loans.settled!)["10"]).toBeDefined();
      // Cancelled after disbursal: reported as closed on the day it ended, nothing owed.
      expect(tl(loans.cancelledAfter!)).toMatchObject({ "10": "11082026", "13": "0", "15": "0" });
      // The balance and the overdue of a loan two instalments behind, from its schedule and charges.
      const [balance, overdue] = await owedOn(loans.sma1!, AS_OF);
      expect(tl(loans.sma1!)).toMatchObject({ "13": String(balance), "14": String(overdue) });
    }
    // Cancelled before its disbursal: never reported.
    const before = await app.services.db.select().from(bureauRecords).where(eq(bureauRecords.applicationId, cancelledBefore.id));
    expect(before).toEqual([]);
    // The runs page lists the date's files with their counts; the file's page says why a record was held back.
    const page = await pageText("/admin/bureau");
    expect(page).toContain("8 accounts");
    const runPage = await pageText(`/admin/bureau/runs/${runs[0]?.id}`);
    expect(runPage).toContain("Held back");
    expect(runPage).toMatch(/PN 08: [^<]*gender/i);
    expect(page).toContain("Credit bureau reporting");
  });

  it("tells each borrower whose days past due or default was reported, once per reporting date, by SMS and e-mail", async () => {
    const alerts = await app.services.db.select().from(bureauAlerts).where(eq(bureauAlerts.asOf, AS_OF));
    const told = [loans.sma0, loans.sma1, loans.sma2, loans.npa, loans.writtenOff, loans.settled].map((l) => l!.id).sort();
    expect(alerts.map((a) => a.applicationId).sort()).toEqual(told);
    const notes = await app.services.db.select().from(notifications).where(eq(notifications.event, "bureau_reported"));
    expect(notes).toHaveLength(6);
    await waitForJobs(app, "notify");
    const sms = readOutbox(app.dataDir).filter((m) => m.to === loans.sma1!.mobile && m.text.includes("credit bureaus"));
    expect(sms).toHaveLength(1);
    const dpd = daysBetween((await instalmentOf(app, loans.sma1!.id, 1)).dueDate as IsoDate, AS_OF);
    expect(sms[0]?.text).toContain(
      `as at 15 Aug 2026 we reported loan ${loans.sma1!.loanNumber} to the credit bureaus as ${dpd} days past due`,
    );
    const woSms = readOutbox(app.dataDir).filter((m) => m.to === loans.settled!.mobile && m.text.includes("credit bureaus"));
    expect(woSms.map((m) => m.text)).toEqual([expect.stringContaining("as settled after write-off")]);
    expect(readOutbox(app.dataDir).filter((m) => m.to === loans.current!.mobile && m.text.includes("credit bureaus"))).toEqual([]);
  });

  it("imports a bureau's rejection, lists it due in 7 days, and sends the record again in a correction file", async () => {
    const [cibil] = await app.services.db
      .select()
      .from(bureauRuns)
      .where(and(eq(bureauRuns.asOf, AS_OF), eq(bureauRuns.bureau, "cibil"), eq(bureauRuns.kind, "regular")));
    if (!cibil) throw new Error("no CIBIL file");
    const path = `/admin/bureau/runs/${cibil.id}`;
    const upload = (name: string, csv: string, cookie = finance.cookie) => uploadRejections(path, name, csv, cookie);
    // A row naming an account the file does not hold: nothing is imported.
    const wrong = await upload(
      "wrong.csv",
      rejectionCsv([{ accountNumber: "SL99999999", segment: "TL", field: "13", code: "E101", message: "Invalid balance" }]),
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("account SL99999999 is not in");
    // Only finance and administrators import.
    expect((await upload("x.csv", "x", ops.cookie)).status).toBe(403);
    const csv = rejectionCsv([
      { accountNumber: loans.sma1!.loanNumber, segment: "PA", field: "07", code: "E215", message: "PIN code does not match the state" },
    ]);
    const done = await upload("cibil-errors.csv", csv);
    expect(toastOf(done)).toContain("Imported 1 rejected record: send them again by 23 Aug 2026");
    expect((await upload("cibil-errors.csv", csv)).status).toBe(409);
    const [pending] = await app.services.db.select().from(bureauRejections).where(isNull(bureauRejections.resentRunId));
    expect(pending).toMatchObject({ accountNumber: loans.sma1!.loanNumber, dueBy: "2026-08-23", code: "E215" });
    const overview = await pageText("/admin/bureau");
    expect(overview).toContain("PIN code does not match the state");
    expect(overview).toContain("7 days left");
    // Sent again (asked twice at once: one file): a correction file as at the same date with that record alone, read afresh.
    const both = await Promise.all([1, 2].map(() => postForm(app, "/admin/bureau", { intent: "corrections" }, { cookie: finance.cookie })));
    expect(both.map(toastOf).sort()).toEqual([
      "Made 1 correction file with 1 record sent again.",
      "No rejected record is waiting to be sent again.",
    ]);
    const [correction] = await app.services.db.select().from(bureauRuns).where(eq(bureauRuns.kind, "correction"));
    expect(correction).toMatchObject({ bureau: "cibil", asOf: AS_OF, accounts: 1 });
    const file = accountsOf(await fileOf(correction!.id));
    expect([...file.keys()]).toEqual([loans.sma1!.loanNumber]);
    const [resent] = await app.services.db.select().from(bureauRejections);
    expect(resent?.resentRunId).toBe(correction?.id);
    const runPage = await pageText(path);
    expect(runPage).toContain(`In ${correction?.fileName}`);
    // The correction told no borrower again.
    expect(await app.services.db.select().from(notifications).where(eq(notifications.event, "bureau_reported"))).toHaveLength(6);
  });

  it("the daily run makes the next date's files (a record held back before carried forward), tells the borrowers again, and sends nearly due corrections by itself", async () => {
    // Two rejections of the CIBIL file left alone by finance; one of them still fails the rules.
    const [cibil] = await app.services.db
      .select()
      .from(bureauRuns)
      .where(and(eq(bureauRuns.asOf, AS_OF), eq(bureauRuns.bureau, "cibil"), eq(bureauRuns.kind, "regular")));
    const csv = rejectionCsv([
      { accountNumber: loans.npa!.loanNumber, segment: "PN", field: "07", code: "E110", message: "Date of birth not valid" },
      { accountNumber: loans.sma2!.loanNumber, segment: "PA", field: "06", code: "E120", message: "State code not valid" },
    ]);
    const res = await uploadRejections(`/admin/bureau/runs/${cibil!.id}`, "late.csv", csv, finance.cookie);
    expect(res.status).toBe(302);
    await setGender(loans.npa!.userId, null);
    // The closed loan's borrower corrected: the loan, never reported closed, goes in the next file.
    await setGender(loans.closed!.userId, "female");
    const day = "2026-09-01";
    at(day, "00:30");
    await runServicingDay(app.services, day);
    expect(await runBureauDay(app.services, day)).toEqual({ files: 4, corrections: 1, stuck: 0 });
    const dated = await app.services.db
      .select()
      .from(bureauRuns)
      .where(and(eq(bureauRuns.asOf, "2026-08-31"), eq(bureauRuns.kind, "regular")));
    expect(dated).toHaveLength(4);
    // Cancelled and settled loans reported closed before: not again. The closed one is, closed.
    expect(dated[0]).toMatchObject({ accounts: 6, heldBack: 1 });
    const file = accountsOf(await fileOf(dated[0]!.id));
    const closedTl = file.get(loans.closed!.loanNumber)?.segments.find((g) => g.tag === "TL")?.fields;
    expect(closedTl).toMatchObject({ "10": "05082026", "13": "0", "14": "0", "15": "0", "09": "05082026" });
    expect(file.has(loans.cancelledAfter!.loanNumber)).toBe(false);
    expect(file.has(loans.settled!.loanNumber)).toBe(false);
    // Told again for the new date: each loan still past due and reported, and the one written off.
    const alerts = await app.services.db.select().from(bureauAlerts).where(eq(bureauAlerts.asOf, "2026-08-31"));
    const told = [loans.sma0, loans.sma1, loans.sma2, loans.writtenOff].map((l) => l!.id).sort();
    expect(alerts.map((a) => a.applicationId).sort()).toEqual(told);
    // The record still failing stays waiting, no empty correction file made; the other was sent.
    const rejections = await app.services.db.select().from(bureauRejections).where(eq(bureauRejections.runId, cibil!.id));
    const waiting = rejections.filter((r) => !r.resentRunId).map((r) => r.accountNumber);
    expect(waiting).toEqual([loans.npa!.loanNumber]);
    const corrections = await app.services.db.select().from(bureauRuns).where(eq(bureauRuns.kind, "correction"));
    expect(corrections).toHaveLength(2);
    expect(corrections.every((c) => c.accounts > 0)).toBe(true);
    // The same day again: no file; the record still failing is reported stuck, not sent in an empty file.
    expect(await runBureauDay(app.services, day)).toEqual({ files: 0, corrections: 0, stuck: 1 });
  });
});
