import { readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nameMatchScore } from "../../app/domain/kyc/references-bank-schema.ts";
import { decrypt } from "../../app/server/crypto.server.ts";
import { borrowerBankAccounts, borrowerReferences } from "../../app/server/db/schema.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { postForm } from "../helpers/http.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

let n = 0;
const borrower = () => {
  const mobile = `98600${String(n++).padStart(5, "0")}`;
  return signedInBorrower(app, mobile).then((b) => ({ ...b, mobile }));
};
const post = (p: string, cookie: string, fields: Record<string, string>) => postForm(app, p, fields, { cookie });
const profile = (pan: string) => ({
  fullName: "Asha Rani Verma",
  dateOfBirth: "1990-01-01",
  gender: "female",
  email: "asha@example.com",
  pan,
  aadhaar: "234123412346",
  maritalStatus: "single",
  consentKyc: "on",
});
const BANK = "/User/Profile/components/Bank";
const bank = {
  holderName: "Asha R Verma",
  accountNumber: "123456789012",
  accountNumber_confirm: "123456789012",
  ifsc: "SBIN0000001",
  accountType: "savings",
};
let panSerial = 1000;
const nextPan = () => `ABCPV${panSerial++}K`;

describe("name match score", () => {
  it("scores word overlap, ignoring case, titles and accepting initials", () => {
    expect(nameMatchScore("Asha Rani Verma", "ASHA RANI VERMA")).toBe(100);
    expect(nameMatchScore("Asha Rani Verma", "Mrs. Asha R. Verma")).toBe(100);
    expect(nameMatchScore("Asha Rani Verma", "Asha Verma")).toBe(80);
    expect(nameMatchScore("Asha Rani Verma", "Ravi Kumar")).toBe(0);
  });
});

describe("Bank section", () => {
  it("saves the account encrypted and masked, fills the bank's name, and verifies a matching name", async () => {
    const { cookie, userId } = await borrower();
    expect((await post("/User/Profile/components/Profile", cookie, profile(nextPan()))).status).toBe(302);
    expect((await post(BANK, cookie, bank)).status).toBe(302);
    const [row] = await app.services.db.select().from(borrowerBankAccounts).where(eq(borrowerBankAccounts.userId, userId));
    expect(row).toMatchObject({
      accountMasked: "XXXXXXXX9012",
      bankName: "State Bank of India",
      nameAtBank: "Asha R Verma",
      nameMatchScore: 100,
    });
    expect(row?.verifiedAt).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain("123456789012");
    expect(decrypt(app.services.keyring, row?.accountNumberEnc ?? "")).toBe("123456789012");
    const log = readFileSync(path.join(app.dataDir, "bank-verification", "requests.jsonl"), "utf8");
    expect(log).toContain('"account":"XXXX9012"');
    expect(log).not.toContain("123456789012");
    const html = await (await app.get(BANK, { headers: { Cookie: cookie } })).text();
    expect(html).toContain("Verified account");
    expect(html).toContain("XXXXXXXX9012");
  });

  it("saves but does not verify an account whose name does not match", async () => {
    const { cookie, userId } = await borrower();
    await post("/User/Profile/components/Profile", cookie, profile(nextPan()));
    await post(BANK, cookie, { ...bank, holderName: "Ravi Kumar" });
    const [row] = await app.services.db.select().from(borrowerBankAccounts).where(eq(borrowerBankAccounts.userId, userId));
    expect(row?.verifiedAt).toBeNull();
    expect(row?.nameMatchScore).toBe(0);
  });

  it.each([
    [{ accountNumber_confirm: "123456789013" }, "The two account numbers are not the same."],
    [{ accountNumber: "12345", accountNumber_confirm: "12345" }, "9 to 18 digits"],
    [{ ifsc: "SBIN0999999" }, "We do not know this IFSC."],
    [{ ifsc: "SBIN123" }, "11-character IFSC"],
    [{ holderName: "A1" }, "letters and spaces"],
  ])("refuses %o and stores nothing", async (change, message) => {
    const { cookie, userId } = await borrower();
    await post("/User/Profile/components/Profile", cookie, profile(nextPan()));
    const res = await post(BANK, cookie, { ...bank, ...change } as Record<string, string>);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
    expect(await app.services.db.select().from(borrowerBankAccounts).where(eq(borrowerBankAccounts.userId, userId))).toEqual([]);
  });

  it("asks for the profile first, since verification compares names", async () => {
    const { cookie } = await borrower();
    const res = await post(BANK, cookie, bank);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Save your personal details first");
  });
});

describe("Reference section", () => {
  const REF = "/User/Profile/components/Reference";
  const refs = {
    ref1Name: "Meena Iyer",
    ref1Relation: "friend",
    ref1Mobile: "9811122233",
    ref2Name: "Kiran Rao",
    ref2Relation: "colleague",
    ref2Mobile: "+91 98111 22244",
  };

  it("saves two references", async () => {
    const { cookie, userId } = await borrower();
    expect((await post(REF, cookie, refs)).status).toBe(302);
    const rows = await app.services.db.select().from(borrowerReferences).where(eq(borrowerReferences.userId, userId));
    expect(rows.map((r) => [r.position, r.name, r.mobile]).sort()).toEqual([
      [1, "Meena Iyer", "9811122233"],
      [2, "Kiran Rao", "9811122244"],
    ]);
  });

  it("refuses the borrower's own number and two equal numbers", async () => {
    const { cookie, mobile, userId } = await borrower();
    const own = await post(REF, cookie, { ...refs, ref1Mobile: mobile });
    expect(own.status).toBe(400);
    expect(await own.text()).toContain("not your own");
    const same = await post(REF, cookie, { ...refs, ref2Mobile: "9811122233" });
    expect(await same.text()).toContain("different mobile numbers");
    const bad = await post(REF, cookie, { ...refs, ref2Mobile: "12345" });
    expect(await bad.text()).toContain("valid 10-digit Indian mobile number");
    expect(await app.services.db.select().from(borrowerReferences).where(eq(borrowerReferences.userId, userId))).toEqual([]);
  });
});
