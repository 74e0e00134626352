import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addDays } from "../../app/domain/loan-math.ts";
import { graceDate } from "../../app/domain/loans/servicing.ts";
import { auditLog, loanAccounts, loanApplications, loanInstalments, loanLedger, payments, payouts } from "../../app/server/db/schema.ts";
import { catchUpServicing } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, signedInStaff } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The staff side of servicing: the loan page, a payment received outside the gateway, a reversal
// with four eyes (reopening a loan it had closed), a penal charge waived, a held payment applied,
// the collections queue and its notes, a write-off only after 180 days past due, the refund of an
// overpayment through the payout stand-in, and the portfolio report. Every action audited.
let clock = new Date("2026-03-02T05:30:00Z");
let app: TestServer;
let credit: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
let ops2: { cookie: string; userId: string };
let support: { cookie: string; userId: string };
let admin: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }, { now: () => clock });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  ops2 = await signedInStaff(app, "operations", "Priya Nair");
  support = await signedInStaff(app, "support", "Sara Das");
  admin = await signedInStaff(app, "admin", "Anil Mehta");
});
afterAll(async () => {
  await app?.stop();
});

let serial = 0;
const newLoan = () => {
  clock = new Date("2026-03-02T05:30:00Z");
  return activeLoan(app, `97200${String(++serial).padStart(5, "0")}`, credit, ops);
};
const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");
const act = (loanNumber: string, who: { cookie: string }, fields: Record<string, string>) =>
  postForm(app, `/admin/loans/${loanNumber}`, fields, { cookie: who.cookie });
const ledger = (id: string) =>
  app.services.db.select().from(loanLedger).where(eq(loanLedger.applicationId, id)).orderBy(asc(loanLedger.recordedAt));
const statusOf = async (id: string) =>
  (await app.services.db.select().from(loanApplications).where(eq(loanApplications.id, id)))[0]?.status;
const audited = async (id: string, action: string) =>
  (
    await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, id), eq(auditLog.action, action)))
  ).length;
const payoff = async (loanNumber: string, cookie: string, on: string) =>
  ((await (await app.get(`/api/loans/${loanNumber}/payoff?on=${on}`, { headers: { Cookie: cookie } })).json()) as { totalPaise: number })
    .totalPaise;

describe("the staff loan page", () => {
  it("shows the schedule, ledger and borrower to every staff role", async () => {
    const b = await newLoan();
    for (const who of [credit, ops, support, admin]) {
      const body = await html(await app.get(`/admin/loans/${b.loanNumber}`, { headers: { Cookie: who.cookie } }));
      expect(body).toContain("Schedule");
      expect(body).toContain("disbursal");
    }
    expect((await app.get("/admin/loans/SL00000001", { headers: { Cookie: ops.cookie } })).status).toBe(404);
  });

  it("records a payment received outside the gateway, checks each field, refuses a repeated reference", async () => {
    const b = await newLoan();
    const bad = await act(b.loanNumber, ops, { intent: "record_payment", amount: "abc", date: "2026-13-01", mode: "", reference: "x" });
    expect(bad.status).toBe(400);
    const body = await html(bad);
    expect(body).toMatch(/Amount must be rupees/);
    expect(body).toMatch(/Date received must be a date/);
    expect(body).toMatch(/Choose how it was received/);
    expect(body).toMatch(/reference is missing/);
    const early = await act(b.loanNumber, ops, {
      intent: "record_payment",
      amount: "1000",
      date: "2020-01-01",
      mode: "NEFT",
      reference: "UTR000111",
    });
    expect(await html(early)).toMatch(/from the disbursal to today/);
    const ok = await act(b.loanNumber, ops, {
      intent: "record_payment",
      amount: "1,000",
      date: b.disbursalDate,
      mode: "NEFT",
      reference: "UTR000111",
    });
    expect(toastOf(ok)).toMatch(/₹1,000 recorded/);
    const again = await act(b.loanNumber, ops, {
      intent: "record_payment",
      amount: "1000",
      date: b.disbursalDate,
      mode: "NEFT",
      reference: "UTR000111",
    });
    expect(await html(again)).toMatch(/already recorded/);
    expect((await ledger(b.id)).filter((e) => e.kind === "payment")).toHaveLength(1);
    expect(await audited(b.id, "payment.recorded")).toBe(1);
  });

  it("reverses a payment only when a second person confirms; a payment that closed the loan reopens it", async () => {
    const b = await newLoan();
    const total = await payoff(b.loanNumber, b.cookie, b.disbursalDate);
    const paid = await act(b.loanNumber, ops, {
      intent: "record_payment",
      amount: (total / 100).toFixed(2),
      date: b.disbursalDate,
      mode: "cheque",
      reference: "CHQ-445566",
    });
    expect(toastOf(paid)).toMatch(/recorded/);
    expect(await statusOf(b.id)).toBe("closed");
    const [p] = await app.services.db.select().from(payments).where(eq(payments.applicationId, b.id));
    const ref = p?.reference ?? "";
    const noReason = await act(b.loanNumber, ops2, { intent: "request_reversal", payment: ref });
    expect(noReason.status).toBe(400);
    expect(toastOf(await act(b.loanNumber, ops2, { intent: "request_reversal", payment: ref, reason: "The cheque bounced" }))).toMatch(
      /second colleague/,
    );
    // The one who asked, and the one who recorded it, cannot confirm.
    expect(toastOf(await act(b.loanNumber, ops2, { intent: "confirm_reversal", payment: ref }))).toMatch(/four eyes/);
    expect(toastOf(await act(b.loanNumber, ops, { intent: "confirm_reversal", payment: ref }))).toMatch(/four eyes/);
    expect(toastOf(await act(b.loanNumber, admin, { intent: "confirm_reversal", payment: ref }))).toMatch(/reversed/);
    expect(await statusOf(b.id)).toBe("active");
    const kinds = (await ledger(b.id)).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(["payment", "closure", "payment_reversal", "reopening"]));
    await vi.waitFor(() => expect(readOutbox(app.dataDir).some((m) => m.to === b.mobile && m.text.includes("open again"))).toBe(true), {
      timeout: 10_000,
    });
    expect(await audited(b.id, "payment.reversed")).toBe(1);
    // The borrower's closure letter is withdrawn.
    expect((await app.get(`/User/Loans/${b.loanNumber}/no-dues.pdf`, { headers: { Cookie: b.cookie } })).status).toBe(404);
  });

  it("waives a penal charge with a reason; the borrower sees it waived", async () => {
    const b = await newLoan();
    const [first] = await app.services.db
      .select()
      .from(loanInstalments)
      .where(and(eq(loanInstalments.applicationId, b.id), eq(loanInstalments.seq, 1)));
    clock = new Date(`${addDays(graceDate(first?.dueDate ?? "", app.services.config.holidays), 2)}T02:00:00Z`);
    await catchUpServicing(app.services);
    const [penal] = (await ledger(b.id)).filter((e) => e.kind === "penal");
    expect(penal).toBeDefined();
    const short = await act(b.loanNumber, ops, { intent: "waive", penal: penal?.id ?? "", reason: "x" });
    expect(await html(short)).toMatch(/reason in a few words/);
    expect(
      toastOf(await act(b.loanNumber, ops, { intent: "waive", penal: penal?.id ?? "", reason: "Hospitalised, documents seen" })),
    ).toMatch(/waived/);
    expect(
      toastOf(await act(b.loanNumber, ops, { intent: "waive", penal: penal?.id ?? "", reason: "Hospitalised, documents seen" })),
    ).toMatch(/already waived/);
    const [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, b.id));
    expect(account?.penalDuePaise).toBe(0);
    expect(await audited(b.id, "penal.waived")).toBe(1);
  });

  it("lists loans past due by bucket with the latest contact note; support may add notes", async () => {
    const b = await newLoan();
    const [first] = await app.services.db
      .select()
      .from(loanInstalments)
      .where(and(eq(loanInstalments.applicationId, b.id), eq(loanInstalments.seq, 1)));
    clock = new Date(`${addDays(first?.dueDate ?? "", 10)}T02:00:00Z`);
    await catchUpServicing(app.services);
    const queue = await html(await app.get("/admin/collections?bucket=SMA-0", { headers: { Cookie: support.cookie } }));
    expect(queue).toContain(b.loanNumber);
    const bad = await act(b.loanNumber, support, { intent: "note", outcome: "", note: "" });
    expect(await html(bad)).toMatch(/Choose what came of the contact/);
    expect(
      toastOf(
        await act(b.loanNumber, support, {
          intent: "note",
          channel: "call_in",
          outcome: "promised",
          note: "Will pay on Friday",
          followUpOn: addDays(first?.dueDate ?? "", 14),
        }),
      ),
    ).toMatch(/Contact saved/);
    const after = await html(await app.get("/admin/collections?bucket=SMA-0", { headers: { Cookie: support.cookie } }));
    expect(after).toContain("Promised to pay");
    expect(
      (
        await act(b.loanNumber, support, {
          intent: "record_payment",
          amount: "1",
          date: b.disbursalDate,
          mode: "NEFT",
          reference: "UTR999",
        })
      ).status,
    ).toBe(403);
  });

  it("writes a loan off only at 180 days past due, and only an administrator", async () => {
    const b = await newLoan();
    const [first] = await app.services.db
      .select()
      .from(loanInstalments)
      .where(and(eq(loanInstalments.applicationId, b.id), eq(loanInstalments.seq, 1)));
    clock = new Date(`${addDays(first?.dueDate ?? "", 100)}T02:00:00Z`);
    expect(toastOf(await act(b.loanNumber, admin, { intent: "write_off", reason: "Borrower cannot be traced" }))).toMatch(/180 days/);
    expect((await act(b.loanNumber, ops, { intent: "write_off", reason: "Borrower cannot be traced" })).status).toBe(403);
    clock = new Date(`${addDays(first?.dueDate ?? "", 181)}T02:00:00Z`);
    expect(toastOf(await act(b.loanNumber, admin, { intent: "write_off", reason: "Borrower cannot be traced" }))).toMatch(/Written off/);
    expect(await statusOf(b.id)).toBe("written_off");
    expect((await ledger(b.id)).some((e) => e.kind === "write_off")).toBe(true);
  });

  it("holds a payment whose amount differs, applies it when staff release it, and refunds an overpayment through the payout interface", async () => {
    const b = await newLoan();
    const total = await payoff(b.loanNumber, b.cookie, b.disbursalDate);
    // Paid ₹1,000 more than closes the loan: closed, and ₹1,000 owed back.
    const paid = await act(b.loanNumber, ops, {
      intent: "record_payment",
      amount: ((total + 1000_00) / 100).toFixed(2),
      date: b.disbursalDate,
      mode: "IMPS",
      reference: "IMPS778899",
    });
    expect(toastOf(paid)).toMatch(/recorded/);
    expect(await statusOf(b.id)).toBe("closed");
    const [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, b.id));
    expect(account?.refundDuePaise).toBe(1000_00);
    // The one who recorded the money cannot send it out again (four eyes); a colleague can, once.
    expect(toastOf(await act(b.loanNumber, ops, { intent: "refund" }))).toMatch(/a colleague must send its refund/);
    expect(toastOf(await act(b.loanNumber, ops2, { intent: "refund" }))).toMatch(/Refund of ₹1,000 to/);
    expect(toastOf(await act(b.loanNumber, ops2, { intent: "refund" }))).toMatch(/on its way|Nothing is owed/);
    await vi.waitFor(
      async () => {
        const [r] = await app.services.db
          .select()
          .from(payouts)
          .where(and(eq(payouts.applicationId, b.id), eq(payouts.purpose, "refund")));
        expect(r?.status).toBe("processed");
      },
      { timeout: 20_000, interval: 250 },
    );
    const refunded = (await ledger(b.id)).filter((e) => e.kind === "refund");
    expect(refunded.map((e) => e.amountPaise)).toEqual([1000_00]);
    const [after] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, b.id));
    expect(after?.refundDuePaise).toBe(0);
    await vi.waitFor(() => expect(readOutbox(app.dataDir).some((m) => m.to === b.mobile && m.text.includes("refunded"))).toBe(true), {
      timeout: 10_000,
    });
    // The borrower's own page of the loan was not disturbed by the refund payout.
    expect((await app.get(`/User/Loans/Emi/${b.loanNumber}`, { headers: { Cookie: b.cookie } })).status).toBe(200);
  });

  it("shows the portfolio with its buckets on the reports page", async () => {
    await newLoan();
    const body = await html(await app.get("/admin/reports", { headers: { Cookie: support.cookie } }));
    expect(body).toContain("Portfolio");
    expect(body).toMatch(/Outstanding now/);
    expect(body).toMatch(/Principal outstanding by days past due/);
  });
});
