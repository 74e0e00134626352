// The applications in Hindi: every quick-start step and every new-loan step of both kinds, the
// signed agreement's page, and a form refused in Hindi (docs/product.md "Languages").
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loanApplications, loanSignatures } from "../../app/server/db/schema.ts";
import { startedApplication } from "../helpers/applications.ts";
import { englishLeft, shownMarkup } from "../helpers/english.ts";
import { postForm } from "../helpers/http.ts";
import { latestCode } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";

// A Monday morning in India.
const clock = new Date("2026-11-23T04:30:00Z");
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({}, { now: () => clock });
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replace(/<!-- -->/g, "");
const hindi = (cookie: string) => `${cookie}; lang=hi`;
const get = (path: string, cookie: string) => app.get(path, { headers: { Cookie: hindi(cookie) } });
const post = (path: string, cookie: string, fields: Record<string, string>) => postForm(app, path, fields, { cookie: hindi(cookie) });

/** What a Hindi page may show in Latin letters besides the kept terms: the configured names, and the borrower's own. */
function allowed(): string[] {
  const { brandName, lender } = app.config.public;
  const p = defaultProfile();
  return [brandName, lender.name, lender.address, lender.rbiRegistration, lender.cin, lender.grievanceOfficer.name, p.name];
}

/**
 * What these pages put in Hindi: the title and the page's own content. The signed-in frame around it
 * (app/routes/user/layout.tsx: the menu, the footer's note) has its own words, translated apart.
 */
function ownContent(page: string): string {
  const title = /<title>[\s\S]*?<\/title>/.exec(page)?.[0] ?? "";
  const main = /<main id="main"[\s\S]*<\/main>/.exec(page)?.[0];
  return main ? `<html>${title}<body>${main}</body></html>` : page;
}

/** The page answers 200 in Hindi with no English left in its own content (a document's SHA-256 is a code). */
async function hindiPage(path: string, cookie: string, more: readonly string[] = []) {
  const res = await get(path, cookie);
  expect(res.status, path).toBe(200);
  const page = await html(res);
  const hashes = page.match(/\b[0-9a-f]{64}\b/g) ?? [];
  expect(page, path).toContain('<html lang="hi-IN"');
  expect(englishLeft(ownContent(page), [...allowed(), ...more, ...hashes]), `${path} in Hindi`).toEqual([]);
  return page;
}

let mobileSerial = 9_720_000_000;
const newBorrower = async () => {
  const mobile = String(mobileSerial++);
  return { mobile, ...(await signedInBorrower(app, mobile)) };
};

describe("the quick start in Hindi", { shuffle: false }, () => {
  it("shows every step in Hindi, from the loan to the consents", async () => {
    const b = await newBorrower();
    const p = defaultProfile();
    const answers: Record<string, string>[] = [
      { product: "emi", amount: "200000" },
      { fullName: p.name, dateOfBirth: p.dateOfBirth, pan: p.pan },
      { pincode: "560001" },
      { employmentType: "salaried", netMonthlyIncome: "60000", salaryDay: "28" },
      { existingEmis: "0", consentBureau: "on" },
    ];
    for (const [step, fields] of answers.entries()) {
      await hindiPage(`/quickStart/Step${step}`, b.cookie);
      const res = await post(`/quickStart/Step${step}`, b.cookie, { intent: "next", ...fields });
      expect(res.headers.get("location"), `Step${step}`).toBe(`/quickStart/Step${step + 1}`);
    }
    const offer = await hindiPage("/quickStart/Step5", b.cookie);
    expect(shownMarkup(offer)).toContain("यह ऑफ़र लें");
    expect((await post("/quickStart/Step5", b.cookie, { intent: "next", product: "emi", tenure: "24" })).headers.get("location")).toBe(
      "/quickStart/Step6",
    );
    await hindiPage("/quickStart/Step6", b.cookie);
    // The consent refused: the field's message in Hindi.
    const refused = await post("/quickStart/Step6", b.cookie, { intent: "next" });
    expect(refused.status).toBe(400);
    const page = await html(refused);
    expect(shownMarkup(page)).toContain("आपकी KYC जानकारी जाँचने के लिए हमें आपकी सहमति चाहिए।");
  });

  it("says an amount's problem in Hindi, next to the field", async () => {
    const b = await newBorrower();
    const res = await post("/quickStart/Step0", b.cookie, { intent: "next", product: "emi", amount: "abc" });
    expect(res.status).toBe(400);
    const page = shownMarkup(await html(res));
    expect(page).toContain("राशि रुपयों में दर्ज करें, जैसे 50000।");
    expect(englishLeft(ownContent(page), allowed())).toEqual([]);
  });
});

describe("a loan application in Hindi", { shuffle: false }, () => {
  it("shows every step of an EMI loan in Hindi, the signing and the signed agreement", async () => {
    const b = await newBorrower();
    const profile = defaultProfile();
    await completeProfile(app, b.cookie, profile, b.mobile);
    await hindiPage("/User/newLoan/Emi", b.cookie);
    const ref = await startedApplication(app, b.cookie, "Emi");
    const step = (s: string) => `/User/newLoan/Emi/${ref}/${s}`;
    const number = [ref.slice(0, 8).toUpperCase()];
    await hindiPage(step("Step0"), b.cookie, number);
    expect((await post(step("Step0"), b.cookie, { amount: "1,00,000", tenure: "12" })).status).toBe(302);
    await hindiPage(step("Step1"), b.cookie, [...number, ...BANK]);
    // The purpose left out: the field's message in Hindi.
    const refused = await post(step("Step1"), b.cookie, { disbursalConsent: "yes" });
    expect(refused.status).toBe(400);
    expect(shownMarkup(await html(refused))).toContain("चुनें कि लोन किस लिए है।");
    expect((await post(step("Step1"), b.cookie, { purpose: "medical", disbursalConsent: "yes" })).status).toBe(302);
    const kfs = await hindiPage(step("Step5"), b.cookie, [...number, ref.toUpperCase(), ...BANK]);
    // The KFS itself was issued in Hindi, for the page asked in Hindi: its parts and schedule too.
    expect(shownMarkup(kfs)).toContain('<section class="card" aria-label="भाग 1 — ब्याज दर, फ़ीस और शुल्क" lang="hi-IN">');
    const signing = await hindiPage(step("Step6"), b.cookie, number);
    const documentId = /name="documentId" value="([0-9a-f-]{36})"/.exec(signing)?.[1] ?? "";
    const sent = await post(step("Step6"), b.cookie, { intent: "send" });
    expect(shownMarkup(await html(sent))).toContain("6 अंकों का OTP भेजा है");
    const wrong = await post(step("Step6"), b.cookie, { intent: "sign", documentId, accept: "yes", code: "000000" });
    expect(wrong.status).toBe(400);
    const wrongPage = shownMarkup(await html(wrong));
    expect(wrongPage).toContain("यह OTP सही नहीं है");
    expect(englishLeft(ownContent(wrongPage), [...allowed(), ...number, ...(wrongPage.match(/\b[0-9a-f]{64}\b/g) ?? [])])).toEqual([]);
    const code = latestCode(app.dataDir, b.mobile);
    expect((await post(step("Step6"), b.cookie, { intent: "sign", documentId, accept: "yes", code })).status).toBe(302);
    await hindiPage(step("Step7"), b.cookie, [...number, ...BANK]);
    // The page signing lands on shows the status with StatusNote (applyFlow, loans).
    await hindiPage(`/success/${ref}`, b.cookie, number);
    const [row] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    const [signature] = await app.services.db
      .select()
      .from(loanSignatures)
      .where(eq(loanSignatures.applicationId, row?.id ?? ""));
    await hindiPage(`/Eagreement/${signature?.agreementRef}`, b.cookie);
  });

  it("shows a salary advance's start and first step in Hindi", async () => {
    const b = await newBorrower();
    await completeProfile(app, b.cookie, defaultProfile({ employmentType: "salaried" }), b.mobile);
    await hindiPage("/User/newLoan/salaryAdvance", b.cookie);
    const ref = await startedApplication(app, b.cookie, "salaryAdvance");
    await hindiPage(`/User/newLoan/salaryAdvance/${ref}/Step0`, b.cookie, [ref.slice(0, 8).toUpperCase()]);
  });
});

/** The bank's name, as the IFSC directory writes it. */
const BANK = ["HDFC Bank"];
