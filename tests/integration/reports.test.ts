import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addDays } from "../../app/domain/loan-math.ts";
import { longDate, todayIST } from "../../app/domain/india-date.ts";
import { formatRupees } from "../../app/domain/money.ts";
import { funnelEvents, payouts } from "../../app/server/db/schema.ts";
import { approvedApplication, signedApplication, signedInStaff } from "../helpers/applications.ts";
import { postForm } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// The reports page (docs/product.md "Reports") over data made through the real flows: two
// borrowers in the quick start, one application left signed, one rejected for policy, one
// approved and disbursed (the local payout stand-in settles after a second).
let app: TestServer;
let staff: { cookie: string; userId: string };
let paidPaise = 0;
const today = () => todayIST(new Date());

beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "1" });
  const credit = await signedInStaff(app, "credit", "Asha Rao");
  const ops = await signedInStaff(app, "operations", "Omar Shaikh");
  staff = await signedInStaff(app, "support", "Sunita Das");

  // The quick start: A opens Step0, completes it and opens Step1; B opens Step0 and leaves.
  const a = await signedInBorrower(app, "9500000101");
  const b = await signedInBorrower(app, "9500000102");
  const view = async (cookie: string, step: number) => {
    const res = await app.get(`/quickStart/Step${step}`, { headers: { Cookie: cookie } });
    if (res.status !== 200) throw new Error(`Step${step} answered ${res.status}`);
  };
  await view(a.cookie, 0);
  await view(a.cookie, 0); // opened twice: still one borrower
  const done = await postForm(app, "/quickStart/Step0", { intent: "next", product: "emi", amount: "200000" }, { cookie: a.cookie });
  if (done.status !== 302) throw new Error(`Step0 answered ${done.status}`);
  await view(a.cookie, 1);
  await view(b.cookie, 0);
  // An old visit, 40 days ago in India: outside the default 30 days.
  await app.services.db.insert(funnelEvents).values({
    userId: null,
    event: "step_viewed",
    step: 0,
    createdAt: new Date(`${addDays(today(), -40)}T12:00:00+05:30`),
  });

  await signedApplication(app, "9500000201");
  const rejected = await signedApplication(app, "9500000202");
  const decide: Record<string, string>[] = [{ intent: "take" }, { intent: "reject", reason: "policy", note: "Not within policy today." }];
  for (const fields of decide) {
    const res = await postForm(app, `/admin/applications/${rejected.ref}`, fields, { cookie: credit.cookie });
    if (res.status !== 302) throw new Error(`${fields.intent} answered ${res.status}`);
  }
  const paid = await approvedApplication(app, "9500000203", credit);
  const res = await postForm(app, `/admin/applications/${paid.ref}`, { intent: "disburse", confirm: "yes" }, { cookie: ops.cookie });
  if (res.status !== 302) throw new Error(`disburse answered ${res.status}`);
  const payout = await vi.waitFor(
    async () => {
      const [p] = await app.services.db.select().from(payouts).where(eq(payouts.applicationId, paid.id));
      if (p?.status !== "processed") throw new Error("the payout is not processed yet");
      return p;
    },
    { timeout: 20_000, interval: 250 },
  );
  paidPaise = payout.amountPaise;
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

const page = async (query = "") => {
  const res = await app.get(`/admin/reports${query}`, { headers: { Cookie: staff.cookie } });
  const text = (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');
  return { status: res.status, text };
};
/** The part of the page inside the element with `data-testid="…"` (up to the section's end). */
const part = (text: string, testId: string) => {
  const start = text.indexOf(`data-testid="${testId}"`);
  if (start < 0) throw new Error(`no ${testId} on the page`);
  return text.slice(start, text.indexOf("</section>", start));
};
const strip = (s: string) => s.replace(/<[^>]+>/g, "").trim();
/** The rows of the tables in a part of the page, as { first cell: the other cells }. */
const rows = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => {
      const cells = [...(m[1] ?? "").matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => strip(c[1] ?? ""));
      return [cells[0] ?? "", cells.slice(1)];
    }),
  );
const problemOf = (text: string, field: "from" | "to") =>
  strip(new RegExp(`data-testid="${field}-problem">(.*?)</p>`).exec(text)?.[1] ?? "");

describe("the reports page", () => {
  it("shows the pipeline by status now, with a chart and its table", async () => {
    const { status, text } = await page();
    expect(status).toBe(200);
    const pipeline = part(text, "report-pipeline");
    expect(pipeline).toContain('role="img"');
    expect(pipeline).toMatch(
      /aria-label="Applications by status now: Draft 0, Signed, waiting for review 1, .*Approved 0, Active 1, .*Not approved 1/,
    );
    const table = rows(pipeline);
    expect(table["Signed, waiting for review"]).toEqual(["1"]);
    expect(table["Not approved"]).toEqual(["1"]);
    expect(table["Active"]).toEqual(["1"]);
    expect(table["Under review"]).toEqual(["0"]);
    expect(table["Total"]).toEqual(["3"]);
  });

  it("counts approvals and rejections by reason in the period", async () => {
    const { text } = await page();
    const decisions = part(text, "report-decisions");
    expect(strip(part(decisions, "decisions-summary").split("</p>")[0] ?? "")).toContain("1 approved and 1 rejected");
    const table = rows(decisions);
    expect(table["Approved"]).toEqual(["1"]);
    expect(table["Rejected: Policy"]).toEqual(["1"]);
    expect(table["Rejected: Credit history"]).toEqual(["0"]);
    expect(table["Total"]).toEqual(["2"]);
    // Decided today: a period that ends yesterday has none.
    const before = await page(`?from=${addDays(today(), -10)}&to=${addDays(today(), -1)}`);
    expect(part(before.text, "report-decisions")).toContain("No application was approved or rejected in this period.");
  });

  it("shows the money disbursed on today's India date", async () => {
    expect(paidPaise).toBeGreaterThan(0);
    const { text } = await page();
    const disbursed = part(text, "report-disbursed");
    const table = rows(disbursed);
    expect(table[longDate(today())]).toEqual(["1", formatRupees(paidPaise)]);
    expect(table["Total"]).toEqual(["1", formatRupees(paidPaise)]);
    expect(disbursed).toContain(`aria-label="Money disbursed per day`);
    expect(disbursed).toContain(`${formatRupees(paidPaise)} in 1 payout on 1 day`);
    const before = await page(`?to=${addDays(today(), -1)}`);
    expect(part(before.text, "report-disbursed")).toContain("No money was disbursed in this period.");
  });

  it("shows the quick-start funnel: borrowers per step, drop-off and per day", async () => {
    const { text } = await page();
    const funnel = part(text, "report-funnel");
    expect(funnel).toMatch(/aria-label="Quick-start funnel, [^"]*step 0 viewed by 2, completed by 1; step 1 viewed by 1, completed by 0;/);
    const table = rows(funnel);
    expect(table["Step 0: Loan and amount"]).toEqual(["2", "1", "50%"]);
    expect(table["Step 1: About you"]).toEqual(["1", "0", "100%"]);
    expect(table["Step 2: Where you live"]).toEqual(["0", "0", "—"]);
    expect(table[longDate(today())]?.slice(0, 2)).toEqual(["2 → 1", "1 → 0"]);
    // The visit 40 days ago counts only in a period that includes it.
    const old = addDays(today(), -40);
    const then = await page(`?from=${old}&to=${old}`);
    expect(rows(part(then.text, "report-funnel"))["Step 0: Loan and amount"]).toEqual(["1", "0", "100%"]);
    const empty = await page(`?from=${addDays(today(), -20)}&to=${addDays(today(), -10)}`);
    expect(part(empty.text, "report-funnel")).toContain("No one used the quick start in this period.");
  });

  it("keeps the period asked for in the form and says which it is", async () => {
    const from = addDays(today(), -6);
    const { text } = await page(`?from=${from}&to=${today()}`);
    expect(text).toContain(`value="${from}"`);
    expect(strip(part(text, "report-period").split("</p>")[0] ?? "")).toContain(
      `Showing ${longDate(from)} to ${longDate(today())} (7 days`,
    );
    expect(problemOf(text, "from")).toBe("");
    expect(problemOf(text, "to")).toBe("");
  });

  it("answers hostile or impossible periods with the last 30 days and the reason beside the field, never an error", async () => {
    const defaults = `Showing ${longDate(addDays(today(), -29))} to ${longDate(today())} (30 days`;
    const cases: [string, "from" | "to", RegExp][] = [
      ["?from=garbage", "from", /“garbage” is not a date/],
      ["?from=2026-02-30&to=2026-03-10", "from", /is not a date/],
      [`?to=${encodeURIComponent("<script>alert(1)</script>")}`, "to", /is not a date/],
      [`?from=${"9".repeat(5000)}`, "from", /is not a date/],
      ["?from=2026-03-10&to=2026-03-01", "to", /The end date is before the start date/],
      ["?from=2024-01-01&to=2025-06-01", "to", /at most 366 days/],
      ["?from=1900-01-01&to=1900-01-02", "from", /is not a date/],
      ["?from=%00%ff&to=%E2%80%AE", "from", /is not a date/],
    ];
    for (const [query, field, message] of cases) {
      const { status, text } = await page(query);
      expect(status, query).toBe(200);
      expect(problemOf(text, field), query).toMatch(message);
      expect(problemOf(text, field), query).toContain("Showing the last 30 days instead.");
      expect(text, query).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"`));
      expect(strip(part(text, "report-period").split("</p>")[0] ?? ""), query).toContain(defaults);
      expect(text, query).not.toContain("<script>alert(1)");
    }
    // A full year of 366 days is allowed.
    const year = await page("?from=2024-01-01&to=2024-12-31");
    expect(year.status).toBe(200);
    expect(problemOf(year.text, "to")).toBe("");
    expect(year.text).toContain("(366 days, India time)");
    // Repeated and array-style parameters are no error either.
    expect((await page("?from=2026-01-01&from=x&to[]=1&to=2026-01-05")).status).toBe(200);
  });
});
