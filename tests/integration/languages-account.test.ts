import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loanApplications, notifications } from "../../app/server/db/schema.ts";
import { signedApplication, signedInStaff } from "../helpers/applications.ts";
import { shortReference } from "../../app/domain/loans/application.ts";
import { englishLeft, shownMarkup } from "../helpers/english.ts";
import { postForm } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The signed-in borrower's frame, dashboard, notices and Help in Hindi (docs/product.md "Languages"):
// with `lang=hi` no English is left but the configured names and the borrower's own data; in English
// the same pages are English still.
let app: TestServer;
let borrower: { cookie: string; userId: string; ref: string };
let reference = "";
beforeAll(async () => {
  app = await startTestServer();
  borrower = await signedApplication(app, "9822200001");
  // A ticket about the application, answered by support and then resolved (a status line in the thread).
  const raised = await postForm(
    app,
    "/User/Help/new",
    {
      once: crypto.randomUUID(),
      kind: "complaint",
      category: "repayment",
      loan: borrower.ref,
      subject: "भुगतान नहीं दिख रहा",
      message: "मैंने 1 जून को UPI से ₹5,000 चुकाए, पर लोन के पेज पर नहीं दिख रहा।",
    },
    { cookie: borrower.cookie },
  );
  expect(raised.status).toBe(302);
  reference = /GRV-\d{10}$/.exec(raised.headers.get("location") ?? "")?.[0] ?? "";
  const support = await signedInStaff(app, "support", "Lang Support");
  const staff = (fields: Record<string, string>) =>
    postForm(app, `/admin/tickets/${reference}`, { once: crypto.randomUUID(), ...fields }, { cookie: support.cookie });
  expect((await staff({ intent: "reply", message: "हम इसे देख रहे हैं।", then: "in_progress" })).status).toBe(302);
  expect((await staff({ intent: "status", status: "resolved" })).status).toBe(302);
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replace(/<!-- -->/g, "");

/** What a Hindi page may show in Latin letters besides the kept terms: the brand and the lender's configured details (each of them). */
function configValues(): string[] {
  const { brandName, lender } = app.config.public;
  const words = (value: unknown): string[] =>
    typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(words) : [];
  return [brandName, ...words(lender)];
}

/**
 * The borrower's notices as stored: their words are written when they are sent, in the account's
 * language (English for this borrower: only the page's cookie is Hindi), so they are the borrower's
 * data here.
 */
async function noticeWords(): Promise<string[]> {
  const rows = await app.services.db
    .select({ title: notifications.title, body: notifications.body })
    .from(notifications)
    .where(eq(notifications.userId, borrower.userId));
  return rows.flatMap((r) => [r.title, ...r.body.split("\n")]);
}

const pages = () => [
  "/User/Dashboard",
  "/User/Notifications",
  "/User/Help",
  "/User/Help?q=APR",
  "/User/Help?q=किस्त",
  "/User/Help?q=nothing-matches-this",
  "/User/Help/new",
  `/User/Help/new?loan=${borrower.ref}`,
  `/User/Help/${reference}`,
];

describe("the borrower's account pages in Hindi", { shuffle: false }, () => {
  it("shows no English on the dashboard, the notices and Help but names and the borrower's data", async () => {
    // The application's short reference (letters only) and the ticket's are the borrower's data too, as is the search they typed.
    const allowed = [...configValues(), ...(await noticeWords()), shortReference(borrower.ref), reference, "nothing-matches-this"];
    for (const path of pages()) {
      const res = await app.get(path, { headers: { Cookie: `${borrower.cookie}; lang=hi` } });
      expect(res.status, path).toBe(200);
      const page = await html(res);
      expect(page, path).toContain('<html lang="hi-IN"');
      expect(englishLeft(page, allowed), `${path} in Hindi`).toEqual([]);
    }
  });

  it("says the frame, the ticket's status line and the FAQ search in Hindi", async () => {
    const get = async (path: string) =>
      shownMarkup(await html(await app.get(path, { headers: { Cookie: `${borrower.cookie}; lang=hi` } })));
    const dashboard = await get("/User/Dashboard");
    for (const words of ["डैशबोर्ड", "साइन आउट", "आपके आवेदन", 'data-testid="language-switch"']) expect(dashboard, words).toContain(words);
    const ticket = await get(`/User/Help/${reference}`);
    expect(ticket).toContain("स्थिति “काम चल रहा है” से बदलकर “हल हो गया” हुई।");
    expect(ticket).toContain("क्या समस्या हल हो गई?");
    const search = await get("/User/Help?q=किस्त");
    expect(search).toMatch(/“किस्त” से \d+ सवाल मिले?।/);
  });

  it("says a refused form in Hindi", async () => {
    const res = await postForm(
      app,
      "/User/Help/new",
      { once: crypto.randomUUID(), kind: "complaint", category: "other", subject: "abc", message: "short" },
      { cookie: `${borrower.cookie}; lang=hi` },
    );
    expect(res.status).toBe(400);
    const page = shownMarkup(await html(res));
    expect(page).toContain("इसे एक छोटा-सा शीर्षक दें (कम से कम 5 अक्षर)।");
    expect(page).toContain("कम से कम 10 अक्षर लिखें, ताकि हम मदद कर सकें।");
  });

  it("says in Hindi why a new loan is not open now (the dashboard's own refusal reasons)", async () => {
    // The application was not approved today: a new one opens only after the policy's days.
    await app.services.db
      .update(loanApplications)
      .set({ status: "rejected", decidedAt: app.services.now() })
      .where(eq(loanApplications.reference, borrower.ref));
    const res = await app.get("/User/Dashboard", { headers: { Cookie: `${borrower.cookie}; lang=hi` } });
    const page = await html(res);
    const closed = /data-testid="apply-closed"[\s\S]*?<\/ul>/.exec(shownMarkup(page))?.[0] ?? "";
    expect(closed).toContain("अभी आप नए लोन के लिए आवेदन नहीं कर सकते।");
    expect(closed).toMatch(/हम आपका पिछला आवेदन मंज़ूर नहीं कर सके। आप \d+ [\u0900-\u097F]+ \d{4} से फिर से आवेदन कर सकते हैं।/);
    expect(englishLeft(page, [...configValues(), shortReference(borrower.ref)])).toEqual([]);
    // And in English.
    const english = shownMarkup(await html(await app.get("/User/Dashboard", { headers: { Cookie: `${borrower.cookie}; lang=en` } })));
    expect(english).toContain("A new loan is not open to you now.");
    expect(english).toMatch(/We could not approve your last application\. You can apply again from \d+ \w{3} \d{4}\./);
  });
});

describe("the same pages in English", { shuffle: false }, () => {
  it("are English still", async () => {
    const expected: Record<string, string[]> = {
      "/User/Dashboard": ["Your applications", "Sign out", "Your KYC profile", "This device"],
      "/User/Notifications": ["Notices"],
      "/User/Help": ["Frequently asked questions", "Your tickets", "Raise a ticket"],
      "/User/Help/new": ["Is it a complaint or a question?", "Choose…", "Not about one loan"],
      [`/User/Help/${reference}`]: ["Status changed from In progress to Resolved.", "Is it solved?", "Support team"],
    };
    for (const [path, words] of Object.entries(expected)) {
      const res = await app.get(path, { headers: { Cookie: `${borrower.cookie}; lang=en` } });
      expect(res.status, path).toBe(200);
      const page = await html(res);
      expect(page, path).toContain('<html lang="en-IN"');
      for (const w of words) expect(shownMarkup(page), `${path}: ${w}`).toContain(w);
      // No Hindi but the borrower's own words and the switch to Hindi.
      const shown = shownMarkup(page)
        .replace(/<form[^>]*action="\/language"[\s\S]*?<\/form>/, "")
        .replace(/भुगतान नहीं दिख रहा|हम इसे देख रहे हैं।|मैंने 1 जून[^<]*/g, "");
      expect(shown.match(/[^<>]*[\u0900-\u097F][^<>]*/g) ?? [], path).toEqual([]);
    }
  });
});
