import { eq } from "drizzle-orm";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../app/server/db/schema.ts";
import { activeLoan, signedInStaff } from "../helpers/applications.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// A loan's servicing PDFs follow the borrower's language (users.language), through the built server.
let app: TestServer;
let credit: { cookie: string };
let ops: { cookie: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }, { now: () => new Date("2026-03-02T05:30:00Z") });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
});
afterAll(async () => {
  await app?.stop();
});

const pdfText = async (res: Response) => (await extractText(new Uint8Array(await res.arrayBuffer()), { mergePages: true })).text as string;
const money = (text: string) => text.match(/₹ ?\d+(?:,\d+)*(?:\.\d\d)?|\d+(?:\.\d+)?%/g) ?? [];

describe("the servicing PDFs in the borrower's language", () => {
  it("gives a Hindi borrower the repayment schedule and statement in Hindi, with the English ones' figures", async () => {
    const b = await activeLoan(app, "9710077001", credit, ops);
    const get = (path: string) => app.get(path, { headers: { Cookie: b.cookie } });
    const paths = [
      `/User/Loans/${b.loanNumber}/schedule.pdf`,
      `/User/Loans/${b.loanNumber}/statement.pdf?from=${b.disbursalDate}&to=${b.disbursalDate}`,
    ];
    const english = await Promise.all(paths.map(async (p) => pdfText(await get(p))));
    expect(english[0]).toContain("Repayment schedule");
    await app.services.db.update(users).set({ language: "hi" }).where(eq(users.id, b.userId));
    const hindi = await Promise.all(paths.map(async (p) => pdfText(await get(p))));
    expect(hindi[0]).toContain("किस्तों की सूची");
    expect(hindi[1]).toContain("खाते का स्टेटमेंट");
    // Each entry's words too (the statement namespace): the disbursal line.
    expect(english[1]).toContain("Loan disbursed");
    expect(hindi[1]).toContain("लोन की राशि");
    expect(hindi[1]).not.toContain("Loan disbursed");
    for (const [i, text] of hindi.entries()) expect(money(text)).toEqual(money(english[i] as string));
  });
});
