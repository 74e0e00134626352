import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { borrowerAddresses, borrowerEmployment } from "../../app/server/db/schema.ts";
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
const borrower = () => signedInBorrower(app, `98700${String(n++).padStart(5, "0")}`);
const post = (path: string, cookie: string, fields: Record<string, string>) => postForm(app, path, fields, { cookie });

const ADDRESS = "/User/Profile/components/Address";
const address = {
  currentLine1: "12, MG Road",
  currentLine2: "Shivajinagar",
  currentPincode: "560001",
  residenceType: "rented",
  yearsAtAddress: "3",
  permanentSame: "on",
};
const EMPLOYMENT = "/User/Profile/components/Employment";
const employment = {
  employmentType: "salaried",
  employerName: "Acme Software Pvt Ltd",
  designation: "Engineer",
  netMonthlyIncome: "45,000",
  existingEmis: "5000",
  salaryDay: "1",
  monthsWithEmployer: "26",
};

describe("Address section", () => {
  it("saves the address with city, district and state from the PIN code", async () => {
    const { cookie, userId } = await borrower();
    expect((await post(ADDRESS, cookie, address)).status).toBe(302);
    const [row] = await app.services.db.select().from(borrowerAddresses).where(eq(borrowerAddresses.userId, userId));
    expect(row).toMatchObject({ currentPincode: "560001", permanentSame: true, permanentPincode: "560001", yearsAtAddress: 3 });
    expect(row?.currentState).toMatch(/Karnataka/i);
    expect(row?.currentDistrict).toMatch(/Bangalore|Bengaluru/i);
  });

  it.each([
    [{ currentPincode: "999999" }, "We do not know this PIN code."],
    [{ currentPincode: "012345" }, "cannot start with 0"],
    [{ currentLine1: "" }, "Enter the house number and street"],
    [{ yearsAtAddress: "-1" }, "0 or more years"],
    [{ permanentSame: "", permanentLine1: "" }, "Enter your permanent address"],
    [{ residenceType: "castle" }, "Choose one."],
  ])("refuses %o and stores nothing", async (change, message) => {
    const { cookie, userId } = await borrower();
    const res = await post(ADDRESS, cookie, { ...address, ...change } as Record<string, string>);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
    expect(await app.services.db.select().from(borrowerAddresses).where(eq(borrowerAddresses.userId, userId))).toEqual([]);
  });
});

describe("Employment section", () => {
  it("saves income and EMIs in paise and the salary day", async () => {
    const { cookie, userId } = await borrower();
    expect((await post(EMPLOYMENT, cookie, employment)).status).toBe(302);
    const [row] = await app.services.db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, userId));
    expect(row).toMatchObject({ netMonthlyIncomePaise: 4_500_000, existingEmiPaise: 500_000, salaryDay: 1, monthsWithEmployer: 26 });
  });

  it("needs no salary day from the self-employed", async () => {
    const { cookie, userId } = await borrower();
    expect((await post(EMPLOYMENT, cookie, { ...employment, employmentType: "self_employed", salaryDay: "" })).status).toBe(302);
    const [row] = await app.services.db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, userId));
    expect(row?.salaryDay).toBeNull();
  });

  it.each([
    [{ salaryDay: "32" }, "from 1 to 31"],
    [{ netMonthlyIncome: "lots" }, "in rupees, like 45000"],
    [{ existingEmis: "" }, "existing monthly EMIs"],
    [{ employmentType: "" }, "Choose one."],
  ])("refuses %o and stores nothing", async (change, message) => {
    const { cookie, userId } = await borrower();
    const res = await post(EMPLOYMENT, cookie, { ...employment, ...change } as Record<string, string>);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
    expect(await app.services.db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, userId))).toEqual([]);
  });

  it("shows each borrower only their own sections", async () => {
    const a = await borrower();
    await post(EMPLOYMENT, a.cookie, { ...employment, employerName: "Secret Employer Ltd" });
    await post(ADDRESS, a.cookie, { ...address, currentLine1: "99, Hidden Lane" });
    const b = await borrower();
    for (const path of [EMPLOYMENT, ADDRESS]) {
      const html = await (await app.get(path, { headers: { Cookie: b.cookie } })).text();
      expect(html).not.toContain("Secret Employer Ltd");
      expect(html).not.toContain("99, Hidden Lane");
    }
  });
});
