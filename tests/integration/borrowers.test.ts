import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loanApplications, payouts } from "../../app/server/db/schema.ts";
import { approvedApplication, signedApplication, signedInStaff } from "../helpers/applications.ts";
import { postForm } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// Borrower search and the borrower page (docs/product.md "Borrowers").
let app: TestServer;
let support: { cookie: string };
let credit: { cookie: string };
let ops: { cookie: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "1" });
  support = await signedInStaff(app, "support", "Sunil Das");
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");
const page = (path: string, cookie = support.cookie) => app.get(path, { headers: { Cookie: cookie } });
const found = async (q: string) => {
  const text = await html(await page(`/admin/borrowers?q=${encodeURIComponent(q)}`));
  return [...text.matchAll(/href="\/admin\/borrowers\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
};

describe("borrowers", () => {
  it("finds a borrower by mobile, name, PAN's last 4, reference prefix and loan number, and shows their page", async () => {
    const lent = await approvedApplication(app, "9810000001", credit, { name: "Kavya Menon", pan: "ABCPM8321K" });
    await postForm(app, `/admin/applications/${lent.ref}`, { intent: "disburse", confirm: "yes" }, { cookie: ops.cookie });
    const loan = await vi.waitFor(
      async () => {
        const [a] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, lent.ref));
        if (a?.status !== "active") throw new Error("not active yet");
        return a;
      },
      { timeout: 20_000 },
    );
    const other = await signedApplication(app, "9810000002", { name: "Rohan Verma", pan: "ABCPV8760L" });

    expect(await found("9810000001")).toEqual([lent.userId]);
    expect(await found("+91 98100 00001")).toEqual([lent.userId]);
    expect(await found("kavya")).toEqual([lent.userId]);
    expect(await found("321K")).toEqual([lent.userId]);
    expect(await found(lent.ref.slice(0, 8))).toEqual([lent.userId]);
    expect(await found(loan.loanNumber ?? "?")).toEqual([lent.userId]);
    expect(await found("Verma")).toEqual([other.userId]);
    expect(await found("nobody-by-this-name")).toEqual([]);
    // The application queue finds it by loan number too.
    expect(await html(await page(`/admin/applications?view=active&q=${loan.loanNumber}`))).toContain(`/admin/applications/${lent.ref}`);

    const text = await html(await page(`/admin/borrowers/${lent.userId}`));
    expect(text).toContain("Kavya Menon");
    expect(text).toContain("+91 9810000001 (verified)");
    expect(text).toContain("XXXXXX321K");
    expect(text).toContain(loan.loanNumber ?? "?");
    const [paid] = await app.services.db.select().from(payouts).where(eq(payouts.applicationId, lent.id));
    expect(text).toContain(`UTR ${paid?.utr}`);
    expect(text).toContain(`/admin/applications/${lent.ref}`);
    expect(text).toMatch(/Status: approved → active \([A-Z2-7]{8}\) · system/);
    expect(text).toMatch(/Payout requested \([A-Z2-7]{8}\) · Omar Shaikh/);
    // Only this borrower's applications.
    expect(text).not.toContain(other.ref.slice(0, 8).toUpperCase());
  });

  it("answers a hostile search and an unknown or non-borrower id without an error", async () => {
    for (const q of ["%", "_", "'; drop table users; --", "a".repeat(500), "SL0000", "\u0000"]) {
      expect((await page(`/admin/borrowers?q=${encodeURIComponent(q)}&page=-3`)).status).toBe(200);
    }
    expect((await page("/admin/borrowers?page=999")).status).toBe(200);
    expect((await page("/admin/borrowers/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await page("/admin/borrowers/not-a-uuid")).status).toBe(404);
    const staff = await signedInStaff(app, "credit", "Ravi Kumar");
    expect((await page(`/admin/borrowers/${staff.userId}`)).status).toBe(404);
    const borrower = await signedInBorrower(app, "9810000003");
    expect((await page(`/admin/borrowers/${borrower.userId}`, borrower.cookie)).status).not.toBe(200);
  });
});
