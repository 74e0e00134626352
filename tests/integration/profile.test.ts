import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decrypt } from "../../app/server/crypto.server.ts";
import { borrowerProfiles, consents } from "../../app/server/db/schema.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { postForm } from "../helpers/http.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({}, { now: () => new Date("2026-11-22T06:00:00Z") });
});
afterAll(async () => {
  await app?.stop();
});

const PATH = "/User/Profile/components/Profile";
const valid = {
  fullName: "Asha  Rani Verma",
  dateOfBirth: "1995-04-10",
  gender: "female",
  email: "Asha@Example.com",
  pan: "abcpv1234f",
  aadhaar: "2341 2341 2346",
  maritalStatus: "single",
  consentKyc: "on",
  consentCommunications: "on",
};
const post = (cookie: string, fields: Record<string, string>) => postForm(app, PATH, fields, { cookie });

describe("KYC Profile section", () => {
  it("saves valid data: PAN encrypted and masked, Aadhaar as its last 4 digits, consents logged", async () => {
    const { cookie, userId } = await signedInBorrower(app, "9900000001");
    const res = await post(cookie, valid);
    expect(res.status).toBe(302);
    const [row] = await app.services.db.select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, userId));
    expect(row).toMatchObject({ fullName: "Asha Rani Verma", email: "asha@example.com", aadhaarLast4: "2346", panMasked: "XXXXXX234F" });
    expect(JSON.stringify(row)).not.toContain("ABCPV1234F");
    expect(JSON.stringify(row)).not.toContain("234123412346");
    expect(decrypt(app.services.keyring, row?.panEnc ?? "")).toBe("ABCPV1234F");
    const logged = await app.services.db.select().from(consents).where(eq(consents.userId, userId));
    expect(logged.map((c) => [c.purpose, c.granted, c.ip])).toEqual([
      ["kyc", true, "127.0.0.1"],
      ["communications", true, "127.0.0.1"],
    ]);
    const page = await (await app.get(PATH, { headers: { Cookie: cookie } })).text();
    expect(page).toContain("Saved: XXXXXX234F");
    expect(page).toContain("Saved: XXXX XXXX 2346");
    expect(page).not.toContain("ABCPV1234F");
  });

  it.each([
    ["fullName", "A1", "Use letters and spaces only."],
    ["dateOfBirth", "2010-01-01", "at least 21"],
    ["email", "not-mail", "valid e-mail"],
    ["pan", "ABCDE1234F", "4th letter must be P"],
    ["aadhaar", "234123412347", "Aadhaar number is not valid"],
    ["gender", "robot", "Choose one."],
    ["consentKyc", "", "We need your consent"],
  ])("refuses a bad %s with its message and stores nothing", async (field, value, message) => {
    const { cookie, userId } = await signedInBorrower(app, `99000${String(Math.floor(Math.random() * 1e5)).padStart(5, "0")}`);
    const res = await post(cookie, { ...valid, [field]: value });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
    expect(await app.services.db.select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, userId))).toEqual([]);
  });

  it("refuses a form without the KYC consent box (an unticked box is not sent at all)", async () => {
    const { cookie, userId } = await signedInBorrower(app, "9900000019");
    const { consentKyc: _unticked, ...rest } = valid;
    const res = await post(cookie, rest);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("We need your consent to check your KYC details.");
    expect(await app.services.db.select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, userId))).toEqual([]);
  });

  it("refuses a second account with the same PAN", async () => {
    const first = await signedInBorrower(app, "9900000008");
    expect((await post(first.cookie, { ...valid, pan: "ABCPE4321G" })).status).toBe(302);
    const { cookie } = await signedInBorrower(app, "9900000009");
    const res = await post(cookie, { ...valid, pan: "abcpe4321g", email: "other@example.com" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("This PAN is already registered with another account.");
  });

  it("never shows one borrower's profile to another", async () => {
    const owner = await signedInBorrower(app, "9900000011");
    expect((await post(owner.cookie, { ...valid, fullName: "Kavya Menon", pan: "ABCPM5678H" })).status).toBe(302);
    const other = await signedInBorrower(app, "9900000010");
    const page = await (await app.get(PATH, { headers: { Cookie: other.cookie } })).text();
    expect(page).not.toContain("Kavya Menon");
    expect(page).not.toContain("XXXXXX678H");
    expect((await app.get(PATH)).status).toBe(302);
  });
});

describe("nothing valid is lost", () => {
  it("keeps typed values and chosen options when one field is wrong", async () => {
    const { cookie } = await signedInBorrower(app, "9900000077");
    const res = await post(cookie, { ...valid, pan: "bad", gender: "male", maritalStatus: "married" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('value="Asha  Rani Verma"');
    expect(html).toMatch(/<option value="male" selected="">/);
    expect(html).toMatch(/<option value="married" selected="">/);
    // The Aadhaar number is never echoed back.
    expect(html).not.toContain("2341 2341 2346");
  });
});
