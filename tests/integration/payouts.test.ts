import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  auditLog,
  loanApplications,
  loanInstalments,
  loanLedger,
  loanSignatures,
  payouts,
  revisedKfs,
} from "../../app/server/db/schema.ts";
import { addMonths } from "../../app/domain/loan-math.ts";
import { approvedApplication, signedInStaff } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { shownMarkup } from "../helpers/english.ts";

// Disbursal through the local payout stand-in (settles after a second here): four eyes, the
// account checks, one payout however often it is asked for, failure and retry, a payout in flight
// that the borrower cannot cancel, and one stuck at the provider.
let app: TestServer;
let credit: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
let ops2: { cookie: string; userId: string };
let admin: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "1" });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  ops2 = await signedInStaff(app, "operations", "Priya Nair");
  admin = await signedInStaff(app, "admin", "Anil Mehta");
});
afterAll(async () => {
  await app?.stop();
});

let serial = 0;
const approved = (accountNumber = "50100012345678", officer = credit) => {
  serial++;
  return approvedApplication(app, `96000${String(serial).padStart(5, "0")}`, officer, { accountNumber });
};
const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");
const act = (ref: string, cookie: string, fields: Record<string, string>) =>
  postForm(app, `/admin/applications/${ref}`, fields, { cookie });
const row = async (ref: string) =>
  (
    await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref))
  )[0] as typeof loanApplications.$inferSelect;
const payoutsOf = (id: string) => app.services.db.select().from(payouts).where(eq(payouts.applicationId, id)).orderBy(asc(payouts.attempt));
const settled = (id: string, attempts = 1) =>
  vi.waitFor(
    async () => {
      const rows = await payoutsOf(id);
      if (rows.length !== attempts || rows.some((p) => p.status === "requested")) throw new Error("still waiting for the provider");
      return rows;
    },
    { timeout: 20_000, interval: 250 },
  );
const actions = async (id: string) =>
  (
    await app.services.db
      .select({ action: auditLog.action, role: auditLog.actorRole, actor: auditLog.actorUserId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "loan_application"), eq(auditLog.subjectId, id)))
      .orderBy(asc(auditLog.id))
  ).map((a) => ({ ...a, to: (a.details as { to?: string }).to }));

describe("disbursal through the local stand-in", () => {
  it("pays nothing on one click: the amount and the account are confirmed first, and the server requires it", async () => {
    const b = await approved();
    const res = await act(b.ref, ops.cookie, { intent: "disburse" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/admin/applications/${b.ref}?disburse=confirm#disbursal-title`);
    expect(toastOf(res)).toMatch(/Nothing was sent/);
    expect(await payoutsOf(b.id)).toEqual([]);
    // The confirmation step (the page without JavaScript) names the net amount, the masked account and the bank.
    const step = await html(await app.get(`/admin/applications/${b.ref}?disburse=confirm`, { headers: { Cookie: ops.cookie } }));
    expect(step).toContain("Confirm the payout");
    expect(step).toMatch(/Yes, pay ₹9\d,\d{3}/);
    expect(step).toContain("XXXXXXXXXX5678");
    expect(step).toContain('name="confirm" value="yes"');
    // Only that form's confirmation sends the money.
    expect(toastOf(await act(b.ref, ops.cookie, { intent: "disburse", confirm: "yes" }))).toMatch(/Payout requested/);
    expect(await payoutsOf(b.id)).toHaveLength(1);
  });

  it("sends the net amount, makes the loan active on the bank's confirmation, and tells the borrower", async () => {
    const b = await approved();
    const before = await html(await app.get(`/admin/applications/${b.ref}`, { headers: { Cookie: ops.cookie } }));
    expect(before).toMatch(/Disburse ₹9\d,\d{3}/);

    const res = await act(b.ref, ops.cookie, { intent: "disburse", confirm: "yes" });
    expect(toastOf(res)).toMatch(/Payout requested/);
    const [requested] = await payoutsOf(b.id);
    expect(requested).toMatchObject({ status: "requested", attempt: 1, provider: "local", accountMasked: "XXXXXXXXXX5678" });
    // Until the bank confirms, the loan is not active.
    expect((await row(b.ref)).status).toBe("approved");

    const [paid] = await settled(b.id);
    expect(paid?.status).toBe("processed");
    expect(paid?.utr).toMatch(/^\d{12}$/);
    const a = await row(b.ref);
    expect(a.status).toBe("active");
    expect(a.loanNumber).toMatch(/^SL\d{8}$/);
    expect(a.disbursalDate).toBe(new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10));

    // The schedule runs from the actual date: 12 instalments, the first a month later.
    const schedule = await app.services.db
      .select()
      .from(loanInstalments)
      .where(eq(loanInstalments.applicationId, b.id))
      .orderBy(asc(loanInstalments.seq));
    expect(schedule).toHaveLength(12);
    expect(schedule[0]?.dueDate).toBe(addMonths(a.disbursalDate ?? "", 1));
    expect(schedule.reduce((sum, i) => sum + i.principalPaise, 0)).toBe(a.amountPaise);
    const ledger = await app.services.db.select().from(loanLedger).where(eq(loanLedger.applicationId, b.id));
    expect(ledger).toMatchObject([{ kind: "disbursal", principalPaise: a.amountPaise, businessDate: a.disbursalDate }]);
    const upfront = (ledger[0]?.details as { upfrontChargesPaise?: number } | undefined)?.upfrontChargesPaise ?? -1;
    expect(paid?.amountPaise).toBe((a.amountPaise ?? 0) - upfront);

    // Signed today with disbursal assumed on the next working day: paid today, the dates moved, so a revised KFS.
    const [revised] = await app.services.db.select().from(revisedKfs).where(eq(revisedKfs.applicationId, b.id));
    expect(revised?.terms.title).toMatch(/^Revised Key Fact Statement/);
    expect(revised?.terms.figures.firstDueDate).toBe(schedule[0]?.dueDate);

    const sms = await vi.waitFor(
      () => {
        const m = readOutbox(app.dataDir).find((s) => s.to === b.mobile && s.text.includes("UTR"));
        if (!m) throw new Error("no disbursal SMS yet");
        return m;
      },
      { timeout: 15_000 },
    );
    expect(sms.text).toContain(paid?.utr ?? "?");
    expect(sms.text).toContain(a.loanNumber ?? "?");
    expect(sms.text).toMatch(/₹9\d,\d{3}(\.\d\d)? sent to your bank account XXXXXXXXXX5678/);
    expect(sms.text).toMatch(/first instalment ₹[\d,.]+ due on \d+ \w{3} \d{4}/);

    // The borrower's dashboard and status page show it; the revised KFS downloads for them only.
    const dashboard = await html(await app.get("/User/Dashboard", { headers: { Cookie: b.cookie } }));
    expect(dashboard).toContain(a.loanNumber ?? "?");
    expect(dashboard).toContain(paid?.utr ?? "?");
    expect(dashboard).toContain("Download the revised Key Fact Statement");
    const pdf = await app.get(`/User/Loans/${a.loanNumber}/revised-kfs.pdf`, { headers: { Cookie: b.cookie } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    // The loan's own page lists both documents the disbursal notice names.
    const loanPage = await html(await app.get(`/User/Loans/Emi/${a.loanNumber}`, { headers: { Cookie: b.cookie } }));
    const [signature] = await app.services.db.select().from(loanSignatures).where(eq(loanSignatures.applicationId, b.id));
    expect(loanPage).toContain(`href="/Eagreement/${signature?.agreementRef}/pdf"`);
    expect(loanPage).toContain("Key Fact Statement and signed agreement (PDF)");
    expect(loanPage).toContain(`href="/User/Loans/${a.loanNumber}/revised-kfs.pdf"`);
    const stranger = await signedInBorrower(app, "9600099999");
    expect((await app.get(`/User/Loans/${a.loanNumber}/revised-kfs.pdf`, { headers: { Cookie: stranger.cookie } })).status).toBe(404);

    // The audit trail: who asked, the provider's answer, the status change by the system.
    const trail = await actions(b.id);
    expect(trail.filter((t) => t.action.startsWith("payout."))).toMatchObject([
      { action: "payout.requested", role: "operations", actor: ops.userId },
      { action: "payout.processed", role: "system", actor: null },
    ]);
    expect(trail.at(-1)).toMatchObject({ action: "loan.status", role: "system", to: "active" });
  });

  it("refuses the approver (four eyes) and roles that do not disburse, and sends nothing", async () => {
    const b = await approved("50100012345678", admin);
    const refused = await act(b.ref, admin.cookie, { intent: "disburse", confirm: "yes" });
    expect(toastOf(refused)).toMatch(/four eyes/);
    const page = await html(await app.get(`/admin/applications/${b.ref}`, { headers: { Cookie: admin.cookie } }));
    expect(page).toContain("another member of operations must disburse it");
    expect(page).not.toContain('data-testid="disburse"');
    expect((await act(b.ref, credit.cookie, { intent: "disburse", confirm: "yes" })).status).toBe(403);
    const support = await signedInStaff(app, "support", "Sunil Das");
    expect((await act(b.ref, support.cookie, { intent: "disburse", confirm: "yes" })).status).toBe(403);
    expect(await payoutsOf(b.id)).toHaveLength(0);
    expect((await row(b.ref)).status).toBe("approved");
  });

  it("pays once however many times it is asked, by however many people", async () => {
    const b = await approved();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => act(b.ref, i % 2 ? ops.cookie : ops2.cookie, { intent: "disburse", confirm: "yes" })),
    );
    expect(answers.every((r) => r.status === 302)).toBe(true);
    expect(answers.filter((r) => /Payout requested/.test(toastOf(r) ?? ""))).toHaveLength(1);
    const rows = await settled(b.id);
    expect(rows).toHaveLength(1);
    // Asked again after it is processed: nothing more is sent.
    expect(toastOf(await act(b.ref, ops.cookie, { intent: "disburse", confirm: "yes" }))).toMatch(/already disbursed/);
    expect(await payoutsOf(b.id)).toHaveLength(1);
  });

  it("keeps a failed payout's reason, leaves the loan approved, and retries with a new key only after the failure", async () => {
    const b = await approved("50100012340000");
    await act(b.ref, ops.cookie, { intent: "disburse", confirm: "yes" });
    const [failed] = await settled(b.id);
    expect(failed).toMatchObject({ status: "failed", attempt: 1 });
    expect(failed?.failureReason).toMatch(/account is closed/);
    expect((await row(b.ref)).status).toBe("approved");
    const page = await html(await app.get(`/admin/applications/${b.ref}`, { headers: { Cookie: ops.cookie } }));
    expect(page).toContain("Send the payout again");
    expect(page).toContain("account is closed");

    await act(b.ref, ops.cookie, { intent: "disburse", confirm: "yes" });
    const rows = await settled(b.id, 2);
    expect(rows.map((p) => [p.attempt, p.status])).toEqual([
      [1, "failed"],
      [2, "failed"],
    ]);
    expect(new Set(rows.map((p) => p.id)).size).toBe(2);
    expect((await row(b.ref)).status).toBe("approved");
    expect((await actions(b.id)).filter((t) => t.action === "payout.failed")).toHaveLength(2);
  });

  it("does not let the borrower cancel while the money is on its way, and shows a payout stuck at the provider", async () => {
    const b = await approved("50100012349999");
    await act(b.ref, ops.cookie, { intent: "disburse", confirm: "yes" });
    const step7 = `/User/newLoan/Emi/${b.ref}/Step7`;
    await vi.waitFor(async () => {
      const [p] = await payoutsOf(b.id);
      if (!p?.checkedAt) throw new Error("not sent yet");
    });
    const borrowerPage = await html(await app.get(step7, { headers: { Cookie: b.cookie } }));
    expect(borrowerPage).toContain("The money is on its way");
    expect(shownMarkup(borrowerPage)).not.toContain("Cancel this application");
    const cancel = await postForm(app, step7, { intent: "cancel" }, { cookie: b.cookie });
    expect(toastOf(cancel)).toMatch(/already on its way/);
    expect((await row(b.ref)).status).toBe("approved");
    // A second request while it is in flight sends nothing.
    expect(toastOf(await act(b.ref, ops2.cookie, { intent: "disburse", confirm: "yes" }))).toMatch(/already on its way/);
    expect(await payoutsOf(b.id)).toHaveLength(1);

    // An hour later with no answer: stuck, on the page and on the staff home.
    await app.services.db
      .update(payouts)
      .set({ requestedAt: new Date(Date.now() - 60 * 60_000) })
      .where(eq(payouts.applicationId, b.id));
    const staffPage = await html(await app.get(`/admin/applications/${b.ref}`, { headers: { Cookie: ops.cookie } }));
    expect(staffPage).toContain("Stuck: no answer from the bank");
    expect(staffPage).toContain("Ask the provider now");
    const home = await html(await app.get("/admin", { headers: { Cookie: ops.cookie } }));
    expect(home).toMatch(/>1<\/span><span[^>]*>Payouts stuck/);
    // Asking the provider changes nothing while it has no answer; no new attempt is possible.
    const [p] = await payoutsOf(b.id);
    const asked = await act(b.ref, ops.cookie, { intent: "payout_check", payout: p?.id ?? "" });
    expect(toastOf(asked)).toMatch(/not answered yet/);
    expect(await payoutsOf(b.id)).toHaveLength(1);
    expect((await actions(b.id)).filter((t) => t.action === "payout.checked")).toMatchObject([{ role: "operations", actor: ops.userId }]);
  });

  it("refuses an account that is no longer the agreement's, or no longer verified", async () => {
    const b = await approved();
    // The borrower changes the Bank section after signing.
    const changed = await postForm(
      app,
      "/User/Profile/components/Bank",
      {
        holderName: "Neha Gupta",
        accountNumber: "50100087654321",
        accountNumber_confirm: "50100087654321",
        ifsc: "HDFC0000001",
        accountType: "salary",
      },
      { cookie: b.cookie },
    );
    expect(changed.status).toBe(302);
    const refused = await act(b.ref, ops.cookie, { intent: "disburse", confirm: "yes" });
    expect(toastOf(refused)).toMatch(/no longer holds the account named in the signed agreement/);
    expect(await payoutsOf(b.id)).toHaveLength(0);
  });
});
