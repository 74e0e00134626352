import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { borrowerDocuments } from "../../app/server/db/schema.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { postForm, postUpload } from "../helpers/http.ts";

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
    const form = (p: string, fields: Record<string, string>) => postForm(app, p, fields, { cookie });
    const upload = (p: string, kind: string, bytes: Buffer, name: string) => postUpload(app, p, { kind, bytes, name }, cookie);
    const overview = async () =>
      (await (await app.get("/User/Profile", { headers: { Cookie: cookie } })).text()).replaceAll("<!-- -->", "");

    expect(await overview()).toContain("0 of 7 sections complete.");
    const steps: Array<() => Promise<Response>> = [
      () =>
        form("/User/Profile/components/Profile", {
          fullName: "Neha Gupta",
          dateOfBirth: "1992-06-15",
          gender: "female",
          email: "neha@example.com",
          pan: "ABCPG4321K",
          aadhaar: "234123412346",
          maritalStatus: "married",
          consentKyc: "on",
        }),
      () =>
        form("/User/Profile/components/Address", {
          currentLine1: "4, Park Street",
          currentPincode: "700016",
          residenceType: "owned",
          yearsAtAddress: "10",
          permanentSame: "on",
        }),
      () =>
        form("/User/Profile/components/Employment", {
          employmentType: "salaried",
          employerName: "Acme Ltd",
          designation: "Analyst",
          netMonthlyIncome: "60000",
          existingEmis: "0",
          salaryDay: "28",
          monthsWithEmployer: "40",
        }),
      () =>
        form("/User/Profile/components/Bank", {
          holderName: "Neha Gupta",
          accountNumber: "50100012345678",
          accountNumber_confirm: "50100012345678",
          ifsc: "HDFC0000001",
          accountType: "salary",
        }),
      () =>
        form("/User/Profile/components/Reference", {
          ref1Name: "Amit Gupta",
          ref1Relation: "spouse",
          ref1Mobile: "9830000002",
          ref2Name: "Sara Das",
          ref2Relation: "friend",
          ref2Mobile: "9830000003",
        }),
    ];
    for (const step of steps) expect((await step()).status).toBe(302);
    for (const kind of ["pan_card", "aadhaar_front", "aadhaar_back", "salary_slip_1"]) {
      expect((await upload("/User/Profile/components/Documents", kind, jpeg, `${kind}.jpg`)).status).toBe(302);
    }
    expect((await upload("/User/Profile/components/Selfie", "selfie", jpeg, "me.jpg")).status).toBe(302);
    let html = await overview();
    expect(html).toContain('data-testid="sa-ready">Ready to apply.');
    expect(html).toContain("Still needed: Salary slip, month before, Salary slip, two months before, Bank statement.");
    for (const kind of ["salary_slip_2", "salary_slip_3", "bank_statement"]) {
      expect((await upload("/User/Profile/components/Documents", kind, pdf, `${kind}.pdf`)).status).toBe(302);
    }
    html = await overview();
    expect(html).toContain("7 of 7 sections complete.");
    expect(html).toContain('data-testid="emi-ready">Ready to apply.');

    // Another borrower: 404 for every document and selfie URL, and none of the section data.
    const other = await signedInBorrower(app, "9830000009");
    const docs = await app.services.db.select().from(borrowerDocuments);
    expect(docs.length).toBe(8);
    for (const doc of docs) {
      expect((await app.get(`/User/Profile/documents/${doc.id}`, { headers: { Cookie: other.cookie } })).status).toBe(404);
      const del = await postForm(app, "/User/Profile/components/Documents", { intent: "delete", id: doc.id }, { cookie: other.cookie });
      expect(del.status).toBe(404);
    }
    for (const section of ["Profile", "Address", "Employment", "Bank", "Reference", "Documents", "Selfie"]) {
      const page = await (await app.get(`/User/Profile/components/${section}`, { headers: { Cookie: other.cookie } })).text();
      for (const secret of [
        "Neha Gupta",
        "XXXXXX321K",
        "4, Park Street",
        "Acme Ltd",
        "XXXXXXXXXX5678",
        "Amit Gupta",
        "salary_slip_1.jpg",
        "me.jpg",
      ]) {
        expect(page, `${section} shows ${secret}`).not.toContain(secret);
      }
    }
    expect((await (await app.get("/User/Profile", { headers: { Cookie: other.cookie } })).text()).replaceAll("<!-- -->", "")).toContain(
      "0 of 7 sections complete.",
    );

    // A full dump of the database holds no whole Aadhaar, no clear PAN and no clear account number.
    const tables = (await app.services.db.execute(
      sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    )) as unknown as { rows: { table_name: string }[] };
    let dump = "";
    for (const { table_name } of tables.rows) {
      const rows = (await app.services.db.execute(sql.raw(`select * from "${table_name}"`))) as unknown as { rows: unknown[] };
      dump += JSON.stringify(rows.rows);
    }
    expect(tables.rows.length).toBeGreaterThan(10);
    expect(dump).toContain("Neha Gupta");
    for (const secret of ["234123412346", "ABCPG4321K", "abcpg4321k", "50100012345678"]) expect(dump).not.toContain(secret);
  });
});
