import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRupees } from "../../app/domain/money.ts";
import {
  borrowerAddresses,
  borrowerBankAccounts,
  borrowerEmployment,
  borrowerProfiles,
  consents,
  funnelEvents,
  loanApplications,
  quickStarts,
} from "../../app/server/db/schema.ts";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { postForm } from "../helpers/http.ts";
import { shownMarkup } from "../helpers/english.ts";
import { signInByCode as signInWithCode } from "../helpers/process.ts";

// A Monday morning in India.
const clock = new Date("2026-11-23T04:30:00Z");
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({}, { now: () => clock });
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");
const get = (path: string, cookie: string) => app.get(path, { headers: { Cookie: cookie } });
const post = (path: string, cookie: string, fields: Record<string, string>) => postForm(app, path, fields, { cookie });
const stepZero = async (userId: string) => {
  const [row] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, userId));
  return `/User/newLoan/Emi/${row?.reference}/Step0`;
};
const progressOf = async (userId: string) => (await app.services.db.select().from(quickStarts).where(eq(quickStarts.userId, userId)))[0];

interface Answers {
  product: string;
  amount: string;
  fullName: string;
  dateOfBirth: string;
  pan: string;
  pincode: string;
  employmentType: string;
  netMonthlyIncome: string;
  salaryDay: string;
  existingEmis: string;
  /** The consent to the credit bureau enquiry, asked with the existing EMIs. */
  consentBureau: string;
}
const answers = (overrides: Partial<Answers> = {}): Answers => {
  const p = defaultProfile();
  return {
    product: "emi",
    amount: "200000",
    fullName: p.name,
    dateOfBirth: p.dateOfBirth,
    pan: p.pan,
    pincode: "560001",
    employmentType: "salaried",
    netMonthlyIncome: "60000",
    salaryDay: "28",
    existingEmis: "0",
    consentBureau: "on",
    ...overrides,
  };
};
const STEP_FIELDS: (keyof Answers)[][] = [
  ["product", "amount"],
  ["fullName", "dateOfBirth", "pan"],
  ["pincode"],
  ["employmentType", "netMonthlyIncome", "salaryDay"],
  ["existingEmis", "consentBureau"],
];
const fieldsOf = (a: Answers, step: number) => Object.fromEntries((STEP_FIELDS[step] ?? []).map((k) => [k, a[k]]));

/** Answers steps 0 … last-1 (each must move on to the next). */
async function answerSteps(cookie: string, a: Answers, last = 5) {
  for (let step = 0; step < last; step++) {
    const res = await post(`/quickStart/Step${step}`, cookie, { intent: "next", ...fieldsOf(a, step) });
    expect(res.status, `Step${step}: ${res.status === 400 ? (await res.text()).slice(0, 200) : ""}`).toBe(302);
    expect(res.headers.get("location")).toBe(`/quickStart/Step${step + 1}`);
  }
}

let mobileSerial = 9_700_000_000;
const newBorrower = () => signedInBorrower(app, String(mobileSerial++));

describe("the quick start journey", () => {
  type Stage = "begun" | "offer" | "offerTaken" | "continued";
  /**
   * A new borrower whose quick start is at `stage`, each test with its own: begun (nothing
   * answered), offer (Step0–4 answered), offerTaken (the EMI loan at 24 months), continued (the
   * consents given and the application opened).
   */
  async function journey(stage: Stage) {
    const b = await newBorrower();
    const a = answers();
    if (stage === "begun") return { b, a };
    await answerSteps(b.cookie, a, 5);
    if (stage === "offer") return { b, a };
    expect((await post("/quickStart/Step5", b.cookie, { intent: "next", product: "emi", tenure: "24" })).headers.get("location")).toBe(
      "/quickStart/Step6",
    );
    if (stage === "offerTaken") return { b, a };
    expect((await post("/quickStart/Step6", b.cookie, { intent: "next", consentKyc: "on", consentCommunications: "on" })).status).toBe(302);
    return { b, a };
  }

  it("asks a visitor for the mobile code first, and brings them back to the step", async () => {
    const res = await app.get("/quickStart/Step2");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/quickStart/Otp?redirectTo=%2FquickStart%2FStep2");
    const intro = await html(await app.get("/quickStart"));
    expect(intro).toContain("Quick start");
    expect(intro).toContain('href="/quickStart/components"');
  });

  it("starts at Step0 and sends a borrower who jumps ahead back to the first step not done", async () => {
    const { b } = await journey("begun");
    const resume = await get("/quickStart/components", b.cookie);
    expect(resume.headers.get("location")).toBe("/quickStart/Step0");
    for (const step of [1, 3, 5, 6]) {
      const res = await get(`/quickStart/Step${step}`, b.cookie);
      expect(res.status, `Step${step}`).toBe(302);
      expect(res.headers.get("location")).toBe("/quickStart/Step0");
      const posted = await post(`/quickStart/Step${step}`, b.cookie, { intent: "next" });
      expect(posted.headers.get("location")).toBe("/quickStart/Step0");
    }
    const page = await html(await get("/quickStart/Step0", b.cookie));
    expect(page).toContain("Step 1 of 7");
    expect(page).toContain("Loan and amount");
  });

  it("refuses an amount outside the product's range next to the field and stores nothing", async () => {
    const { b } = await journey("begun");
    const res = await post("/quickStart/Step0", b.cookie, { intent: "next", product: "emi", amount: "5000" });
    expect(res.status).toBe(400);
    const page = await html(res);
    expect(page).toMatch(/id="[^"]*-error"[^>]*>Choose an amount from ₹10,000 to ₹5,00,000 for an EMI loan\./i);
    const row = await progressOf(b.userId);
    expect(row?.completedSteps).toBe(0);
    expect(row?.amountPaise).toBeNull();
  });

  it("saves each step on the server before moving on, into the profile tables", async () => {
    const { b, a } = await journey("begun");
    await answerSteps(b.cookie, a, 5);
    const row = await progressOf(b.userId);
    expect(row).toMatchObject({ completedSteps: 5, product: "emi", amountPaise: 200_000_00 });
    const [profile] = await app.services.db.select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, b.userId));
    expect(profile).toMatchObject({
      fullName: a.fullName,
      dateOfBirth: a.dateOfBirth,
      panMasked: `XXXXXX${a.pan.slice(-4)}`,
      gender: null,
      aadhaarLast4: null,
    });
    expect(profile?.panEnc).not.toContain(a.pan);
    const [address] = await app.services.db.select().from(borrowerAddresses).where(eq(borrowerAddresses.userId, b.userId));
    expect(address).toMatchObject({ currentPincode: "560001", currentLine1: null });
    expect(address?.currentCity).toBeTruthy();
    expect(address?.currentState).toBe("Karnataka");
    const [job] = await app.services.db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, b.userId));
    expect(job).toMatchObject({
      employmentType: "salaried",
      netMonthlyIncomePaise: 60_000_00,
      salaryDay: 28,
      existingEmiPaise: 0,
      employerName: null,
    });
    // The dashboard offers to carry on.
    const dashboard = await html(await get("/User/Dashboard", b.cookie));
    expect(dashboard).toContain("Next: step 6 of 7, your offer.");
  });

  it("shows the saved answers again on every step (Back never loses data)", async () => {
    const { b, a } = await journey("offer");
    expect(await html(await get("/quickStart/Step0", b.cookie))).toContain('value="200000"');
    const step1 = await html(await get("/quickStart/Step1", b.cookie));
    expect(step1).toContain(`value="${a.fullName}"`);
    expect(step1).toContain(`Saved: XXXXXX${a.pan.slice(-4)}`);
    const step2 = await html(await get("/quickStart/Step2", b.cookie));
    expect(step2).toContain('value="560001"');
    expect(step2).toContain("Karnataka");
    expect(await html(await get("/quickStart/Step3", b.cookie))).toContain('value="60000"');
  });

  it("keeps the loan kind just chosen when the amount is refused (without JavaScript), not the saved one", async () => {
    const { b } = await journey("offer");
    const res = await post("/quickStart/Step0", b.cookie, { intent: "next", product: "salary_advance", amount: "999" });
    expect(res.status).toBe(400);
    const page = await html(res);
    const radio = (kind: string) => new RegExp(`<input[^>]*value="${kind}"[^>]*>`).exec(page)?.[0] ?? "";
    expect(radio("salary_advance")).toContain("checked");
    expect(radio("emi")).not.toContain("checked");
    expect(page).toContain('value="999"');
    expect(page).toContain("From ₹2,000 to ₹1,00,000, in steps of ₹500.");
    expect(await progressOf(b.userId)).toMatchObject({ product: "emi", amountPaise: 200_000_00 });
  });

  it("the profile sections start from the quick start's answers, and say what is left", async () => {
    const { b, a } = await journey("offer");
    const profile = await html(await get("/User/Profile/components/Profile", b.cookie));
    expect(profile).toContain(`value="${a.fullName}"`);
    expect(profile).toContain(`Saved: XXXXXX${a.pan.slice(-4)}. Leave empty to keep it.`);
    // The Aadhaar is still to give.
    expect(profile).not.toContain("Saved: XXXX XXXX");
    const job = await html(await get("/User/Profile/components/Employment", b.cookie));
    expect(job).toContain('value="60000"');
    const overview = await html(await get("/User/Profile", b.cookie));
    expect(overview).toContain("Missing: gender, e-mail, Aadhaar, marital status; your consent for KYC checks.");
    expect(overview).toContain("Missing: house and street, residence type");
    expect(overview).toContain("Missing: employer or business, designation, months with the employer.");
  });

  it("shows both products' offers from eligibility, and stores the one taken", async () => {
    const { b } = await journey("offer");
    const page = await html(await get("/quickStart/Step5", b.cookie));
    // ₹60,000 a month, no EMIs: 14% band; the EMI loan at 12 months is capped by half the income.
    expect(page).toContain("Step 6 of 7");
    expect(page).toContain("EMI loan");
    expect(page).toContain("Salary advance");
    expect(page).toContain(formatRupees(30_000_00)); // salary advance: half the salary
    expect(page).toContain("APR");
    const shown = await app.services.db
      .select()
      .from(funnelEvents)
      .where(and(eq(funnelEvents.userId, b.userId), eq(funnelEvents.event, "offer_shown")));
    expect(shown.length).toBeGreaterThan(0);

    const res = await post("/quickStart/Step5", b.cookie, { intent: "next", product: "emi", tenure: "24" });
    expect(res.headers.get("location")).toBe("/quickStart/Step6");
    const row = await progressOf(b.userId);
    expect(row).toMatchObject({
      completedSteps: 6,
      product: "emi",
      tenureMonths: 24,
      amountPaise: 200_000_00,
      offerAmountPaise: 200_000_00,
    });
    const offer = row?.offer as { chosen: string; offers: { emi: { eligible: boolean; maxAmountPaise: number; rateBps: number } } };
    expect(offer.chosen).toBe("emi");
    expect(offer.offers.emi).toMatchObject({ eligible: true, rateBps: 1400 });
    expect(offer.offers.emi.maxAmountPaise).toBeGreaterThanOrEqual(200_000_00);
  });

  it("needs the KYC consent, then continues into the EMI application with the offer filled in", async () => {
    const { b } = await journey("offerTaken");
    const refused = await post("/quickStart/Step6", b.cookie, { intent: "next" });
    expect(refused.status).toBe(400);
    expect(await html(refused)).toContain("We need your consent to check your KYC details.");

    const res = await post("/quickStart/Step6", b.cookie, { intent: "next", consentKyc: "on", consentCommunications: "on" });
    expect(res.status).toBe(302);
    const location = res.headers.get("location") ?? "";
    const m = /^\/User\/newLoan\/Emi\/([a-z2-7]{26})\/Step0$/.exec(location);
    expect(m, location).not.toBeNull();
    const [application] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, b.userId));
    expect(application).toMatchObject({ reference: m?.[1], product: "emi", status: "draft", amountPaise: 200_000_00, tenureMonths: 24 });
    expect(application?.offer).toMatchObject({ rateBps: 1400 });
    const step0 = await html(await get(location, b.cookie));
    expect(step0).toContain('value="200000"');
    expect(step0).toMatch(/<option value="24" selected/);

    const given = await app.services.db.select().from(consents).where(eq(consents.userId, b.userId));
    expect(given.map((c) => [c.purpose, c.granted]).sort()).toEqual([
      ["bureau_enquiry", true],
      ["communications", true],
      ["kyc", true],
    ]);
    const row = await progressOf(b.userId);
    expect(row).toMatchObject({ completedSteps: 7, applicationId: application?.id });
    expect(row?.continuedAt).toBeInstanceOf(Date);
    expect(shownMarkup(await html(await get("/User/Dashboard", b.cookie)))).not.toContain("Finish your quick start");
  });

  it("records the funnel: each step viewed and completed, the offer shown, continued", async () => {
    const b = await newBorrower();
    const a = answers();
    // Each step page opened as it is reached (Step4 only posted to), then answered.
    for (let step = 0; step < 5; step++) {
      if (step !== 4) expect((await get(`/quickStart/Step${step}`, b.cookie)).status).toBe(200);
      expect((await post(`/quickStart/Step${step}`, b.cookie, { intent: "next", ...fieldsOf(a, step) })).status).toBe(302);
    }
    await get("/quickStart/Step5", b.cookie);
    await post("/quickStart/Step5", b.cookie, { intent: "next", product: "emi", tenure: "24" });
    // Step6 only posted to, first without the consent: its page shown again with the error is not a view.
    expect((await post("/quickStart/Step6", b.cookie, { intent: "next" })).status).toBe(400);
    await post("/quickStart/Step6", b.cookie, { intent: "next", consentKyc: "on" });
    const events = await app.services.db.select().from(funnelEvents).where(eq(funnelEvents.userId, b.userId)).orderBy(asc(funnelEvents.id));
    const completed = events.filter((e) => e.event === "step_completed").map((e) => e.step);
    expect(completed).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const viewed = new Set(events.filter((e) => e.event === "step_viewed").map((e) => e.step));
    // Pages opened: Step0–3 and 5. Step6 was only posted to: its page shown again with the consent error is not a view.
    expect([...viewed].sort()).toEqual([0, 1, 2, 3, 5]);
    expect(events.filter((e) => e.event === "continued")).toHaveLength(1);
    expect(events.find((e) => e.event === "continued")?.product).toBe("emi");
  });

  it("resumes on another device after signing in again, and continues to the same application", async () => {
    const { b } = await journey("continued");
    const { setCookie } = await createUserSession(app.services, {
      userId: b.userId,
      deviceId: "another-phone",
      ip: "127.0.0.1",
      userAgent: "test",
    });
    const cookie = setCookie.split(";")[0] ?? "";
    expect((await get("/quickStart/components", cookie)).headers.get("location")).toBe("/quickStart/Step6");
    const page = await html(await get("/quickStart/Step6", cookie));
    expect(page).toContain("Go to your application");
    // The borrower has changed the amount in the application since: continuing again keeps it.
    const changed = await post(await stepZero(b.userId), cookie, { amount: "120000", tenure: "24" });
    expect(changed.status).toBe(302);
    const again = await post("/quickStart/Step6", cookie, { intent: "next", consentKyc: "on", consentCommunications: "on" });
    const apps = await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, b.userId));
    expect(apps).toHaveLength(1);
    expect(apps[0]?.amountPaise).toBe(120_000_00);
    expect(again.headers.get("location")).toContain(apps[0]?.reference);
  });

  it("Back keeps what is valid; a changed answer before the offer means the offer again", async () => {
    const { b } = await journey("continued");
    const { setCookie } = await createUserSession(app.services, {
      userId: b.userId,
      deviceId: "third",
      ip: "127.0.0.1",
      userAgent: "test",
    });
    const cookie = setCookie.split(";")[0] ?? "";
    // Back with the same answer: nothing about the offer changed, so the progress stays.
    const same = await post("/quickStart/Step2", cookie, { intent: "back", pincode: "560001" });
    expect(same.headers.get("location")).toBe("/quickStart/Step1");
    expect((await progressOf(b.userId))?.completedSteps).toBe(7);
    const res = await post("/quickStart/Step4", cookie, { intent: "back", existingEmis: "5000" });
    expect(res.headers.get("location")).toBe("/quickStart/Step3");
    const [job] = await app.services.db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, b.userId));
    expect(job?.existingEmiPaise).toBe(5_000_00);
    expect(await progressOf(b.userId)).toMatchObject({ completedSteps: 5, continuedAt: null });
    expect((await get("/quickStart/Step6", cookie)).headers.get("location")).toBe("/quickStart/Step5");
    // An offer to take again is an unfinished quick start: the dashboard points to it.
    expect(await html(await get("/User/Dashboard", cookie))).toContain("Next: step 6 of 7, your offer.");
    // Invalid input on Back: nothing stored; the error is shown next to the field.
    const invalid = await post("/quickStart/Step4", cookie, { intent: "back", existingEmis: "lots" });
    expect(invalid.status).toBe(400);
    expect(await html(invalid)).toContain("Enter your existing monthly EMIs (0 if none) in rupees, like 45000.");
    // Back from a step left empty just goes back.
    const empty = await post("/quickStart/Step4", cookie, { intent: "back", existingEmis: "" });
    expect(empty.headers.get("location")).toBe("/quickStart/Step3");
    const [still] = await app.services.db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, b.userId));
    expect(still?.existingEmiPaise).toBe(5_000_00);
    // The offer taken again (now at 12 months) replaces the application's terms on Continue.
    await post("/quickStart/Step3", cookie, { intent: "next", employmentType: "salaried", netMonthlyIncome: "60000", salaryDay: "28" });
    await post("/quickStart/Step4", cookie, { intent: "next", existingEmis: "5000", consentBureau: "on" });
    expect((await post("/quickStart/Step5", cookie, { intent: "next", product: "emi", tenure: "12" })).headers.get("location")).toBe(
      "/quickStart/Step6",
    );
    await post("/quickStart/Step6", cookie, { intent: "next", consentKyc: "on" });
    const [application] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, b.userId));
    expect(application).toMatchObject({ amountPaise: 200_000_00, tenureMonths: 12 });
  });

  it("shows the offer again when it changed since it was taken", async () => {
    const { b } = await journey("continued");
    const { setCookie } = await createUserSession(app.services, {
      userId: b.userId,
      deviceId: "fourth",
      ip: "127.0.0.1",
      userAgent: "test",
    });
    const cookie = setCookie.split(";")[0] ?? "";
    expect((await progressOf(b.userId))?.completedSteps).toBe(7);
    // The income is corrected in the profile's Employment section after the offer.
    await app.services.db
      .update(borrowerEmployment)
      .set({ netMonthlyIncomePaise: 40_000_00 })
      .where(eq(borrowerEmployment.userId, b.userId));
    const res = await post("/quickStart/Step6", cookie, { intent: "next", consentKyc: "on" });
    expect(res.headers.get("location")).toBe("/quickStart/Step5");
    expect(await progressOf(b.userId)).toMatchObject({ completedSteps: 5, continuedAt: null });
    const page = await html(
      await app.get("/quickStart/Step5", {
        headers: {
          Cookie: `${cookie}; ${res.headers
            .getSetCookie()
            .map((c) => c.split(";")[0])
            .join("; ")}`,
        },
      }),
    );
    expect(page).toContain("Your offer has changed");
  });

  it("does not continue into an application already signed", async () => {
    const { b } = await journey("continued");
    const { setCookie } = await createUserSession(app.services, {
      userId: b.userId,
      deviceId: "fifth",
      ip: "127.0.0.1",
      userAgent: "test",
    });
    const cookie = setCookie.split(";")[0] ?? "";
    await app.services.db.update(loanApplications).set({ status: "signed" }).where(eq(loanApplications.userId, b.userId));
    // An answer that changes the offer, and the offer taken again.
    expect(
      (await post("/quickStart/Step4", cookie, { intent: "next", existingEmis: "5000", consentBureau: "on" })).headers.get("location"),
    ).toBe("/quickStart/Step5");
    expect((await post("/quickStart/Step5", cookie, { intent: "next", product: "emi", tenure: "12" })).headers.get("location")).toBe(
      "/quickStart/Step6",
    );
    const res = await post("/quickStart/Step6", cookie, { intent: "next", consentKyc: "on" });
    expect(res.status).toBe(400);
    expect(await html(res)).toMatch(/You already have an EMI loan application \([A-Z2-7]{8}\) that is /);
    expect((await progressOf(b.userId))?.completedSteps).toBe(6);
  });

  it("/quickStart/components is not a page: it sends the borrower to their step", async () => {
    const fresh = await newBorrower();
    expect((await get("/quickStart/components", fresh.cookie)).headers.get("location")).toBe("/quickStart/Step0");
  });
});

/** Signs in through /quickStart/Otp over HTTP (mobile, then the code from the outbox); returns where it lands and the session. */
async function signInByCode(mobile: string, redirectTo?: string) {
  const { verified, token } = await signInWithCode(app, (path, fields, cookie) => postForm(app, path, fields, { cookie }), {
    mobile,
    deviceId: `device-${crypto.randomUUID()}`,
    redirectTo,
  });
  expect(verified.status).toBe(302);
  return { location: verified.headers.get("location"), cookie: token };
}

describe("signing in without a page asked for (docs/product.md, Signing in, sessions and staff)", () => {
  it("lands on the next quick-start step while one is unfinished, otherwise on the dashboard", async () => {
    const mobile = String(mobileSerial++);
    const first = await signInByCode(mobile);
    expect(first.location).toBe("/User/Dashboard");
    await answerSteps(first.cookie, answers(), 3);

    const again = await signInByCode(mobile);
    expect(again.location).toBe("/quickStart/Step3");
    // Already signed in, the sign-in page sends the borrower on the same way.
    expect((await get("/quickStart/Otp", again.cookie)).headers.get("location")).toBe("/quickStart/Step3");
    // The page asked for still wins.
    expect((await signInByCode(mobile, "/User/Profile")).location).toBe("/User/Profile");

    const latest = await signInByCode(mobile);
    await answerSteps(latest.cookie, answers(), 5);
    expect((await post("/quickStart/Step5", latest.cookie, { intent: "next", product: "emi", tenure: "24" })).status).toBe(302);
    const continued = await post("/quickStart/Step6", latest.cookie, { intent: "next", consentKyc: "on" });
    expect(continued.headers.get("location")).toMatch(/^\/User\/newLoan\/Emi\//);
    const last = await signInByCode(mobile);
    expect(last.location).toBe("/User/Dashboard");
    // The quick start's page says it is finished and points to the dashboard, not to step 7 again.
    const intro = await html(await get("/quickStart", last.cookie));
    expect(intro).toContain("You have finished the quick start");
    expect(intro).toContain('href="/User/Dashboard"');
    // (The page's messages travel with it, so the words are in the HTML: the link is not.)
    expect(intro).not.toMatch(/>Continue at step/);
  });

  it("lands on Step0 once the quick start is begun, before anything is answered", async () => {
    const mobile = String(mobileSerial++);
    const first = await signInByCode(mobile);
    expect(first.location).toBe("/User/Dashboard");
    expect((await get("/quickStart/components", first.cookie)).headers.get("location")).toBe("/quickStart/Step0");
    const again = await signInByCode(mobile);
    expect(again.location).toBe("/quickStart/Step0");
    expect(await html(await get("/User/Dashboard", again.cookie))).toContain("Next: step 1 of 7, loan and amount.");
  });
});

describe("a borrower whose profile is already complete", () => {
  it("is asked nothing new, and a changed name or PIN code is checked again in the profile", async () => {
    const mobile = "9711111111";
    const b = await signedInBorrower(app, mobile);
    const p = defaultProfile();
    await completeProfile(app, b.cookie, p, mobile);
    await answerSteps(b.cookie, answers(), 1);
    const step1 = await html(await get("/quickStart/Step1", b.cookie));
    expect(step1).toContain(`value="${p.name}"`);
    expect(step1).toContain(`value="${p.dateOfBirth}"`);
    // The same person, the same PAN (left empty to keep it): the bank account stays verified.
    await post("/quickStart/Step1", b.cookie, { intent: "next", fullName: p.name, dateOfBirth: p.dateOfBirth, pan: "" });
    const [bank] = await app.services.db.select().from(borrowerBankAccounts).where(eq(borrowerBankAccounts.userId, b.userId));
    expect(bank?.verifiedAt).toBeInstanceOf(Date);
    // A different name no longer matches the bank's: the account must be verified again.
    await post("/quickStart/Step1", b.cookie, { intent: "next", fullName: "Ravi Shankar Iyer", dateOfBirth: p.dateOfBirth, pan: "" });
    const [after] = await app.services.db.select().from(borrowerBankAccounts).where(eq(borrowerBankAccounts.userId, b.userId));
    expect(after?.verifiedAt).toBeNull();
    // A new PIN code is a new address: the street lines are asked again.
    await post("/quickStart/Step2", b.cookie, { intent: "next", pincode: "110001" });
    const [address] = await app.services.db.select().from(borrowerAddresses).where(eq(borrowerAddresses.userId, b.userId));
    expect(address).toMatchObject({ currentPincode: "110001", currentLine1: null });
    const overview = await html(await get("/User/Profile", b.cookie));
    expect(overview).toContain("Missing: house and street.");
  });
});

describe("step errors next to the fields", () => {
  it("checks name, date of birth, PAN, PIN code, income and salary day with the profile's rules", async () => {
    const b = await newBorrower();
    await answerSteps(b.cookie, answers(), 1);
    const step1 = await html(
      await post("/quickStart/Step1", b.cookie, { intent: "next", fullName: "N3ha", dateOfBirth: "2010-01-01", pan: "ABCDE1234F" }),
    );
    expect(step1).toContain("You must be at least 21 years old.");
    expect(step1).toContain("This is not a personal PAN: its 4th letter must be P.");
    // Only the PAN wrong: still nothing stored.
    const pan = await post("/quickStart/Step1", b.cookie, {
      intent: "next",
      fullName: "Neha Gupta",
      dateOfBirth: "1992-06-15",
      pan: "ABCDE1234F",
    });
    expect(pan.status).toBe(400);
    expect(await html(pan)).toContain("This is not a personal PAN: its 4th letter must be P.");
    expect(await app.services.db.select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, b.userId))).toEqual([]);

    const other = await newBorrower();
    const taken = answers();
    await answerSteps(other.cookie, taken, 2);
    const dup = await html(
      await post("/quickStart/Step1", b.cookie, { intent: "next", fullName: "Neha Gupta", dateOfBirth: "1992-06-15", pan: taken.pan }),
    );
    expect(dup).toContain("This PAN is already registered with another account.");

    await answerSteps(b.cookie, answers(), 2);
    const pin = await post("/quickStart/Step2", b.cookie, { intent: "next", pincode: "999999" });
    expect(pin.status).toBe(400);
    expect(await html(pin)).toContain("We do not know this PIN code. Check the 6 digits.");
    await answerSteps(b.cookie, answers(), 3);
    const day = await post("/quickStart/Step3", b.cookie, {
      intent: "next",
      employmentType: "salaried",
      netMonthlyIncome: "40000",
      salaryDay: "",
    });
    expect(day.status).toBe(400);
    expect(await html(day)).toContain("Enter the day of the month your salary arrives, from 1 to 31.");
    expect((await progressOf(b.userId))?.completedSteps).toBe(3);
  });
});

describe("not eligible: every reason in words", () => {
  async function offerPage(overrides: Partial<Answers>, patch?: (userId: string) => Promise<void>) {
    const b = await newBorrower();
    await answerSteps(b.cookie, answers(overrides), 5);
    if (patch) await patch(b.userId);
    return { b, page: await html(await get("/quickStart/Step5", b.cookie)) };
  }

  it("income below ₹15,000: neither product; nothing to take", async () => {
    const { b, page } = await offerPage({ netMonthlyIncome: "12000" });
    expect(page).toContain("Your net monthly income of ₹12,000 is below the minimum of ₹15,000.");
    expect(page).toContain("EMI loan: not available to you now");
    expect(page).toContain("Salary advance: not available to you now");
    expect(shownMarkup(page)).not.toContain("Take this offer");
    const res = await post("/quickStart/Step5", b.cookie, { intent: "next", product: "emi", tenure: "12" });
    expect(res.status).toBe(400);
    expect((await progressOf(b.userId))?.completedSteps).toBe(5);
  });

  it("existing EMIs over half the income", async () => {
    const { page } = await offerPage({ netMonthlyIncome: "40000", existingEmis: "21000" });
    expect(page).toContain(
      "Your EMIs of ₹21,000 a month, counting your loans with us and those in your credit report, already take 50% or more of your income, the most we allow for all EMIs together.",
    );
    expect(page).toContain(
      "Your EMIs of ₹21,000 a month, counting your loans with us and those in your credit report, are more than 50% of your income.",
    );
  });

  it("the smallest EMI loan would not be affordable (a salary advance still is)", async () => {
    const { b, page } = await offerPage({ netMonthlyIncome: "20000", existingEmis: "9800" });
    expect(page).toContain("Even the smallest loan of ₹10,000 over 12 months would take your EMIs above 50% of your income.");
    expect(page).toContain("Take this offer");
    const res = await post("/quickStart/Step5", b.cookie, { intent: "next", product: "emi", tenure: "12" });
    expect(res.status).toBe(400);
    expect(await html(res)).toContain("We cannot offer you an EMI loan");
    const ok = await post("/quickStart/Step5", b.cookie, { intent: "next", product: "salary_advance", tenure: "12" });
    expect(ok.headers.get("location")).toBe("/quickStart/Step6");
    // Asked ₹2,00,000 for an EMI loan: the salary advance starts at its largest, half of ₹20,000,
    // and Step0 now shows that choice, which its own rules accept as it is.
    expect(await progressOf(b.userId)).toMatchObject({ product: "salary_advance", amountPaise: 10_000_00, offerAmountPaise: 10_000_00 });
    const step0 = await html(await get("/quickStart/Step0", b.cookie));
    expect(step0).toContain('value="10000"');
    const again = await post("/quickStart/Step0", b.cookie, { intent: "next", product: "salary_advance", amount: "10000" });
    expect(again.headers.get("location")).toBe("/quickStart/Step1");
    expect((await progressOf(b.userId))?.completedSteps).toBe(6);
  });

  it("self-employed: no salary advance", async () => {
    const { page } = await offerPage({ employmentType: "self_employed", salaryDay: "" });
    expect(page).toContain("A salary advance is only for salaried people, as it is repaid from your salary.");
  });

  it("age outside 21–60 on the day of the offer", async () => {
    const { page } = await offerPage({}, async (userId) => {
      await app.services.db.update(borrowerProfiles).set({ dateOfBirth: "1965-01-01" }).where(eq(borrowerProfiles.userId, userId));
    });
    expect(page).toContain("You must be between 21 and 60 years old to borrow; you are 61.");
  });

  it("no salary day known for a salaried borrower", async () => {
    const { page } = await offerPage({}, async (userId) => {
      await app.services.db.update(borrowerEmployment).set({ salaryDay: null }).where(eq(borrowerEmployment.userId, userId));
    });
    expect(page).toContain("Tell us the day of the month your salary arrives");
  });

  it("half the salary below the smallest salary advance", async () => {
    const { page } = await offerPage({}, async (userId) => {
      await app.services.db
        .update(borrowerEmployment)
        .set({ netMonthlyIncomePaise: 3_000_00 })
        .where(eq(borrowerEmployment.userId, userId));
    });
    expect(page).toContain("50% of your salary is below the smallest salary advance of ₹2,000.");
  });
});
