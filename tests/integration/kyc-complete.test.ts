import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...new Array(64).fill(3), 0xff, 0xd9]);
const pdf = Buffer.from("%PDF-1.4\n%%EOF\n");

describe("a borrower completing every KYC section", () => {
  it("goes from 0 to 7 of 7 and becomes ready for both loans", async () => {
    const { cookie } = await signedInBorrower(app, "9830000001");
    const origin = new URL(app.url).origin;
    const form = (p: string, fields: Record<string, string>) =>
      app.get(p, { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: origin } });
    const upload = (p: string, kind: string, bytes: Buffer, name: string) => {
      const body = new FormData();
      body.set("kind", kind);
      body.set("file", new Blob([new Uint8Array(bytes)]), name);
      return app.get(p, { method: "POST", body, headers: { Cookie: cookie, Origin: origin } });
    };
    const overview = async () => (await (await app.get("/User/Profile", { headers: { Cookie: cookie } })).text()).replaceAll("<!-- -->", "");

    expect(await overview()).toContain("0 of 7 sections complete.");
    const steps: Array<() => Promise<Response>> = [
      () => form("/User/Profile/components/Profile", { fullName: "Neha Gupta", dateOfBirth: "1992-06-15", gender: "female", email: "neha@example.com", pan: "ABCPG4321K", aadhaar: "234123412346", maritalStatus: "married", consentKyc: "on" }),
      () => form("/User/Profile/components/Address", { currentLine1: "4, Park Street", currentPincode: "700016", residenceType: "owned", yearsAtAddress: "10", permanentSame: "on" }),
      () => form("/User/Profile/components/Employment", { employmentType: "salaried", employerName: "Acme Ltd", designation: "Analyst", netMonthlyIncome: "60000", existingEmis: "0", salaryDay: "28", monthsWithEmployer: "40" }),
      () => form("/User/Profile/components/Bank", { holderName: "Neha Gupta", accountNumber: "50100012345678", accountNumber_confirm: "50100012345678", ifsc: "HDFC0000001", accountType: "salary" }),
      () => form("/User/Profile/components/Reference", { ref1Name: "Amit Gupta", ref1Relation: "spouse", ref1Mobile: "9830000002", ref2Name: "Sara Das", ref2Relation: "friend", ref2Mobile: "9830000003" }),
    ];
    for (const step of steps) expect((await step()).status).toBe(302);
    for (const kind of ["pan_card", "aadhaar_front", "aadhaar_back", "salary_slip_1"]) {
      expect((await upload("/User/Profile/components/Documents", kind, jpeg, `${kind}.jpg`)).status).toBe(302);
    }
    expect((await upload("/User/Profile/components/Selfie", "selfie", jpeg, "me.jpg")).status).toBe(302);
    let html = await overview();
    expect(html).toContain('data-testid="sa-ready">Ready to apply.');
    expect(html).toContain("Still needed: Documents.");
    for (const kind of ["salary_slip_2", "salary_slip_3", "bank_statement"]) {
      expect((await upload("/User/Profile/components/Documents", kind, pdf, `${kind}.pdf`)).status).toBe(302);
    }
    html = await overview();
    expect(html).toContain("7 of 7 sections complete.");
    expect(html).toContain('data-testid="emi-ready">Ready to apply.');
  });
});
