import { and, eq } from "drizzle-orm";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { formatRupees } from "../../app/domain/money.ts";
import { sha256Bytes } from "../../app/server/crypto.server.ts";
import { auditLog, loanApplications, loanDocuments, loanSignatures } from "../../app/server/db/schema.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { latestCode, readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { storedPdf } from "../helpers/stored-pdf.ts";
import { postForm } from "../helpers/http.ts";
import { shownMarkup } from "../helpers/english.ts";
import { startedApplication } from "../helpers/applications.ts";

// A Monday morning in India, so the working-day arithmetic is easy to follow.
let clock = new Date("2026-11-23T04:30:00Z");
const now = () => clock;

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({}, { now });
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&");
const post = (path: string, cookie: string, fields: Record<string, string>) => postForm(app, path, fields, { cookie });
// A copy: pdf.js takes over (detaches) the buffer it is given.
const pdfText = async (bytes: ArrayBuffer) => (await extractText(new Uint8Array(bytes).slice(), { mergePages: true })).text as string;
const rupees = formatRupees;

async function borrower(mobile: string, overrides = {}) {
  const session = await signedInBorrower(app, mobile);
  await completeProfile(app, session.cookie, defaultProfile(overrides), mobile);
  return { ...session, mobile };
}

/** Start an application of `segment` (a POST, then Step0's credit check) and return its reference. */
const start = (cookie: string, segment: "Emi" | "salaryAdvance") => startedApplication(app, cookie, segment);

describe("the EMI loan flow", () => {
  let serial = 0;
  type Stage = "started" | "terms" | "details" | "kfs" | "signed";
  const STAGES: Stage[] = ["started", "terms", "details", "kfs", "signed"];
  /**
   * A new borrower with a complete profile and an EMI application brought, through the pages, to
   * `stage`: each test has one of its own (₹1,00,000 over 12 months, medical, the verified account).
   */
  async function emiApplication(stage: Stage) {
    const b = await borrower(`98401${String(serial++).padStart(5, "0")}`);
    const ref = await start(b.cookie, "Emi");
    const step = (s: string) => `/User/newLoan/Emi/${ref}/${s}`;
    const reached = (s: Stage) => STAGES.indexOf(stage) >= STAGES.indexOf(s);
    if (reached("terms")) expect((await post(step("Step0"), b.cookie, { amount: "1,00,000", tenure: "12" })).status).toBe(302);
    if (reached("details")) expect((await post(step("Step1"), b.cookie, { purpose: "medical", disbursalConsent: "yes" })).status).toBe(302);
    if (reached("kfs")) expect((await app.get(step("Step5"), { headers: { Cookie: b.cookie } })).status).toBe(200);
    if (reached("signed")) {
      const page = await html(await app.get(step("Step6"), { headers: { Cookie: b.cookie } }));
      const documentId = /name="documentId" value="([0-9a-f-]{36})"/.exec(page)?.[1] as string;
      expect((await post(step("Step6"), b.cookie, { intent: "send" })).status).toBe(200);
      const signed = await post(step("Step6"), b.cookie, {
        intent: "sign",
        documentId,
        accept: "yes",
        code: latestCode(app.dataDir, b.mobile),
      });
      expect(signed.headers.get("location")).toBe(`/success/${ref}`);
    }
    const [application] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    return { b, ref, step, application: application as typeof loanApplications.$inferSelect };
  }
  const documentsOf = (applicationId: string) =>
    app.services.db.select().from(loanDocuments).where(eq(loanDocuments.applicationId, applicationId));
  const signatureOf = async (applicationId: string) =>
    (await app.services.db.select().from(loanSignatures).where(eq(loanSignatures.applicationId, applicationId)))[0];

  it("resumes the application in progress instead of starting a second", async () => {
    const { b, ref } = await emiApplication("started");
    expect(await start(b.cookie, "Emi")).toBe(ref);
    const rows = await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, b.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("draft");
  });

  it("sends a borrower who jumps ahead back to the step that fits", async () => {
    const { b, step } = await emiApplication("started");
    for (const s of ["Step1", "Step5", "Step6", "Step7"]) {
      const res = await app.get(step(s), { headers: { Cookie: b.cookie } });
      expect(res.status, s).toBe(302);
      expect(res.headers.get("location")).toBe(step("Step0"));
    }
  });

  it("offers amounts within the eligibility and refuses others next to the field", async () => {
    const { b, ref, step } = await emiApplication("started");
    const page = await html(await app.get(step("Step0"), { headers: { Cookie: b.cookie } }));
    // ₹60,000 income, no EMIs → 14% band; half the income (₹30,000) may go to the EMI.
    expect(page).toContain("Your rate is 14.00% a year");
    const tooMuch = await post(step("Step0"), b.cookie, { amount: "600000", tenure: "12" });
    expect(tooMuch.status).toBe(400);
    expect(await html(tooMuch)).toMatch(/Choose an amount from ₹10,000 to ₹[\d,]+ over 12 months\./);
    const offStep = await post(step("Step0"), b.cookie, { amount: "100500", tenure: "12" });
    expect(await html(offStep)).toContain("Choose an amount in steps of ₹1,000.");
    const [row] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    expect(row?.amountPaise).toBeNull();
  });

  it("saves the terms, then purpose and account, and issues the KFS once", async () => {
    const { b, step, application } = await emiApplication("started");
    const saved = await post(step("Step0"), b.cookie, { amount: "1,00,000", tenure: "12" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(step("Step1"));
    const step1 = await html(await app.get(step("Step1"), { headers: { Cookie: b.cookie } }));
    expect(step1).toContain("Your profile has everything this loan needs.");
    expect(step1).toContain("XXXXXXXXXX5678");
    const missingConsent = await post(step("Step1"), b.cookie, { purpose: "medical" });
    expect(missingConsent.status).toBe(400);
    expect(await html(missingConsent)).toContain("Confirm the account the money goes to.");
    const ok = await post(step("Step1"), b.cookie, { purpose: "medical", disbursalConsent: "yes" });
    expect(ok.headers.get("location")).toBe(step("Step5"));

    const page = await html(await app.get(step("Step5"), { headers: { Cookie: b.cookie } }));
    expect(page).toContain("Key Fact Statement");
    await app.get(step("Step5"), { headers: { Cookie: b.cookie } });
    const docs = await documentsOf(application.id);
    expect(docs.filter((d) => !d.supersededAt)).toHaveLength(1);
    // Issued Monday 23 Nov: valid 3 working days (to Thursday), disbursal assumed Tuesday.
    expect(docs[0]?.validUntil).toBe("2026-11-26");
    expect(docs[0]?.assumedDisbursalDate).toBe("2026-11-24");
    expect(page).toContain("26 Nov 2026");
  });

  it("serves the stored bytes inline and as a download to the owner, and the PDF says what the calculator says", async () => {
    const { b, step, application } = await emiApplication("kfs");
    const [doc] = await documentsOf(application.id);
    const shown = await app.get(step("Step5/pdfDisplay"), { headers: { Cookie: b.cookie } });
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toBe("application/pdf");
    expect(shown.headers.get("content-disposition")).toMatch(/^inline; filename="kfs-and-agreement-[A-Z2-7]{26}\.pdf"$/);
    expect(shown.headers.get("cache-control")).toBe("private, no-store");
    const bytes = await shown.arrayBuffer();
    expect(sha256Bytes(new Uint8Array(bytes))).toBe(doc?.sha256);
    const down = await app.get(step("Step5/pdfDownload"), { headers: { Cookie: b.cookie } });
    expect(down.headers.get("content-disposition")).toMatch(/^attachment; /);
    expect(sha256Bytes(new Uint8Array(await down.arrayBuffer()))).toBe(doc?.sha256);

    // The calculator for the same terms: ₹1,00,000 at 14% for 12 months with the fee (2% + 18% GST = ₹2,360).
    const calc = (await (await app.get("/api/emi?amount=100000&rate=14&months=12&fee=2360")).json()) as {
      emiPaise: number;
      aprPercent: number;
      totalInterestPaise: number;
      netDisbursedPaise: number;
      schedule: { instalment: number; interestPaise: number; principalPaise: number; paymentPaise: number; closingPaise: number }[];
    };
    const text = await pdfText(bytes);
    expect(text).toContain("Key Fact Statement");
    expect(text).toContain(`Instalment amount ${rupees(calc.emiPaise)}`);
    expect(text).toContain(`Annual Percentage Rate (APR) ${calc.aprPercent.toFixed(2)}%`);
    expect(text).toContain(`Total interest ${rupees(calc.totalInterestPaise)}`);
    expect(text).toContain(`Net disbursed amount ${rupees(calc.netDisbursedPaise)}`);
    expect(text).toContain("₹2,000 + GST ₹360 = ₹2,360");
    for (const line of calc.schedule) {
      expect(text).toContain(
        `${rupees(line.principalPaise)} ${rupees(line.interestPaise)} ${rupees(line.paymentPaise)} ${rupees(line.closingPaise)}`,
      );
    }
    expect(text).toContain("24 Dec 2026"); // first instalment: one month after the assumed disbursal
    expect(text).toContain("Integrated Ombudsman");
    expect(text).toContain("Loan agreement");
  });

  it("answers a signed link without a session for 10 minutes, and shows the not-found page otherwise", async () => {
    const { b, step } = await emiApplication("kfs");
    const page = await html(await app.get(step("Step5"), { headers: { Cookie: b.cookie } }));
    const link = /href="([^"]+pdfDisplay\?expires=\d+&signature=[0-9a-f]+)"/.exec(page)?.[1];
    expect(link).toBeDefined();
    const viaLink = await app.get(link as string);
    expect(viaLink.status).toBe(200);
    expect(viaLink.headers.get("content-type")).toBe("application/pdf");
    const anonymous = await app.get(step("Step5/pdfDisplay"));
    expect(anonymous.status).toBe(404);
    expect(anonymous.headers.get("location")).toBeNull();
    expect(await html(anonymous)).toContain(`Page not found: ${step("Step5/pdfDisplay")}`);
    const flipped = (link as string).replace(/.$/, (c) => (c === "0" ? "1" : "0"));
    const tampered = await app.get(flipped);
    expect(tampered.status).toBe(404);
    const saved = clock;
    clock = new Date(clock.getTime() + 11 * 60 * 1000);
    try {
      expect((await app.get(link as string)).status).toBe(404);
    } finally {
      clock = saved;
    }
  });

  it("signs once with the code from the outbox, even when submitted twice at once", async () => {
    const { b, ref, step } = await emiApplication("kfs");
    const page = await html(await app.get(step("Step6"), { headers: { Cookie: b.cookie } }));
    const documentId = /name="documentId" value="([0-9a-f-]{36})"/.exec(page)?.[1] as string;
    expect(documentId).toBeDefined();
    const sent = await post(step("Step6"), b.cookie, { intent: "send" });
    expect(sent.status).toBe(200);
    const code = latestCode(app.dataDir, b.mobile);

    const noAccept = await post(step("Step6"), b.cookie, { intent: "sign", documentId, code });
    expect(noAccept.status).toBe(400);
    expect(await html(noAccept)).toContain("Tick the box to accept the Key Fact Statement and agreement.");
    const wrong = await post(step("Step6"), b.cookie, {
      intent: "sign",
      documentId,
      accept: "yes",
      code: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    expect(await html(wrong)).toContain("That code is not right. You have 4 tries left.");

    const [one, two] = await Promise.all([
      post(step("Step6"), b.cookie, { intent: "sign", documentId, accept: "yes", code }),
      post(step("Step6"), b.cookie, { intent: "sign", documentId, accept: "yes", code }),
    ]);
    // Both land on a page saying it is signed: the one that signed on /success, a late one on the status page.
    const locations = [one, two].map((res) => res.headers.get("location"));
    expect(locations).toContain(`/success/${ref}`);
    for (const location of locations) expect([`/success/${ref}`, step("Step7")]).toContain(location);
    const [application] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    expect(application?.status).toBe("signed");
    const signatures = await app.services.db
      .select()
      .from(loanSignatures)
      .where(eq(loanSignatures.applicationId, application?.id as string));
    expect(signatures).toHaveLength(1);
    const [doc] = await app.services.db.select().from(loanDocuments).where(eq(loanDocuments.id, documentId));
    const sig = signatures[0];
    expect(sig?.shownSha256).toBe(doc?.sha256);
    expect(sig?.signedSha256).toBe(sha256Bytes(await storedPdf(app, sig!)));
    expect(sig?.mobile).toBe(b.mobile);
    expect(sig?.userAgent).toBeTruthy();
    expect(sig?.agreementRef).toMatch(/^[a-z2-7]{26}$/);
    expect(sig?.agreementRef).not.toBe(ref);

    const audits = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "loan_application"), eq(auditLog.subjectId, application?.id as string)));
    expect(audits.map((a) => (a.details as { to: string }).to)).toEqual(["draft", "signed"]);

    // Sent by the notice's job, after the signature committed.
    const signedSms = () => readOutbox(app.dataDir).filter((m) => m.to === b.mobile && m.text.includes("/Eagreement/"));
    await vi.waitFor(() => expect(signedSms()).toHaveLength(1), { timeout: 10_000, interval: 100 });
    const sms = signedSms();
    expect(sms[0]?.text).toContain(`/Eagreement/${sig?.agreementRef}`);
  });

  it("shows the signed agreement at /Eagreement/{id} with its signature page", async () => {
    const { b, ref, application } = await emiApplication("signed");
    const sig = await signatureOf(application.id);
    const page = await html(await app.get(`/Eagreement/${sig?.agreementRef}`));
    expect(page).toContain("Signed loan agreement");
    expect(page).toContain("Neha Gupta");
    expect(page).toContain(sig?.shownSha256);
    expect(page).toContain(`XXXXXX${b.mobile.slice(-4)}`);
    const pdf = await app.get(`/Eagreement/${sig?.agreementRef}/pdf`);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toMatch(/^inline; /);
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(sha256Bytes(bytes)).toBe(sig?.signedSha256);
    const text = await pdfText(bytes.buffer as ArrayBuffer);
    expect(text).toContain("Electronic signature");
    expect(text).toContain(sig?.shownSha256);
    expect(text).toContain("Key Fact Statement");
    const download = await app.get(`/Eagreement/${sig?.agreementRef}/pdf?download=1`);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; /);

    for (const unknown of [
      "/Eagreement/aaaaaaaaaaaaaaaaaaaaaaaaaa",
      "/Eagreement/not-a-ref",
      `/Eagreement/${ref}`,
      "/Eagreement/aaaaaaaaaaaaaaaaaaaaaaaaaa/pdf",
    ]) {
      const res = await app.get(unknown);
      expect(res.status, unknown).toBe(404);
      expect(await html(res)).toContain(`Page not found: ${unknown}`);
    }
  });

  it("opens the signed agreement to whoever holds its link for 30 days after signing, then only to its owner signed in", async () => {
    const signedAt = clock;
    const { b, application } = await emiApplication("signed");
    const agreement = `/Eagreement/${(await signatureOf(application.id))?.agreementRef}`;
    const stranger = await signedInBorrower(app, "9840199999");
    try {
      // Day 30, a minute before the link ends: anyone who holds it sees the document, and when it ends.
      clock = new Date(signedAt.getTime() + 30 * 86_400_000 - 60_000);
      const open = await app.get(agreement);
      expect(open.status).toBe(200);
      const openPage = await html(open);
      expect(openPage).toContain("Neha Gupta");
      expect(openPage).toContain("Anyone with this link can open this agreement until");
      expect((await app.get(`${agreement}/pdf`)).headers.get("content-type")).toBe("application/pdf");

      // After 30 days: someone not signed in is sent to sign in, told why, and gets nothing of the document.
      clock = new Date(signedAt.getTime() + 30 * 86_400_000 + 60_000);
      for (const path of [agreement, `${agreement}/pdf`, `${agreement}/pdf?download=1`]) {
        const res = await app.get(path);
        expect(res.status, path).toBe(302);
        expect(res.headers.get("content-type") ?? "", path).not.toContain("pdf");
        expect(res.headers.get("location"), path).toBe(`/quickStart/Otp?redirectTo=${encodeURIComponent(new URL(path, app.url).pathname)}`);
        expect(await res.text(), path).not.toContain("Neha Gupta");
      }
      const signIn = await html(await app.get(`/quickStart/Otp?redirectTo=${encodeURIComponent(agreement)}`));
      expect(signIn).toContain("A signed agreement opens from its link for 30 days after signing.");
      expect(signIn).toContain("It is also kept with your loan's documents.");
      expect((await app.get(`${agreement}/preview.png`)).status).toBe(404);

      // Its owner, signed in, still sees it (the link on the loan's documents is the PDF's).
      const mine = await app.get(agreement, { headers: { Cookie: b.cookie } });
      expect(mine.status).toBe(200);
      const minePage = await html(mine);
      expect(minePage).toContain("Neha Gupta");
      expect(shownMarkup(minePage)).not.toContain("Anyone with this link");
      const minePdf = await app.get(`${agreement}/pdf`, { headers: { Cookie: b.cookie } });
      expect(minePdf.headers.get("content-type")).toBe("application/pdf");

      // Another borrower, signed in: the not-found page, for the page and the PDF alike.
      for (const path of [agreement, `${agreement}/pdf`]) {
        const theirs = await app.get(path, { headers: { Cookie: stranger.cookie } });
        expect(theirs.status, path).toBe(404);
        const body = await html(theirs);
        expect(body, path).toContain(`Page not found: ${path}`);
        expect(body, path).not.toContain("Neha Gupta");
      }
    } finally {
      clock = signedAt;
    }
  });

  it("ends on /success/{reference}, and sends every step of a signed application to Step7", async () => {
    const { b, ref, step } = await emiApplication("signed");
    const outcome = await html(await app.get(`/success/${ref}`, { headers: { Cookie: b.cookie } }));
    expect(outcome).toContain("You have signed your loan agreement");
    expect(outcome).toContain(`href="${step("Step7")}"`);
    expect(outcome).toContain('href="/User/Dashboard"');
    for (const s of ["Step0", "Step1", "Step5", "Step6"]) {
      const res = await app.get(step(s), { headers: { Cookie: b.cookie } });
      expect(res.headers.get("location"), s).toBe(step("Step7"));
    }
    const step7 = await html(await app.get(step("Step7"), { headers: { Cookie: b.cookie } }));
    expect(step7).toContain("Signed, waiting for review");
    expect(step7).toContain("Nothing is approved yet.");
    const dashboard = await html(await app.get("/User/Dashboard", { headers: { Cookie: b.cookie } }));
    expect(dashboard).toContain("Signed, waiting for review");
    expect(dashboard).toContain(`application ${ref.slice(0, 8).toUpperCase()}`);
  });

  it("gives another borrower 404 at every step, both PDF routes and the outcome page", async () => {
    const { ref, step } = await emiApplication("signed");
    const other = await signedInBorrower(app, "9840000099");
    for (const s of ["Step0", "Step1", "Step5", "Step6", "Step7", "Step5/pdfDisplay", "Step5/pdfDownload"]) {
      const res = await app.get(step(s), { headers: { Cookie: other.cookie } });
      expect(res.status, s).toBe(404);
    }
    for (const s of ["Step0", "Step1", "Step6", "Step7"]) {
      const res = await post(step(s), other.cookie, { intent: "cancel" });
      expect(res.status, `POST ${s}`).toBe(404);
    }
    expect((await app.get(`/success/${ref}`, { headers: { Cookie: other.cookie } })).status).toBe(404);
    expect((await app.get(`/success/${ref}`)).status).toBe(404);
    const [application] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    expect(application?.status).toBe("signed");
  });

  it("lets the borrower cancel before disbursal, with an audit row", async () => {
    const { b, ref, step } = await emiApplication("signed");
    const res = await post(step("Step7"), b.cookie, { intent: "cancel" });
    expect(res.headers.get("location")).toBe(step("Step7"));
    const [application] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    expect(application?.status).toBe("cancelled");
    const audits = await app.services.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, application?.id as string));
    expect(audits.at(-1)?.details).toMatchObject({ from: "signed", to: "cancelled" });
    // A new application can start now.
    expect(await start(b.cookie, "Emi")).not.toBe(ref);
  });
});

describe("references and outcome pages", () => {
  it("gives 404 with the full path for a malformed reference and for every other two-segment path", async () => {
    const { cookie } = await signedInBorrower(app, "9840000050");
    for (const path of [
      "/User/newLoan/Emi/12/Step0?x=1",
      "/User/newLoan/salaryAdvance/NOT-A-REF/Step1",
      "/User/newLoan/Emi/aaaaaaaaaaaaaaaaaaaaaaaaaa/Step5",
    ]) {
      const res = await app.get(path, { headers: { Cookie: cookie } });
      expect(res.status, path).toBe(404);
      expect(await html(res)).toContain(`Page Not Found: ${path}`);
    }
    for (const path of ["/foo/bar?x=1", "/success/aaaaaaaaaaaaaaaaaaaaaaaaaa", "/done/aaaaaaaaaaaaaaaaaaaaaaaaaa", "/failure/123"]) {
      const res = await app.get(path, { headers: { Cookie: cookie } });
      expect(res.status, path).toBe(404);
      expect(await html(res)).toContain(`Page Not Found: ${path}`);
    }
    const other = await app.get("/a/b/c");
    expect(await html(other)).toContain("Page not found: /a/b/c");
  });
});

describe("the salary advance flow", () => {
  it("keeps the amount within half the salary, repays on the salary day and signs", async () => {
    const b = await borrower("9840000002", { netMonthlyIncome: "40000", salaryDay: "1" });
    const ref = await start(b.cookie, "salaryAdvance");
    const step = (s: string) => `/User/newLoan/salaryAdvance/${ref}/${s}`;
    const over = await post(step("Step0"), b.cookie, { amount: "20500" });
    expect(await html(over)).toContain("Choose an amount from ₹2,000 to ₹20,000.");
    expect((await post(step("Step0"), b.cookie, { amount: "20000" })).headers.get("location")).toBe(step("Step1"));
    expect((await post(step("Step1"), b.cookie, { purpose: "other", disbursalConsent: "yes" })).status).toBe(400);
    expect(
      (await post(step("Step1"), b.cookie, { purpose: "other", purposeDetails: "School fees", disbursalConsent: "yes" })).headers.get(
        "location",
      ),
    ).toBe(step("Step5"));
    expect((await app.get(step("Step5"), { headers: { Cookie: b.cookie } })).status).toBe(200);
    const pdf = await app.get(step("Step5/pdfDisplay"), { headers: { Cookie: b.cookie } });
    const text = await pdfText(await pdf.arrayBuffer());
    // Disbursal Tue 24 Nov; salary on the 1st: 1 Dec is 7 days away, so the repayment is 1 Dec 2026.
    // Interest 0.08% a day × 7 days on ₹20,000 = ₹112; fee 3% = ₹600 + GST ₹108.
    expect(text).toContain("Repayment date 1 Dec 2026");
    expect(text).toContain("Instalment amount ₹20,112");
    expect(text).toContain("₹600 + GST ₹108 = ₹708");
    expect(text).toContain("School fees");

    const page = await html(await app.get(step("Step6"), { headers: { Cookie: b.cookie } }));
    const documentId = /name="documentId" value="([0-9a-f-]{36})"/.exec(page)?.[1] as string;
    await post(step("Step6"), b.cookie, { intent: "send" });
    const signed = await post(step("Step6"), b.cookie, {
      intent: "sign",
      documentId,
      accept: "yes",
      code: latestCode(app.dataDir, b.mobile),
    });
    expect(signed.headers.get("location")).toBe(`/success/${ref}`);
  });

  it("explains each reason a self-employed borrower cannot have one", async () => {
    const b = await borrower("9840000003", { employmentType: "self_employed" });
    const ref = await start(b.cookie, "salaryAdvance");
    const page = await html(await app.get(`/User/newLoan/salaryAdvance/${ref}/Step0`, { headers: { Cookie: b.cookie } }));
    expect(page).toContain("A salary advance is only for salaried people, as it is repaid from your salary.");
    const refused = await post(`/User/newLoan/salaryAdvance/${ref}/Step0`, b.cookie, { amount: "5000" });
    expect(refused.status).toBe(302);
    const [row] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    expect(row?.amountPaise).toBeNull();
  });
});

describe("an expired Key Fact Statement", () => {
  it("is replaced by a fresh one before signing, and the old one cannot be signed", async () => {
    const b = await borrower("9840000004");
    const ref = await start(b.cookie, "Emi");
    const step = (s: string) => `/User/newLoan/Emi/${ref}/${s}`;
    await post(step("Step0"), b.cookie, { amount: "50000", tenure: "6" });
    await post(step("Step1"), b.cookie, { purpose: "travel", disbursalConsent: "yes" });
    await app.get(step("Step5"), { headers: { Cookie: b.cookie } });
    const page = await html(await app.get(step("Step6"), { headers: { Cookie: b.cookie } }));
    const oldId = /name="documentId" value="([0-9a-f-]{36})"/.exec(page)?.[1] as string;
    const saved = clock;
    clock = new Date(saved.getTime() + 5 * 24 * 3600 * 1000); // Saturday: past Thursday's validity
    try {
      // Opening Step6 replaces the expired KFS and sends the borrower to read the new one.
      const res = await app.get(step("Step6"), { headers: { Cookie: b.cookie } });
      expect(res.headers.get("location")).toBe(step("Step5"));
      await post(step("Step6"), b.cookie, { intent: "send" });
      const stale = await post(step("Step6"), b.cookie, {
        intent: "sign",
        documentId: oldId,
        accept: "yes",
        code: latestCode(app.dataDir, b.mobile),
      });
      expect(stale.status).toBe(409);
      expect(await html(stale)).toContain("The Key Fact Statement has changed since you opened it. Read the new one before you sign.");
      const [application] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
      const docs = await app.services.db
        .select()
        .from(loanDocuments)
        .where(eq(loanDocuments.applicationId, application?.id as string));
      expect(docs).toHaveLength(2);
      const fresh = docs.find((d) => !d.supersededAt);
      expect(fresh?.id).not.toBe(oldId);
      // Issued Saturday 28 Nov: disbursal assumed Monday 30 Nov, valid to Wednesday 2 Dec.
      expect(fresh?.assumedDisbursalDate).toBe("2026-11-30");
      expect(fresh?.validUntil).toBe("2026-12-02");
    } finally {
      clock = saved;
    }
  });
});
