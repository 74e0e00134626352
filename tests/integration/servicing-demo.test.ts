import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import { loanApplications, loanLedger, users } from "../../app/server/db/schema.ts";
import { DEMO_BORROWER_MOBILE, seedDemoLoans } from "../../app/server/servicing/demo.server.ts";
import { signedInStaff } from "../helpers/applications.ts";
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
    const list = await html(await app.get("/User/Loans", { headers: { Cookie: cookie } }));
    expect(list).toContain(emi?.loanNumber ?? "-");
    expect(list).toContain(advance?.loanNumber ?? "-");
    const certificate = await app.get(`/User/Loans/${advance?.loanNumber}/no-dues.pdf`, { headers: { Cookie: cookie } });
    expect(certificate.status).toBe(200);
    // Seeding again (a restart) adds nothing.
    expect(await seedDemoLoans(app.services)).toBe(false);
    expect(await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, user.id))).toHaveLength(2);
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
