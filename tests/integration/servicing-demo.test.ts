import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import { collectionCases, loanApplications, loanLedger, mandates, users } from "../../app/server/db/schema.ts";
import { DEMO_BORROWER_MOBILE, seedDemoLoans } from "../../app/server/servicing/demo.server.ts";
import { ledgerOf, termsOf } from "../../app/server/loan-account/account.server.ts";
import { borrowerLoans, ownLoanLedger } from "../../app/server/loan-account/read.server.ts";
import { type LoanTerms, replay } from "../../app/domain/loans/servicing.ts";
import { signedInStaff } from "../helpers/applications.ts";
import { expectBooksMatchLedger, unbalancedEntries } from "../helpers/books.ts";
import { todayIST } from "../../app/domain/india-date.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The demo borrower a fresh clone starts with: an EMI loan with two instalments paid and the third
// overdue with its penal charge, and a salary advance repaid and closed with its no-dues certificate.
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ SEED_DEMO_LOANS: "true" });
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&");

describe("the demo borrower", () => {
  it("has an overdue EMI loan with its penal charge and a closed salary advance with its certificate", async () => {
    const [user] = await app.services.db.select().from(users).where(eq(users.mobile, DEMO_BORROWER_MOBILE));
    if (!user) throw new Error("no demo borrower");
    const { setCookie } = await createUserSession(app.services, { userId: user.id, deviceId: "demo", ip: "127.0.0.1", userAgent: "test" });
    const cookie = setCookie.split(";")[0] ?? "";
    const loans = await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, user.id));
    const emi = loans.find((l) => l.product === "emi");
    const advance = loans.find((l) => l.product === "salary_advance");
    expect(emi?.status).toBe("active");
    expect(advance?.status).toBe("closed");
    const entries = await app.services.db
      .select()
      .from(loanLedger)
      .where(eq(loanLedger.applicationId, emi?.id ?? ""));
    expect(entries.filter((e) => e.kind === "payment")).toHaveLength(2);
    expect(entries.filter((e) => e.kind === "penal").map((e) => e.seq)).toEqual([3]);
    const page = await html(await app.get(`/User/Loans/Emi/${emi?.loanNumber}`, { headers: { Cookie: cookie } }));
    expect(page).toMatch(/is overdue, \d+ days past the due date/);
    expect(page).toContain("Penal charge for instalment 3");
    // Autopay, set up and approved at the local stand-in (docs/product.md "Autopay").
    expect(page).toContain('data-testid="autopay-status">Active<');
    // Its next debit: the fourth instalment, ten days ahead, for the instalment's amount.
    expect(page).toMatch(
      /data-testid="autopay-next">Next debit: ₹[\d,.]+ on [^<]+ for the instalment due on [^<]+\. You get a notice two days before\.</,
    );
    const [mandate] = await app.services.db
      .select()
      .from(mandates)
      .where(eq(mandates.applicationId, emi?.id ?? ""));
    expect(mandate).toMatchObject({ status: "active", kind: "upi_autopay", accountMasked: "XXXXXXXXXX6789" });
    // Its overdue instalment has an open collections case with a broken promise (high priority).
    expect(page).toContain('data-testid="promise-text">You promised to pay ₹5,000 by');
    expect(page).toContain("and we have not received it");
    const [demoCase] = await app.services.db
      .select()
      .from(collectionCases)
      .where(eq(collectionCases.applicationId, emi?.id ?? ""));
    expect(demoCase).toMatchObject({ closedOn: null, priority: "high" });
    const list = await html(await app.get("/User/Loans", { headers: { Cookie: cookie } }));
    expect(list).toContain(emi?.loanNumber ?? "-");
    expect(list).toContain(advance?.loanNumber ?? "-");
    const certificate = await app.get(`/User/Loans/${advance?.loanNumber}/no-dues.pdf`, { headers: { Cookie: cookie } });
    expect(certificate.status).toBe(200);
    // Its books: every entry balanced, each loan's accounts equal to its ledger (docs/product.md "The lender's books").
    expect(await unbalancedEntries(app.services)).toEqual([]);
    expect(await expectBooksMatchLedger(app.services, todayIST(app.services.now()), [emi?.id ?? ""])).toBe(1);
    // Seeding again (a restart) adds nothing.
    expect(await seedDemoLoans(app.services)).toBe(false);
    expect(await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, user.id))).toHaveLength(2);
  });

  it("lists their loans of one kind at /User/Loans/Emi and /User/Loans/SalaryAdvance, and nobody else's", async () => {
    const [user] = await app.services.db.select().from(users).where(eq(users.mobile, DEMO_BORROWER_MOBILE));
    if (!user) throw new Error("no demo borrower");
    const { setCookie } = await createUserSession(app.services, {
      userId: user.id,
      deviceId: "demo-2",
      ip: "127.0.0.1",
      userAgent: "test",
    });
    const cookie = setCookie.split(";")[0] ?? "";
    const loans = await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, user.id));
    const emi = loans.find((l) => l.product === "emi")?.loanNumber ?? "-";
    const advance = loans.find((l) => l.product === "salary_advance")?.loanNumber ?? "-";
    const emiList = await app.get("/User/Loans/Emi", { headers: { Cookie: cookie } });
    expect(emiList.status).toBe(200);
    const emiHtml = await html(emiList);
    expect(emiHtml).toContain("Your EMI loans");
    expect(emiHtml).toContain(emi);
    expect(emiHtml).not.toContain(advance);
    const advances = await html(await app.get("/user/loans/salaryadvance", { headers: { Cookie: cookie } }));
    expect(advances).toContain("Your salary advances");
    expect(advances).toContain(advance);
    expect(advances).not.toContain(emi);
    // Another borrower's lists hold none of them.
    const other = await signedInBorrower(app, "9000000099");
    const theirs = await html(await app.get("/User/Loans/Emi", { headers: { Cookie: other.cookie } }));
    expect(theirs).toContain("You have no EMI loans yet.");
    expect(theirs).not.toContain(emi);
    // Signed out: to sign in, as every borrower page.
    expect((await app.get("/User/Loans/Emi")).status).toBe(302);
  });

  it("has each loan read in one statement exactly as its account, schedule and ledger read one by one", async () => {
    const [user] = await app.services.db.select().from(users).where(eq(users.mobile, DEMO_BORROWER_MOBILE));
    const loans = await app.services.db
      .select()
      .from(loanApplications)
      .where(eq(loanApplications.userId, user?.id ?? ""));
    expect(loans).toHaveLength(2);
    for (const application of loans) {
      const read = await ownLoanLedger(app.services, { userId: application.userId, loanNumber: application.loanNumber ?? "" });
      const found = await termsOf(app.services, application.id);
      const ledger = await ledgerOf(app.services, application.id);
      // Payments, a penal charge, a refund: dates, JSON details and empty columns alike.
      expect(ledger.rows.length).toBeGreaterThan(2);
      expect(read).toEqual({ application, terms: found?.terms, rows: ledger.rows, events: ledger.events });
    }
    // The list of their loans (one statement too), newest first, each replayed to today.
    const listed = await borrowerLoans(app.services, user?.id ?? "");
    const today = todayIST(app.services.now());
    expect(listed.map((l) => l.loanNumber)).toEqual(
      loans.toSorted((x, y) => ((x.disbursalDate ?? "") < (y.disbursalDate ?? "") ? 1 : -1)).map((l) => l.loanNumber),
    );
    for (const loan of listed) {
      const application = loans.find((l) => l.loanNumber === loan.loanNumber);
      const found = await termsOf(app.services, application?.id ?? "");
      const state = replay(found?.terms as LoanTerms, (await ledgerOf(app.services, application?.id ?? "")).events, today);
      expect(loan).toMatchObject({
        reference: application?.reference,
        status: application?.status,
        principalPaise: found?.terms.principalPaise,
        outstandingPrincipalPaise: state.outstandingPrincipalPaise,
        overduePaise: state.overduePaise,
        penalDuePaise: state.penalDuePaise,
        dpd: state.dpd,
      });
    }
    // Somebody else's loan number is nobody's loan.
    const [emi] = loans;
    expect(await ownLoanLedger(app.services, { userId: crypto.randomUUID(), loanNumber: emi?.loanNumber ?? "" })).toBeNull();
  });

  it("serves /favicon.ico", async () => {
    const res = await app.get("/favicon.ico");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
    expect(Buffer.from(await res.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  });

  it("has a complete KYC profile, and every staff page names them by it", async () => {
    const [user] = await app.services.db.select().from(users).where(eq(users.mobile, DEMO_BORROWER_MOBILE));
    if (!user) throw new Error("no demo borrower");
    const staff = await signedInStaff(app, "operations", "Demo Ops");
    const get = async (path: string) => html(await app.get(path, { headers: { Cookie: staff.cookie } }));
    const loans = await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, user.id));
    const borrower = await get(`/admin/borrowers/${user.id}`);
    expect(borrower).toContain("7 of 7 sections");
    expect(borrower).toMatch(/<h1[^>]*>Asha Verma<\/h1>/);
    expect(await get(`/admin/borrowers?q=${DEMO_BORROWER_MOBILE}`)).toContain("Asha Verma");
    for (const l of loans) expect(await get(`/admin/loans/${l.loanNumber}`)).toContain("Asha Verma");
    const overdue = await get("/admin/collections");
    expect(overdue).toContain("Asha Verma");
    expect(borrower).not.toContain("No name yet");
  });
});
