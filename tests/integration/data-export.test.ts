import { eq, getTableName, type SQL, sql } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indiaTime, todayIST } from "../../app/domain/india-date.ts";
import { addDays } from "../../app/domain/loan-math.ts";
import enDataExport from "../../app/i18n/messages/en/dataExport.ts";
import {
  amlMatches,
  borrowerBankAccounts,
  borrowerProfiles,
  dataBreachBorrowers,
  dataBreaches,
  dataNominees,
  dataRequests,
  loanApplications,
  payments,
  payouts,
  sanctionsLists,
  sessions,
  suspiciousReports,
} from "../../app/server/db/schema.ts";
import type { BorrowerExport } from "../../app/server/privacy/export.server.ts";
import { BORROWER_TABLES } from "../../app/server/privacy/tables.server.ts";
import { activeLoan, signedInStaff, staffSessionAgain } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
import { postForm } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { englishWords } from "../helpers/english.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { borrowerSessionAgain } from "../helpers/session.ts";

// "Download my data" (docs/product.md "Protecting data and the service") through HTTP: two borrowers
// with a real history (profile, documents, a signed and disbursed loan with a payment, autopay, a
// ticket, notices, a bureau file, a nominee, a breach), and for one of them a sanctions match and a
// suspicious-transaction report. The JSON holds every registry table's rows about the borrower, the
// same rows a query of its own finds, and nothing of the other borrower's, of screening or of secrets.
const clock: TestClock = { now: new Date("2026-03-02T05:30:00Z") };
let app: TestServer;
let credit: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
let finance: { cookie: string; userId: string };
type Loan = Awaited<ReturnType<typeof activeLoan>>;
let a: Loan;
let b: Loan;
let matchId = "";
const A_NAME = "Anaya Kashyap";
const B_NAME = "Bhavesh Trivedi";
const LISTED = "Zorawar Qetzalcoatl Imranov";
const GROUNDS = "Repayments split under thresholds from unrelated third-party accounts";

beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  finance = await signedInStaff(app, "finance", "Farah Iqbal");
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

const db = () => app.services.db;
const freshCookie = (userId: string) => borrowerSessionAgain(app, userId);
const get = (path: string, cookie?: string) => app.get(path, cookie ? { headers: { Cookie: cookie } } : {});

/** A borrower's history through the pages: a loan paid out, a payment at the local checkout, a ticket. */
async function history(mobile: string, name: string): Promise<Loan> {
  clock.now = new Date("2026-03-02T05:30:00Z");
  const loan = await activeLoan(app, mobile, credit, ops, { name, email: `${mobile}@example.com` });
  clock.now = indiaTime("2026-03-05", "10:00");
  const cookie = await freshCookie(loan.userId);
  const started = await postForm(app, `/User/Loans/Emi/${loan.loanNumber}`, { intent: "pay", choice: "amount", amount: "500" }, { cookie });
  const done = await postForm(app, started.headers.get("location") ?? "", { outcome: "pay" });
  const back = new URL(done.headers.get("location") ?? "");
  expect((await app.get(`${back.pathname}${back.search}`)).status).toBe(302);
  const ticket = await postForm(
    app,
    "/User/Help/new",
    { once: crypto.randomUUID(), kind: "request", category: "repayment", subject: "Receipt", message: "Please send my payment receipt." },
    { cookie },
  );
  expect(ticket.status).toBe(302);
  return loan;
}

/** Each registry table's rows about `userId`, by a query of this test's own (not the registry's `where`). */
function independently(table: string, columns: readonly string[], userId: string, mobile: string): SQL {
  const applications = sql`(select id from loan_applications where user_id = ${userId})`;
  const own: Record<string, SQL> = {
    users: sql`id = ${userId}`,
    verifications: sql`target = ${mobile}`,
    verification_sends: sql`target = ${mobile}`,
    audit_log: sql`actor_user_id = ${userId}`,
    notification_deliveries: sql`notification_id in (select id from notifications where user_id = ${userId})`,
    ticket_messages: sql`ticket_id in (select id from tickets where user_id = ${userId})`,
    collection_tasks: sql`case_id in (select id from collection_cases where user_id = ${userId})`,
    statement_lines: sql`provider_ref in (select provider_ref from journal_lines where application_id in ${applications})`,
  };
  if (own[table]) return own[table];
  if (columns.includes("user_id")) return sql`user_id = ${userId}`;
  if (columns.includes("application_id")) return sql`application_id in ${applications}`;
  throw new Error(`${table}: this test has no query of its own for it yet`);
}

const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();

async function downloadJson(cookie: string) {
  const res = await get("/User/Profile/data/export.json", cookie);
  expect(res.status).toBe(200);
  return { res, text: await res.text() };
}

describe("download my data", { shuffle: false }, () => {
  it("builds two borrowers' histories, a bureau file, and a screening match and report for A", async () => {
    a = await history("9781000001", A_NAME);
    b = await history("9781000002", B_NAME);
    await waitForJobs(app, ["notify", "ckyc-upload", "ckyc-search", "aml-screen", "credit-checks", "credit-report"]);
    clock.now = indiaTime("2026-03-16", "11:00");
    await staffSessionAgain(app, finance);
    expect((await postForm(app, "/admin/bureau", { intent: "make", asOf: "2026-03-15" }, { cookie: finance.cookie })).status).toBe(302);
    // The payout and gateway stand-ins' statements, imported and matched by finance.
    expect((await postForm(app, "/admin/reconciliation", { intent: "import_local" }, { cookie: finance.cookie })).status).toBe(302);
    // Screening and a suspicious-transaction report about A (written as compliance's pages would).
    const [list] = await db()
      .insert(sanctionsLists)
      .values({
        source: "uapa_51a",
        fileName: "uapa-test.csv",
        fileSha256: "f".repeat(64),
        persons: [
          {
            source: "uapa_51a",
            ref: "UAPA-T-1",
            kind: "individual",
            names: [LISTED],
            dobs: [],
            listedOn: null,
            nationality: null,
            program: null,
          },
        ],
        personCount: 1,
        loadedAt: clock.now,
      })
      .returning();
    const [match] = await db()
      .insert(amlMatches)
      .values({
        userId: a.userId,
        listId: list!.id,
        source: "uapa_51a",
        ref: "UAPA-T-1",
        listedName: LISTED,
        scoreMilli: 870,
        nameMilli: 900,
        dob: "unknown",
        why: "Kashyap ~ Qetzalcoatl (0.90)",
        status: "confirmed",
        foundAt: clock.now,
        decidedAt: clock.now,
        note: "Confirmed after a call: the same person as the listed one.",
      })
      .returning();
    matchId = match!.id;
    await db().insert(suspiciousReports).values({
      reference: "STR-TEST0001",
      userId: a.userId,
      matchId: match!.id,
      suspectedAt: clock.now,
      dueOn: "2026-03-25",
      periodFrom: "2026-03-01",
      periodTo: "2026-03-16",
      grounds: GROUNDS,
      draftedAt: clock.now,
      updatedAt: clock.now,
    });
    // Data rights: a nominee each, a breach that listed both, another that listed only B, a correction asked by B.
    for (const [who, nominee] of [
      [a, "Ira Kashyap"],
      [b, "Bela Trivedi"],
    ] as const)
      await db()
        .insert(dataNominees)
        .values({ userId: who.userId, name: nominee, relationship: "sister", mobile: "9000000001", createdAt: clock.now });
    const breach = (reference: string) => ({
      reference,
      discoveredAt: clock.now,
      description: `Breach ${reference}: a misdirected e-mail`,
      dataItems: ["mobile"],
      consequences: "Your mobile number may be known to one other person.",
      mitigation: "The e-mail was recalled.",
      borrowerSteps: "Ignore calls claiming to be us that ask for a code.",
      scope: "listed" as const,
      recordedAt: clock.now,
    });
    const [both, onlyB] = await db()
      .insert(dataBreaches)
      .values([breach("BR-BOTH0001"), breach("BR-ONLYB001")])
      .returning();
    await db()
      .insert(dataBreachBorrowers)
      .values([
        { breachId: both!.id, userId: a.userId },
        { breachId: both!.id, userId: b.userId },
        { breachId: onlyB!.id, userId: b.userId },
      ]);
    await db()
      .insert(dataRequests)
      .values({
        reference: "DR-BCORRECT",
        userId: b.userId,
        kind: "correction",
        details: { what: "name" },
        receivedAt: clock.now,
        dueOn: "2026-04-15",
      });
  }, 300_000);

  it("exports every registry table's rows about the borrower, the same rows a query of its own finds, and nothing of another's", async () => {
    const cookie = await freshCookie(a.userId);
    const { res, text } = await downloadJson(cookie);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="sugam-loans-my-data-2026-03-16.json"`);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const data = JSON.parse(text) as BorrowerExport;
    expect(data.borrower).toEqual({ name: A_NAME, mobile: a.mobile });
    expect(data.sections.map((s) => s.table)).toEqual(BORROWER_TABLES.map((t) => getTableName(t.table)));
    for (const entry of BORROWER_TABLES) {
      const table = getTableName(entry.table);
      const columns = getTableConfig(entry.table).columns.filter((c) => !entry.omit?.includes(c.name));
      const found = await db()
        .select(Object.fromEntries(columns.map((c) => [c.name, c])))
        .from(entry.table)
        .where(
          independently(
            table,
            columns.map((c) => c.name),
            a.userId,
            a.mobile,
          ),
        );
      const exported = data.sections.find((s) => s.table === table)?.rows ?? [];
      const own = exported.map((row) => Object.fromEntries(columns.map((c) => [c.name, row[c.name]])));
      expect(sorted(own), table).toEqual(sorted(JSON.parse(JSON.stringify(found))));
      expect(
        exported.every((row) => Object.keys(row).every((k) => !entry.omit?.includes(k))),
        table,
      ).toBe(true);
    }
    const held = data.sections.filter((s) => s.rows.length).map((s) => s.table);
    for (const table of ["users", "borrower_documents", "loan_signatures", "payments", "payouts", "mandates", "tickets", "notifications"])
      expect(held).toContain(table);
    for (const table of ["bureau_records", "ckyc_records", "journal_lines", "statement_lines", "data_nominees", "data_breach_borrowers"])
      expect(held).toContain(table);
    expect(held.length).toBeGreaterThanOrEqual(35);
    const breaches = data.sections.find((s) => s.table === "data_breach_borrowers")?.rows ?? [];
    expect(breaches).toEqual([
      expect.objectContaining({ reference: "BR-BOTH0001", borrower_steps: expect.stringContaining("Ignore calls") }),
    ]);
    // Whom it went to, from what was sent: the bureaus of the file, the local stand-ins, SMS and e-mail.
    const recipients = data.recipients.map((r) => `${r.kind}:${r.name}`);
    for (const bureau of ["TransUnion CIBIL", "Equifax", "Experian", "CRIF High Mark"])
      expect(recipients).toContain(`credit_bureau:${bureau}`);
    for (const r of ["pan_verifier:local", "payment_gateway:local", "payout_provider:local", "mandate_provider:local", "sms_gateway:local"])
      expect(recipients).toContain(r);
    expect(recipients).toContain("email_gateway:local");
    expect(recipients).toContain("ckyc_registry:local");
    expect(recipients).toContain("bank_verifier:local");

    // Nothing of B's: ids, mobile, name, PAN, loan, references (A's own are there).
    for (const value of [a.userId, a.id, a.ref, a.loanNumber, a.agreementRef, "BR-BOTH0001", "Ira Kashyap"]) expect(text).toContain(value);
    const [bProfile] = await db().select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, b.userId));
    const [bApp] = await db().select().from(loanApplications).where(eq(loanApplications.userId, b.userId));
    const bPayments = await db().select().from(payments).where(eq(payments.userId, b.userId));
    const ofB = [
      b.userId,
      b.mobile,
      B_NAME,
      "Trivedi",
      "Bela",
      bProfile!.panMasked,
      bApp!.id,
      bApp!.reference,
      b.loanNumber,
      b.agreementRef,
    ];
    for (const value of [...ofB, ...bPayments.flatMap((p) => [p.id, p.reference]), "BR-ONLYB001", "DR-BCORRECT"])
      expect(text).not.toContain(value);
    // Nothing of screening or the report; no secret's hash and no encrypted value.
    for (const value of [matchId, LISTED, "Qetzalcoatl", "UAPA-T-1", "STR-TEST0001", GROUNDS, "Confirmed after a call"])
      expect(text).not.toContain(value);
    // (A KFS's "Sanctioned loan amount" is the loan's, not screening.)
    expect(text.match(/.{0,40}(sanctions|screen|suspicious|listed_name|aml_|fiu).{0,40}/gi)).toBeNull();
    const [profile] = await db().select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, a.userId));
    const [bank] = await db().select().from(borrowerBankAccounts).where(eq(borrowerBankAccounts.userId, a.userId));
    const paidOut = await db().select().from(payouts).where(eq(payouts.applicationId, a.id));
    const tokens = await db().select({ hash: sessions.tokenHash }).from(sessions).where(eq(sessions.userId, a.userId));
    const codes = (await db().execute(sql`select code_hash from verifications where target = ${a.mobile}`)) as unknown as {
      rows: { code_hash: string }[];
    };
    const secrets = [profile!.panEnc, profile!.panHmac, bank!.accountNumberEnc, ...paidOut.map((p) => p.accountNumberEnc)];
    for (const value of [...secrets, ...tokens.map((t) => t.hash), ...codes.rows.map((c) => c.code_hash)])
      expect(text).not.toContain(value);
    expect(codes.rows.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/"(pan_enc|pan_hmac|account_number_enc|token_hash|code_hash|password_hash|p256dh|signed_pdf|pdf)"/);
  }, 60_000);

  it("gives B their own file without A's", async () => {
    const { text } = await downloadJson(await freshCookie(b.userId));
    for (const value of [a.userId, a.mobile, A_NAME, a.id, a.loanNumber, LISTED, GROUNDS]) expect(text).not.toContain(value);
    expect(text).toContain("BR-ONLYB001");
    expect(text).toContain("DR-BCORRECT");
  });

  it("makes a readable PDF: the borrower, each section, amounts in rupees, who received the data; nothing of screening", async () => {
    const res = await get("/User/Profile/data/export.pdf", await freshCookie(a.userId));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="sugam-loans-my-data-2026-03-16.pdf"`);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const { text } = await extractText(new Uint8Array(await res.arrayBuffer()), { mergePages: true });
    const flat = text.replace(/\s+/g, " ");
    for (const words of [
      A_NAME,
      a.mobile,
      "Your personal data",
      "Your loan payments",
      "Your loan applications",
      "Who we shared your data with",
    ])
      expect(flat).toContain(words);
    for (const words of ["₹1,00,000", "TransUnion CIBIL", "The SMS gateway", "Amounts are in rupees", a.loanNumber])
      expect(flat).toContain(words);
    expect(flat.match(/.{0,40}(sanctions|screen|suspicious|Qetzalcoatl|Trivedi|fiu).{0,40}/gi)).toBeNull();
    // English as it was: no Hindi, dates in English.
    expect(flat).not.toMatch(/[\u0900-\u097F]/);
    expect(flat).toContain("16 Mar 2026");
  }, 60_000);

  it("makes the PDF in the language of the request: Hindi words around the borrower's own values as stored", async () => {
    const cookie = await freshCookie(b.userId);
    const res = await get("/User/Profile/data/export.pdf", `${cookie}; lang=hi`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="sugam-loans-my-data-2026-03-16.pdf"`);
    const { text } = await extractText(new Uint8Array(await res.arrayBuffer()), { mergePages: true });
    const flat = text.replace(/\s+/g, " ");
    for (const words of ["आपकी निजी जानकारी", "हमने आपका डेटा किसके साथ साझा किया", "आपके लोन के भुगतान", B_NAME, b.loanNumber])
      expect(flat).toContain(words);
    // Dates in Hindi (a stored sentence may still say "16 Mar 2026": a staff member's resolution).
    expect(flat).toContain(`${B_NAME} के लिए, मोबाइल ${b.mobile}, 16 मार्च 2026, 11:00 am को बनाई गई।`);
    for (const words of ["Your personal data", "Your loan payments", "Amounts are in rupees", "Prepared for"])
      expect(flat).not.toContain(words);
    // The borrower's own values (the JSON file's, downloaded after the PDF, so holding all it showed) may be English;
    // so may the keys inside a stored JSON value and a column the catalogue does not name. Nothing else.
    const data = JSON.parse((await downloadJson(cookie)).text) as BorrowerExport;
    const own: string[] = [];
    const collect = (value: unknown, nested: boolean): void => {
      if (typeof value === "string") own.push(value);
      else if (Array.isArray(value)) for (const v of value) collect(v, true);
      else if (value && typeof value === "object")
        for (const [k, v] of Object.entries(value)) {
          if (nested || !(k in enDataExport.column)) own.push(k);
          collect(v, true);
        }
    };
    for (const section of data.sections) for (const row of section.rows) collect(row, false);
    for (const r of data.recipients) own.push(r.name);
    const { brandName, lender } = app.services.config.public;
    own.push(brandName, lender.name);
    const ownWords = new Set(own.flatMap((v) => englishWords(v)).map((w) => w.toLowerCase()));
    // A table cell cut short shows part of an identifier or an address.
    const tokens = own.filter((v) => v.length >= 20 && !/\s/.test(v)).map((v) => v.toLowerCase());
    const left = englishWords(flat).filter((w) => !ownWords.has(w.toLowerCase()) && !tokens.some((t) => t.includes(w.toLowerCase())));
    expect([...new Set(left)]).toEqual([]);
  }, 60_000);

  it("records each download as an access request answered at once", async () => {
    const rows = await db().select().from(dataRequests).where(eq(dataRequests.userId, a.userId));
    expect(rows.map((r) => r.details).sort((x, y) => String(x.format).localeCompare(String(y.format)))).toEqual([
      { format: "json" },
      { format: "pdf" },
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ kind: "access", status: "done", answeredAt: clock.now, receivedAt: clock.now });
      expect(row.dueOn).toBe(addDays(todayIST(clock.now), 30));
      expect(row.reference).toMatch(/^DR-[0-9A-Z]{8}$/);
    }
  });

  it("answers 429 in words after 10 downloads in an hour, and records nothing for it", async () => {
    const cookie = await freshCookie(a.userId);
    for (let i = 0; i < 8; i++) await downloadJson(cookie);
    const refused = await get("/User/Profile/data/export.pdf", cookie);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toBe("You can download your data 10 times an hour. Please try again after 11:30 am.");
    expect(await db().select().from(dataRequests).where(eq(dataRequests.userId, a.userId))).toHaveLength(10);
    // The next hour allows it again.
    clock.now = indiaTime("2026-03-16", "12:01");
    expect((await get("/User/Profile/data/export.json", await freshCookie(a.userId))).status).toBe(200);
  }, 60_000);

  it("is offered on the privacy page of the profile", async () => {
    const page = await (await get("/User/Profile/privacy", await freshCookie(b.userId))).text();
    expect(page.includes('href="/User/Profile/data/export.pdf"')).toBe(true);
    expect(page.includes('href="/User/Profile/data/export.json"')).toBe(true);
  });

  it("sends a signed-out visitor to sign in, and refuses staff as every /User page does", async () => {
    const out = await get("/User/Profile/data/export.json");
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/quickStart/Otp?redirectTo=%2FUser%2FProfile%2Fdata%2Fexport.json");
    await staffSessionAgain(app, ops);
    expect((await get("/User/Profile/data/export.pdf", ops.cookie)).status).toBe(403);
  });
});
