import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

const text = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "");

describe("GET /api/emi", () => {
  it("answers the worked example of docs/product.md, Money, dates and the loan math in paise", async () => {
    const res = await app.get("/api/emi?amount=100&rate=12&months=6");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      emiPaise: 1725,
      totalInterestPaise: 353,
      totalPayablePaise: 10_353,
      netDisbursedPaise: 10_000,
      aprPercent: 12,
    });
    expect(body.schedule).toHaveLength(6);
    expect(body.schedule[0]).toEqual({
      instalment: 1,
      openingPaise: 10_000,
      interestPaise: 100,
      principalPaise: 1625,
      paymentPaise: 1725,
      closingPaise: 8375,
    });
    expect(body.schedule[5]).toMatchObject({ paymentPaise: 1728, closingPaise: 0 });
  });

  it("accepts two decimals and a fee, and raises the APR by the fee", async () => {
    const body = await (await app.get("/api/emi?amount=100000.50&rate=18&months=12&fee=2360")).json();
    expect(body.netDisbursedPaise).toBe(10_000_050 - 236_000);
    expect(body.aprPercent).toBeGreaterThan(18);
    expect(Number.isInteger(body.emiPaise)).toBe(true);
  });

  it.each([
    ["amount=abc&rate=12&months=6", "amount"],
    ["amount=-100&rate=12&months=6", "amount"],
    ["amount=100.555&rate=12&months=6", "amount"],
    ["rate=12&months=6", "amount"],
    ["amount=100&months=6", "rate"],
    ["amount=100&rate=101&months=6", "rate"],
    ["amount=100&rate=-1&months=6", "rate"],
    ["amount=100&rate=12", "months"],
    ["amount=100&rate=12&months=0", "months"],
    ["amount=100&rate=12&months=481", "months"],
    ["amount=100&rate=12&months=6.5", "months"],
    ["amount=100&rate=12&months=6&fee=100", "fee"],
    ["amount=100&rate=12&months=6&fee=x", "fee"],
  ])("answers %s with 400 naming %s", async (query, field) => {
    const res = await app.get(`/api/emi?${query}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.field).toBe(field);
    expect(typeof body.error).toBe("string");
  });
});

describe("the calculator page, the CSV and Rate-terms agree with the API", () => {
  it("renders the result for the query on the server", async () => {
    const api = await (await app.get("/api/emi?amount=250000&rate=14&months=24&fee=5900")).json();
    const html = await text(await app.get("/EmiCalculator?amount=250000&rate=14&months=24&fee=5900"));
    const rupees = (p: number) =>
      new Intl.NumberFormat("en-IN", {
        style: "currency",
        currency: "INR",
        minimumFractionDigits: p % 100 ? 2 : 0,
        maximumFractionDigits: p % 100 ? 2 : 0,
      }).format(p / 100);
    expect(html).toContain(`data-testid="emi">${rupees(api.emiPaise)}<`);
    expect(html).toContain(`data-testid="apr">${api.aprPercent.toFixed(2)}%<`);
    expect(html).toContain(`data-testid="net">${rupees(api.netDisbursedPaise)}<`);
    expect(html).toContain("By month (24 instalments)");
  });

  it("explains bad values next to the field instead of failing", async () => {
    const res = await app.get("/EmiCalculator?amount=abc&rate=12&months=6");
    expect(res.status).toBe(200);
    const html = await text(res);
    expect(html).toContain("Amount must be a number.");
    // No figures beside the error: they would be of other inputs than those on the page.
    expect(html).not.toContain('data-testid="emi">');
    expect(html).toContain("Correct the highlighted field to see the EMI");
  });

  it("downloads the schedule as CSV", async () => {
    const res = await app.get("/EmiCalculator/schedule.csv?amount=100&rate=12&months=6");
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toContain("attachment");
    const lines = (await res.text()).trim().split("\r\n");
    expect(lines).toHaveLength(8);
    expect(lines[1]).toBe("1,100.00,1.00,16.25,17.25,83.75");
    expect(lines[6]).toBe("6,17.11,0.17,17.11,17.28,0.00");
  });

  it("Rate-terms shows live product terms and a worked example equal to the API's", async () => {
    const html = await text(await app.get("/Rate-terms"));
    for (const fact of [
      "₹10,000 to ₹5,00,000",
      "3 to 36 monthly instalments",
      "14% to 24% a year",
      "2% of the amount, at least ₹499, plus 18% GST",
      "₹500 for each missed instalment",
      "Within 3 days of disbursal you may cancel the loan with no penalty",
    ]) {
      expect(html).toContain(fact);
    }
    const link = /href="\/EmiCalculator\?([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(link).toBe("amount=100000&rate=18&months=12&fee=2360");
    const api = await (await app.get(`/api/emi?${link}`)).json();
    expect(html).toContain(`data-testid="emi-example-apr">${api.aprPercent.toFixed(2)}%<`);
    expect(html).toContain("₹9,168");
    expect(api.emiPaise).toBe(916_800);
  });
});

describe("reference lookups over HTTP", () => {
  it("answers PIN codes and IFSCs from the shipped data, 404 for unknown ones", async () => {
    const pin = await app.get("/api/pincode/110001");
    expect(pin.status).toBe(200);
    expect((await pin.json()).state).toMatch(/Delhi/i);
    expect((await app.get("/api/pincode/999999")).status).toBe(404);
    const ifsc = await app.get("/api/ifsc/SBIN0000001");
    expect(await ifsc.json()).toMatchObject({ bankName: "State Bank of India" });
    const unknown = await app.get("/api/ifsc/SBIN0999999");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).field).toBe("ifsc");
  });
});
