import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indiaTime, longDate } from "../../app/domain/india-date.ts";
import { addDays, type IsoDate } from "../../app/domain/loan-math.ts";
import {
  auditLog,
  collectionCases,
  collectionTasks,
  dunningSends,
  loanAccounts,
  notifications,
  promisesToPay,
  users,
} from "../../app/server/db/schema.ts";
import { runDunning } from "../../app/server/collections/dunning.server.ts";
import { runServicingDay } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, instalmentOf, signedInStaff } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import type { TestClock } from "../helpers/autopay.ts";

// The collections desk (docs/product.md "Collections"): a case from a loan's first day past due
// until it is back to 0, reminders by the dunning rules (once each, one a day, 08:00–19:00, never
// while paused or while a promise is open), call tasks in a named staff member's name, promises
// kept or broken from the ledger.
const clock: TestClock = { now: new Date("2026-03-02T05:30:00Z") };
let app: TestServer;
let credit: { cookie: string };
let ops: { cookie: string; id?: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
});
afterAll(async () => {
  await app?.stop();
});

let serial = 0;
async function overdueLoan() {
  clock.now = new Date("2026-03-02T05:30:00Z");
  const loan = await activeLoan(app, `97500${String(++serial).padStart(5, "0")}`, credit, ops);
  const first = await instalmentOf(app, loan.id, 1);
  return { ...loan, first, emi: first.principalPaise + first.interestPaise, path: `/User/Loans/Emi/${loan.loanNumber}` };
}
/** The daily job on `day` at 00:30 India time: servicing, then dunning. */
async function day(d: IsoDate) {
  clock.now = indiaTime(d, "00:30");
  await runServicingDay(app.services, d);
  const done = await runDunning(app.services, { day: d });
  // The reminders go out (at 08:00) before anyone acts on the case that day.
  await waitForJobs(app, ["notify"]);
  return done;
}
const caseOf = async (applicationId: string) =>
  app.services.db
    .select()
    .from(collectionCases)
    .where(eq(collectionCases.applicationId, applicationId))
    .orderBy(asc(collectionCases.openedOn));
const sendsOf = async (caseId: string) =>
  app.services.db.select().from(dunningSends).where(eq(dunningSends.caseId, caseId)).orderBy(asc(dunningSends.stepDpd));
const act = (loanNumber: string, fields: Record<string, string>) =>
  postForm(app, `/admin/loans/${loanNumber}`, fields, { cookie: ops.cookie });

describe("a collections case", () => {
  it("opens on the first day past due, sends each step once, one a day, in the daytime, and closes when paid", async () => {
    const loan = await overdueLoan();
    await day(loan.first.dueDate);
    expect(await caseOf(loan.id)).toEqual([]);
    const d1 = addDays(loan.first.dueDate, 1);
    await day(d1);
    const [opened] = await caseOf(loan.id);
    expect(opened).toMatchObject({ openedOn: d1, closedOn: null, priority: "normal" });
    const [first] = await sendsOf(opened?.id ?? "");
    expect(first).toMatchObject({ stepDpd: 1, sentOn: d1, channels: ["sms", "push"], tone: "gentle" });
    const [notice] = await app.services.db
      .select()
      .from(notifications)
      .where(eq(notifications.id, first?.notificationId ?? ""));
    // Made at 00:30, it goes out at 08:00; it names the loan, the amount, how to pay and how to complain.
    expect(notice?.availableAt.toISOString()).toBe(indiaTime(d1, "08:00").toISOString());
    expect(notice?.channels).toEqual(["sms", "push"]);
    expect(notice?.sms).toContain(loan.loanNumber);
    expect(notice?.sms).toContain(`/User/Loans/Emi/${loan.loanNumber}`);
    expect(notice?.sms).toMatch(/Complaints: /);
    expect(notice?.body).toContain("/grievance-policy");
    // Again the same day: nothing twice.
    await runDunning(app.services, { day: d1 });
    expect(await sendsOf(opened?.id ?? "")).toHaveLength(1);
    // Day 2: no step; day 3: the SMS.
    await day(addDays(loan.first.dueDate, 2));
    expect(await sendsOf(opened?.id ?? "")).toHaveLength(1);
    await day(addDays(loan.first.dueDate, 3));
    expect((await sendsOf(opened?.id ?? "")).map((s) => s.stepDpd)).toEqual([1, 3]);
    // Paid by bank transfer: back to 0 days past due, the case closes as cured.
    clock.now = indiaTime(addDays(loan.first.dueDate, 4), "11:00");
    const [acct] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, loan.id));
    const paid = await act(loan.loanNumber, {
      intent: "record_payment",
      amount: (((acct?.overduePaise ?? 0) + (acct?.penalDuePaise ?? 0)) / 100).toFixed(2),
      mode: "NEFT",
      reference: `UTRCOL${serial}`,
      date: addDays(loan.first.dueDate, 4),
    });
    expect(paid.status).toBe(302);
    const [closed] = await caseOf(loan.id);
    expect(closed).toMatchObject({ closedOn: addDays(loan.first.dueDate, 4), closedReason: "cured" });
  });

  it("is paused with a reason and sends nothing until resumed; a call task names its staff member", async () => {
    const loan = await overdueLoan();
    await day(addDays(loan.first.dueDate, 1));
    clock.now = indiaTime(addDays(loan.first.dueDate, 1), "10:00");
    const paused = await act(loan.loanNumber, { intent: "pause_dunning", kind: "hardship", reason: "Lost his job last month" });
    expect(toastOf(paused)).toContain("paused");
    for (let k = 2; k <= 8; k++) await day(addDays(loan.first.dueDate, k));
    const [c] = await caseOf(loan.id);
    expect((await sendsOf(c?.id ?? "")).map((s) => s.stepDpd)).toEqual([1]);
    clock.now = indiaTime(addDays(loan.first.dueDate, 8), "10:00");
    expect(toastOf(await act(loan.loanNumber, { intent: "resume_dunning" }))).toContain("resume");
    await day(addDays(loan.first.dueDate, 9));
    // Steps 3 and 7 were missed while paused: only the latest reached (7) is sent, never a burst.
    expect((await sendsOf(c?.id ?? "")).map((s) => s.stepDpd)).toEqual([1, 7]);
    const [task] = await app.services.db
      .select()
      .from(collectionTasks)
      .where(eq(collectionTasks.caseId, c?.id ?? ""));
    expect(task).toMatchObject({ status: "open", stepDpd: 7 });
    expect(task?.assigneeUserId).toBeTruthy();
    const page = await (await app.get(`/admin/loans/${loan.loanNumber}`, { headers: { Cookie: ops.cookie } })).text();
    expect(page).toContain("Omar Shaikh");
    const audited = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, loan.id), eq(auditLog.action, "collections.paused")));
    expect(audited).toHaveLength(1);
    // The system gave the case to the staff member of the task, once, and said so in the audit log.
    const [given] = await caseOf(loan.id);
    expect(given?.assigneeUserId).toBe(task?.assigneeUserId);
    const assigned = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, loan.id), eq(auditLog.action, "collections.assigned")));
    expect(assigned.map((a) => [a.actorRole, a.details])).toEqual([
      ["system", { caseId: c?.id, assignee: task?.assigneeUserId, why: "call task" }],
    ]);
  });

  it("holds reminders while a promise is open, and marks it kept or broken from the ledger", async () => {
    const loan = await overdueLoan();
    const d1 = addDays(loan.first.dueDate, 1);
    await day(d1);
    clock.now = indiaTime(d1, "12:00");
    const promised = await act(loan.loanNumber, { intent: "promise", amount: "1000", dueOn: addDays(d1, 2) });
    expect(toastOf(promised)).toContain("Promise");
    await day(addDays(loan.first.dueDate, 3));
    const [c] = await caseOf(loan.id);
    expect((await sendsOf(c?.id ?? "")).map((s) => s.stepDpd)).toEqual([1]);
    // Its date passed without the money: broken, and the case's priority rises.
    await day(addDays(d1, 3));
    const [p] = await app.services.db
      .select()
      .from(promisesToPay)
      .where(eq(promisesToPay.caseId, c?.id ?? ""));
    expect(p).toMatchObject({ status: "broken", resolvedOn: addDays(d1, 3) });
    expect((await caseOf(loan.id))[0]?.priority).toBe("high");
    // Another promise, kept by a payment dated within it.
    const d5 = addDays(d1, 4);
    clock.now = indiaTime(d5, "12:00");
    await act(loan.loanNumber, { intent: "promise", amount: "500", dueOn: addDays(d5, 1) });
    await act(loan.loanNumber, { intent: "record_payment", amount: "500.00", mode: "UPI", reference: `UTRKEPT${serial}`, date: d5 });
    const promises = await app.services.db
      .select()
      .from(promisesToPay)
      .where(eq(promisesToPay.caseId, c?.id ?? ""))
      .orderBy(asc(promisesToPay.createdAt));
    expect(promises.map((x) => x.status)).toEqual(["broken", "kept"]);
  });

  it("takes a promise from the borrower on their own overdue loan only, within 7 days and what is owed", async () => {
    const loan = await overdueLoan();
    const d1 = addDays(loan.first.dueDate, 1);
    await day(d1);
    clock.now = indiaTime(d1, "20:30");
    const page = await (await app.get(loan.path, { headers: { Cookie: loan.cookie } })).text();
    expect(page).toContain('id="promise-title"');
    const tooLate = await postForm(app, loan.path, { intent: "promise", amount: "1000", dueOn: addDays(d1, 8) }, { cookie: loan.cookie });
    expect(tooLate.status).toBe(400);
    expect(await tooLate.text()).toContain(`Choose a date from today to 7 days ahead (${longDate(d1)} to ${longDate(addDays(d1, 7))}).`);
    const tooMuch = await postForm(
      app,
      loan.path,
      { intent: "promise", amount: "5000000", dueOn: addDays(d1, 2) },
      { cookie: loan.cookie },
    );
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.text()).toContain("more than you owe");
    // Another borrower, on this loan's page: nothing of it.
    const other = await overdueLoan();
    clock.now = indiaTime(d1, "20:30");
    const theirs = await postForm(app, loan.path, { intent: "promise", amount: "1000", dueOn: addDays(d1, 2) }, { cookie: other.cookie });
    expect(theirs.status).toBe(404);
    clock.now = indiaTime(d1, "20:30");
    const made = await postForm(app, loan.path, { intent: "promise", amount: "1,000", dueOn: addDays(d1, 2) }, { cookie: loan.cookie });
    expect(made.status).toBe(302);
    expect(toastOf(made)).toContain("We will not send you reminders");
    const [c] = await caseOf(loan.id);
    const [p] = await app.services.db
      .select()
      .from(promisesToPay)
      .where(eq(promisesToPay.caseId, c?.id ?? ""));
    expect(p).toMatchObject({ amountPaise: 1000_00, dueOn: addDays(d1, 2), status: "open", staffUserId: null });
    const after = (await (await app.get(loan.path, { headers: { Cookie: loan.cookie } })).text()).replaceAll("<!-- -->", "");
    expect(after).toContain("You promised to pay ₹1,000 by");
    // While it is open the borrower keeps to it (staff may replace it after a call).
    const again = await postForm(app, loan.path, { intent: "promise", amount: "1", dueOn: addDays(d1, 7) }, { cookie: loan.cookie });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("You have a promise open already");
    const audited = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, loan.id), eq(auditLog.action, "collections.promise")));
    expect(audited).toEqual([expect.objectContaining({ actorRole: "borrower", actorUserId: loan.userId })]);
  });

  it("refuses a call to the borrower outside 08:00-19:00, logs one from them, and is given only to staff who work cases", async () => {
    const loan = await overdueLoan();
    const d1 = addDays(loan.first.dueDate, 1);
    await day(d1);
    clock.now = indiaTime(d1, "19:30");
    const late = await act(loan.loanNumber, { intent: "note", channel: "call_out", outcome: "no_answer", note: "Rang, no answer" });
    expect(toastOf(late)).toContain("only between 08:00 and 19:00");
    const inbound = await act(loan.loanNumber, { intent: "note", channel: "call_in", outcome: "promised", note: "Called us back" });
    expect(toastOf(inbound)).toBe("Contact saved.");
    // Given to credit (not a case worker): refused; to operations: done and audited, its open tasks follow.
    const rows = await app.services.db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(inArray(users.role, ["credit", "operations"]));
    const creditId = rows.find((r) => r.role === "credit")?.id ?? "";
    const opsId = rows.find((r) => r.role === "operations")?.id ?? "";
    expect(toastOf(await act(loan.loanNumber, { intent: "assign_case", assignee: creditId }))).toContain("only to an active operations");
    expect(toastOf(await act(loan.loanNumber, { intent: "assign_case", assignee: opsId }))).toContain("The case is now");
    const [c] = await caseOf(loan.id);
    expect(c?.assigneeUserId).toBe(opsId);
    const queue = (await (await app.get("/admin/collections?bucket=SMA-0&who=me", { headers: { Cookie: ops.cookie } })).text()).replaceAll(
      "<!-- -->",
      "",
    );
    expect(queue).toContain(loan.loanNumber);
    const nobody = await (await app.get("/admin/collections?bucket=SMA-0&who=unassigned", { headers: { Cookie: ops.cookie } })).text();
    expect(nobody).not.toContain(loan.loanNumber);
    // A borrower may not open the desk.
    expect((await app.get("/admin/collections", { headers: { Cookie: loan.cookie } })).status).not.toBe(200);
  });

  it("sends the day 30 letter as a PDF the borrower can open from the loan page, and nobody else", async () => {
    const loan = await overdueLoan();
    await day(addDays(loan.first.dueDate, 30));
    const [c] = await caseOf(loan.id);
    // Only the latest step reached is sent: the letter, by e-mail and an SMS saying so.
    const sends = await sendsOf(c?.id ?? "");
    expect(sends.map((x) => [x.stepDpd, x.tone])).toEqual([[30, "letter"]]);
    const [notice] = await app.services.db
      .select()
      .from(notifications)
      .where(eq(notifications.id, sends[0]?.notificationId ?? ""));
    expect(notice).toMatchObject({
      event: "dunning_letter",
      attachments: [{ kind: "reminder_letter", loanNumber: loan.loanNumber, sendId: sends[0]?.id }],
    });
    expect(notice?.channels?.sort()).toEqual(["email", "sms"]);
    clock.now = indiaTime(addDays(loan.first.dueDate, 30), "10:00");
    const page = (await (await app.get(loan.path, { headers: { Cookie: loan.cookie } })).text()).replaceAll("&amp;", "&");
    const href = `/User/Loans/${loan.loanNumber}/reminder-letter.pdf?send=${sends[0]?.id}`;
    expect(page).toContain(href);
    const pdf = await app.get(href, { headers: { Cookie: loan.cookie } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const other = await overdueLoan();
    expect((await app.get(href, { headers: { Cookie: other.cookie } })).status).toBe(404);
  });
});
