import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { activeLoan, signedInStaff } from "../helpers/applications.ts";
import { emailsFor, noticesOf } from "../helpers/notices.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Every link in a message is on PUBLIC_URL's origin (docs/product.md "Notifications"), whether a
// borrower's request, a staff action or a background job made the message: never the address the
// process happens to listen on.
const PUBLIC = "https://loans.example.in";
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ PUBLIC_URL: `${PUBLIC}/`, LOCAL_PAYOUT_SETTLE_SECONDS: "0" });
});
afterAll(async () => {
  await app?.stop();
});

describe("links in messages", () => {
  it("lead to PUBLIC_URL in SMS and e-mail, also when a background job sends them", async () => {
    const credit = await signedInStaff(app, "credit", "Asha Rao");
    const ops = await signedInStaff(app, "operations", "Omar Shaikh");
    const mobile = "9720000101";
    const b = await activeLoan(app, mobile, credit, ops, { email: "links.one@example.com" });

    // The disbursal is told by the payout's job, after the local stand-in settles it.
    const sms = await vi.waitFor(
      () => {
        const found = readOutbox(app.dataDir).find((m) => m.to === mobile && m.text.includes(`Loan ${b.loanNumber}: first instalment`));
        if (!found) throw new Error("no disbursal SMS yet");
        return found;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(sms.text).toContain(`Details: ${PUBLIC}/User/Loans/Emi/${b.loanNumber}`);
    const [disbursed] = await noticesOf(app, b.userId, "loan_disbursed");
    const email = await vi.waitFor(
      () => {
        const [found] = emailsFor(app.dataDir, disbursed?.id ?? "");
        if (!found) throw new Error("no disbursal e-mail yet");
        return found.raw.replace(/=\r?\n/g, ""); // quoted-printable's soft line breaks
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(email).toContain(`Open it in the app: ${PUBLIC}/User/Loans/Emi/${b.loanNumber}`);

    // The signing (a borrower's request) and the approval (a staff action) too: every link in every SMS.
    const links = readOutbox(app.dataDir)
      .filter((m) => m.to === mobile)
      .flatMap((m) => m.text.match(/\bhttps?:\/\/\S+/g) ?? []);
    expect(links.length).toBeGreaterThanOrEqual(2);
    expect(links.some((l) => l.includes("/Eagreement/"))).toBe(true);
    for (const link of links) expect(link.startsWith(`${PUBLIC}/`), link).toBe(true);
    expect(links.every((l) => !l.startsWith(`${PUBLIC}//`))).toBe(true);
  }, 120_000);
});
