import { eq } from "drizzle-orm";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loanApplications, loanDocuments, loanSignatures } from "../../app/server/db/schema.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { startedApplication } from "../helpers/applications.ts";
import { postForm } from "../helpers/http.ts";
import { latestCode } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { storedPdf } from "../helpers/stored-pdf.ts";

// A Monday morning in India.
const now = () => new Date("2026-11-23T04:30:00Z");

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({}, { now });
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&");
const pdfText = async (bytes: Uint8Array) => (await extractText(new Uint8Array(bytes).slice(), { mergePages: true })).text as string;

describe("the KFS in the borrower's language", { shuffle: false }, () => {
  it("is issued in the page's language, issued afresh after a switch, and signed in Hindi with the language recorded", async () => {
    const mobile = "9840077001";
    const session = await signedInBorrower(app, mobile);
    await completeProfile(app, session.cookie, defaultProfile(), mobile);
    const ref = await startedApplication(app, session.cookie, "Emi");
    const step = (s: string) => `/User/newLoan/Emi/${ref}/${s}`;
    const english = session.cookie;
    const hindi = `${session.cookie}; lang=hi`;
    expect((await postForm(app, step("Step0"), { amount: "1,00,000", tenure: "12" }, { cookie: english })).status).toBe(302);
    expect((await postForm(app, step("Step1"), { purpose: "medical", disbursalConsent: "yes" }, { cookie: english })).status).toBe(302);
    const [application] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    const documents = () => app.services.db.select().from(loanDocuments).where(eq(loanDocuments.applicationId, application!.id));
    const current = async () => (await documents()).find((d) => !d.supersededAt);

    // Step5 in English: an English KFS.
    expect((await app.get(step("Step5"), { headers: { Cookie: english } })).status).toBe(200);
    const first = await current();
    expect(first?.language).toBe("en");
    expect(await pdfText(await storedPdf(app, first!))).toContain("Key Fact Statement");

    // The borrower switches to Hindi before signing: Step6 issues a fresh KFS in Hindi and sends them to read it.
    const switched = await app.get(step("Step6"), { headers: { Cookie: hindi } });
    expect(switched.headers.get("location")).toBe(step("Step5"));
    const fresh = await current();
    expect(fresh?.id).not.toBe(first?.id);
    expect(fresh?.language).toBe("hi");
    expect(fresh?.terms.language).toBe("hi");
    const text = await pdfText(await storedPdf(app, fresh!));
    expect(text).toContain("लोन अनुबंध");
    expect(text).toContain("इलाज का ख़र्च"); // the purpose, in Hindi
    // The same figures as the English one.
    expect(fresh?.terms.figures).toEqual(first?.terms.figures);
    expect(await documents()).toHaveLength(2);

    // Opened again in Hindi, it is kept; signed in Hindi.
    const page = await html(await app.get(step("Step6"), { headers: { Cookie: hindi } }));
    const documentId = /name="documentId" value="([0-9a-f-]{36})"/.exec(page)?.[1];
    expect(documentId).toBe(fresh?.id);
    expect((await postForm(app, step("Step6"), { intent: "send" }, { cookie: hindi })).status).toBe(200);
    const signed = await postForm(
      app,
      step("Step6"),
      { intent: "sign", documentId: documentId as string, accept: "yes", code: latestCode(app.dataDir, mobile) },
      { cookie: hindi },
    );
    expect(signed.headers.get("location")).toBe(`/success/${ref}`);
    const [signature] = await app.services.db.select().from(loanSignatures).where(eq(loanSignatures.applicationId, application!.id));
    expect(signature?.language).toBe("hi");
    expect(signature?.documentId).toBe(fresh?.id);
    const signedText = await pdfText(await storedPdf(app, signature!));
    expect(signedText).toContain("इलेक्ट्रॉनिक हस्ताक्षर");
    expect(signedText).toContain("23 नवंबर 2026");
  });
});
