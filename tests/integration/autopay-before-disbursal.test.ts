import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  loanApplications,
  loanInstalments,
  mandates,
  notifications,
  payouts,
  products,
  productVersions,
} from "../../app/server/db/schema.ts";
import { allTicked, signedApplication, signedInStaff } from "../helpers/applications.ts";
import { emiProductForm } from "../helpers/products.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { shownMarkup } from "../helpers/english.ts";

// An EMI loan is paid out only once its autopay is active (docs/product.md "Autopay"; a product
// setting, on for EMI loans by default): the borrower sets it up on the application's page after
// signing, operations cannot disburse before, and the loan starts with the mandate already active.
let app: TestServer;
let credit: { cookie: string };
let ops: { cookie: string };
let admin: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  admin = await signedInStaff(app, "admin", "Anil Kumar");
});
afterAll(async () => {
  await app?.stop();
});

let serial = 0;
const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");
/** A signed EMI application approved by the credit officer, with no autopay yet. */
async function approvedWithoutAutopay() {
  const signed = await signedApplication(app, `97500${String(++serial).padStart(5, "0")}`);
  for (const fields of [{ intent: "take" }, allTicked(), { intent: "approve" }])
    expect((await postForm(app, `/admin/applications/${signed.ref}`, fields, { cookie: credit.cookie })).status).toBe(302);
  return { ...signed, step7: `/User/newLoan/Emi/${signed.ref}/Step7`, review: `/admin/applications/${signed.ref}` };
}
const disburse = (ref: string) =>
  postForm(app, `/admin/applications/${ref}`, { intent: "disburse", confirm: "yes" }, { cookie: ops.cookie });
const payoutsOf = (id: string) => app.services.db.select().from(payouts).where(eq(payouts.applicationId, id));

describe("autopay before disbursal", () => {
  it("holds the payout until the borrower's autopay is active, set up from the application's page", async () => {
    const a = await approvedWithoutAutopay();
    // Operations cannot pay it out yet, and their page says why.
    const refused = await disburse(a.ref);
    expect(toastOf(refused)).toContain("paid out only once the borrower's autopay is active");
    expect(await payoutsOf(a.id)).toEqual([]);
    const review = await html(await app.get(a.review, { headers: { Cookie: ops.cookie } }));
    expect(review).toContain('data-testid="waiting-for-autopay"');
    expect(review).not.toContain('data-testid="disburse"');
    // The approval's notice leads to where autopay is set up.
    const [approvedNotice] = await app.services.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, a.userId), eq(notifications.event, "application_approved")));
    expect(approvedNotice).toMatchObject({ title: "Your loan is approved: set up autopay", path: a.step7 });
    expect(approvedNotice?.sms).toContain(`Set up autopay at `);
    // The borrower's application page asks for it.
    const page = await html(await app.get(a.step7, { headers: { Cookie: a.cookie } }));
    expect(page).toContain("This loan is paid out only once autopay is active");
    expect(page).toContain("Next it is your turn: set up autopay below.");
    // So does the dashboard.
    const dashboard = await html(await app.get("/User/Dashboard", { headers: { Cookie: a.cookie } }));
    expect(dashboard).toContain("We send the money as soon as your autopay is active");
    expect(dashboard).toContain(`href="${a.step7}#autopay-title" data-discover="true">Set up autopay</a>`);
    // Someone else cannot set it up on this application.
    const other = await signedApplication(app, `97500${String(++serial).padStart(5, "0")}`);
    expect((await postForm(app, a.step7, { intent: "autopay_start" }, { cookie: other.cookie })).status).toBe(404);

    const started = await postForm(app, a.step7, { intent: "autopay_start" }, { cookie: a.cookie });
    expect(started.status).toBe(302);
    const authUrl = started.headers.get("location") ?? "";
    expect(authUrl).toMatch(/^\/local-mandate\/lmd_/);
    // At most 1.5 × the signed KFS's instalment, until 3 months after its last due date.
    const [pending] = await app.services.db.select().from(mandates).where(eq(mandates.applicationId, a.id));
    expect(pending?.status).toBe("pending");
    expect(await html(await app.get(authUrl))).toContain(`Autopay for EMI loan application`);
    const done = await postForm(app, authUrl, { outcome: "approve" });
    const back = new URL(done.headers.get("location") ?? "");
    const landed = await app.get(back.pathname + back.search, { headers: { Cookie: a.cookie } });
    expect(landed.headers.get("location")).toBe(`${a.step7}#autopay-title`);
    expect(toastOf(landed)).toContain("Autopay is set up");
    const shown = await html(await app.get(a.step7, { headers: { Cookie: a.cookie } }));
    expect(shown).toContain('data-testid="autopay-status">Active<');
    expect(shown).toContain("Next we send the money to your bank account");
    expect(shownMarkup(await html(await app.get("/User/Dashboard", { headers: { Cookie: a.cookie } })))).not.toContain("Set up autopay");

    // Now it is paid out, and the loan starts with that mandate; none is asked for again.
    expect(toastOf(await disburse(a.ref))).toContain("Payout requested");
    await expect
      .poll(async () => (await app.services.db.select().from(loanApplications).where(eq(loanApplications.id, a.id)))[0]?.status, {
        timeout: 20_000,
      })
      .toBe("active");
    const [loan] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.id, a.id));
    const schedule = await app.services.db.select().from(loanInstalments).where(eq(loanInstalments.applicationId, a.id));
    const all = await app.services.db.select().from(mandates).where(eq(mandates.applicationId, a.id));
    expect(all).toHaveLength(1);
    const emi = Math.max(...schedule.map((r) => r.principalPaise + r.interestPaise));
    expect(all[0]?.maxAmountPaise).toBe(Math.ceil((emi * 3) / 2));
    const loanPage = await html(await app.get(`/User/Loans/Emi/${loan?.loanNumber}`, { headers: { Cookie: a.cookie } }));
    expect(loanPage).toContain('data-testid="autopay-status">Active<');
  });

  it("pays out without autopay once an administrator turns the product's rule off (a new product version)", async () => {
    const a = await approvedWithoutAutopay();
    expect(toastOf(await disburse(a.ref))).toContain("paid out only once the borrower's autopay is active");
    const versions = await app.services.db.select().from(productVersions).where(eq(productVersions.code, "emi"));
    const form = emiProductForm({ minFee: "499", autopayBeforeDisbursal: undefined, note: "Autopay is asked for after the money arrives" });
    const saved = await postForm(app, "/admin/products", form, { cookie: admin.cookie });
    expect(toastOf(saved)).toBe(`Saved as version ${versions.length + 1}. It applies to offers made from now on.`);
    const [row] = await app.services.db.select().from(products).where(eq(products.code, "emi"));
    expect(row?.autopayBeforeDisbursal).toBe(false);
    const [version] = await app.services.db
      .select()
      .from(productVersions)
      .where(and(eq(productVersions.code, "emi"), eq(productVersions.version, versions.length + 1)));
    expect(version?.before).toMatchObject({ autopayBeforeDisbursal: true });
    expect(version?.after).toMatchObject({ autopayBeforeDisbursal: false });
    expect(toastOf(await disburse(a.ref))).toContain("Payout requested");
    // As it was, for the other test of this server.
    await app.services.db.update(products).set({ autopayBeforeDisbursal: true }).where(eq(products.code, "emi"));
  });
});
