import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, products, productVersions, riskBands } from "../../app/server/db/schema.ts";
import { signedInStaff } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { emiProductForm } from "../helpers/products.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Editing the loan products (docs/product.md "Products"): versioned with who, when and why,
// validated next to each field, and live on Rate-terms at once, on this process and the others.
let app: TestServer;
let admin: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer();
  admin = await signedInStaff(app, "admin", "Anil Mehta");
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");
const emiRow = async () => (await app.services.db.select().from(products).where(eq(products.code, "emi")))[0];
const rateTerms = async () => html(await app.get("/Rate-terms"));

describe("loan products", () => {
  it("saves a new version, audits it, and Rate-terms shows it at once", async () => {
    const before = await emiRow();
    const earlier = await app.services.db.select().from(productVersions).where(eq(productVersions.code, "emi"));
    const next = earlier.length + 1;
    expect(await rateTerms()).not.toContain("₹6,500 to");
    const res = await postForm(app, "/admin/products", emiProductForm({ minAmount: "6500", fee: "2.5" }), { cookie: admin.cookie });
    expect(toastOf(res)).toBe(`Saved as version ${next}. It applies to offers made from now on.`);
    const after = await emiRow();
    expect(after).toMatchObject({ minAmountPaise: 650_000, feeBps: 250 });
    const [version] = await app.services.db
      .select()
      .from(productVersions)
      .where(and(eq(productVersions.code, "emi"), eq(productVersions.version, next)));
    expect(version).toMatchObject({ part: "terms", changedBy: admin.userId, note: "Quarterly review of the EMI loan" });
    expect(version?.before).toMatchObject({ minAmountPaise: before?.minAmountPaise, feeBps: before?.feeBps });
    const audits = await app.services.db.select().from(auditLog).where(eq(auditLog.action, "product.changed"));
    expect(audits.find((a) => (a.details as { version: number }).version === next)?.details).toMatchObject({
      changes: { minAmountPaise: [before?.minAmountPaise, 650_000], feeBps: [before?.feeBps, 250] },
    });
    expect(await rateTerms()).toContain("₹6,500 to");
    const page = await html(await app.get("/admin/products", { headers: { Cookie: admin.cookie } }));
    expect(page).toContain(`EMI loan v${next}`);
    expect(page).toContain("Quarterly review of the EMI loan");
    // The same values again: nothing changes, no version.
    expect(
      toastOf(await postForm(app, "/admin/products", emiProductForm({ minAmount: "6500", fee: "2.5" }), { cookie: admin.cookie })),
    ).toBe("Nothing changed.");
  });

  it("refuses bad values next to their fields and changes nothing", async () => {
    const before = await emiRow();
    const res = await postForm(
      app,
      "/admin/products",
      emiProductForm({ minAmount: "900000", maxAmount: "1,00,000", rate: "abc", gst: "99", coolingOffDays: "0", note: "" }),
      { cookie: admin.cookie },
    );
    expect(res.status).toBe(400);
    const text = await html(res);
    expect(text).toContain("The annual rate must be a percentage");
    expect(text).toContain("GST must be between 0% and 28%");
    expect(text).toContain("The cooling-off period must be between 1 and 30");
    expect(text).toContain("Say why it changes");
    expect(await emiRow()).toEqual(before);
    const swapped = await postForm(app, "/admin/products", emiProductForm({ minAmount: "900000", maxAmount: "100000" }), {
      cookie: admin.cookie,
    });
    expect(await html(swapped)).toContain("The largest amount must be at least the smallest.");
    expect(await emiRow()).toEqual(before);
  });

  it("saves a risk band as a version of the EMI loan", async () => {
    const [band] = await app.services.db.select().from(riskBands).orderBy(riskBands.sortOrder).limit(1);
    const res = await postForm(
      app,
      "/admin/products",
      { intent: "band", band: String(band?.id), minIncome: "75000", maxEmiShare: "", rate: "13.5", note: "Best band a little cheaper" },
      { cookie: admin.cookie },
    );
    expect(toastOf(res)).toMatch(/Saved as version/);
    const [saved] = await app.services.db
      .select()
      .from(riskBands)
      .where(eq(riskBands.id, band?.id ?? 0));
    expect(saved).toMatchObject({ minIncomePaise: 7_500_000, maxEmiToIncomeBps: null, rateBps: 1350 });
    expect(await rateTerms()).toContain("13.5%");
    const missing = await postForm(
      app,
      "/admin/products",
      { intent: "band", band: "99999", minIncome: "1", maxEmiShare: "", rate: "10", note: "No such band here" },
      { cookie: admin.cookie },
    );
    expect(missing.status).toBe(404);
  });

  it("reads the products again when another process says they changed", async () => {
    await app.services.db.update(products).set({ penalChargePaise: 45_600 }).where(eq(products.code, "emi"));
    await app.services.realtime.publish({ type: "products_changed" });
    await vi.waitFor(async () => expect(await rateTerms()).toContain("₹456 for each missed instalment"), { timeout: 5_000 });
  });
});
