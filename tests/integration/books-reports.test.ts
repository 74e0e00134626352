import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_PURPOSES, type AccountPurpose } from "../../app/domain/books/chart.ts";
import type { Line } from "../../app/domain/books/positions.ts";
import type { IsoDate } from "../../app/domain/loan-math.ts";
import { postEntry } from "../../app/server/books/journal.server.ts";
import { chartInForce } from "../../app/server/books/rules.server.ts";
import {
  accountingPeriods,
  auditLog,
  booksRules,
  journalEntries,
  loanAccounts,
  loanApplications,
  monthEndClasses,
} from "../../app/server/db/schema.ts";
import { signedInStaff } from "../helpers/applications.ts";
import { trialTotals } from "../helpers/books.ts";
import { parseCsv } from "../helpers/csv.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The finance pages (docs/product.md "The lender's books"): the trial balance, a general ledger
// across pages, the journal searched and exported (CSV and Tally XML), the portfolio by asset
// class, income for a period, closing months in order, and the rules; each page's figures checked
// against the journal lines themselves, on a demo installation whose books are posted, with
// entries of the test's own dated where nothing else is (2030 to 2032).

type Staff = { cookie: string; userId: string };
type Clock = { now: Date };

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ")
    .trim();
/** "₹1,23,456.78" → paise; "" → 0. */
const paiseOf = (shown: string) => {
  const digits = shown.replace(/[^\d.]/g, "");
  return digits ? Math.round(Number(digits) * 100) : 0;
};
/** "₹1,200 Dr" → 120000, "₹5 Cr" → -500. */
const balanceOf = (shown: string) => (shown.includes("Cr") ? -paiseOf(shown) : paiseOf(shown));
/** Each `<tr>` whose data-testid is `testId`, with its attributes and cells by their data-testid. */
function rowsOf(html: string, testId: string) {
  return [...html.matchAll(new RegExp(`<tr([^>]*data-testid="${testId}"[^>]*)>([\\s\\S]*?)</tr>`, "g"))].map((m) => {
    const attrs = m[1] ?? "";
    const body = m[2] ?? "";
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1] ?? "";
    const cell = (id: string) => text(new RegExp(`<td[^>]*data-testid="${id}"[^>]*>([\\s\\S]*?)</td>`).exec(body)?.[1] ?? "");
    return { attr, cell, text: text(body) };
  });
}

/**
 * XML 1.0 well-formedness, strictly enough for the Tally file: one root, every tag closed in
 * order, attributes quoted, and no bare `<` or `&` in text (only the five entities).
 */
function wellFormed(xml: string): string | null {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, "");
  const stack: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w:.-]+="[^"<&]*(?:&(?:amp|lt|gt|quot|apos);[^"<&]*)*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while ((m = token.exec(body))) {
    at = token.lastIndex;
    const [, close, name, , selfClose, chars] = m;
    if (chars !== undefined) {
      if (stack.length === 0 && chars.trim()) return `text outside the root: ${chars.slice(0, 20)}`;
      if (/&(?!(?:amp|lt|gt|quot|apos);)/.test(chars)) return `a bare & in ${chars.slice(0, 40)}`;
      continue;
    }
    if (close) {
      if (stack.pop() !== name) return `</${name}> closes nothing open`;
    } else {
      if (stack.length === 0) roots++;
      if (!selfClose) stack.push(name ?? "");
    }
  }
  if (at !== body.length) return `not XML at ${body.slice(at, at + 40)}`;
  if (stack.length) return `unclosed ${stack.join(" > ")}`;
  return roots === 1 ? null : `${roots} roots`;
}

/** Lines moving `paise` onto `purpose` (debit positive) against the bank. */
const fee = (paise: number, purpose: AccountPurpose = "gateway_fees"): Line[] => [
  { purpose, paise, applicationId: null },
  { purpose: "bank", paise: -paise, applicationId: null },
];

const post = (app: TestServer, input: { date: IsoDate; kind: string; narration: string; lines: Line[] }) =>
  app.services.db.transaction((tx) => postEntry({ ...app.services, db: tx }, { ...input, businessDate: input.date }));

const page = async (app: TestServer, path: string, who: Staff) => {
  const res = await app.get(path, { headers: { Cookie: who.cookie } });
  return { status: res.status, html: await res.text(), res };
};

const sumOf = async (app: TestServer, query: ReturnType<typeof sql>) =>
  Number(((await app.services.db.execute(query)) as unknown as { rows: { n: string | null }[] }).rows[0]?.n ?? 0);

const exportsAudited = async (app: TestServer, userId: string, report: string) =>
  (
    await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "books.exported"), eq(auditLog.actorUserId, userId), eq(auditLog.subjectId, report)))
      .orderBy(desc(auditLog.id))
  )[0];

describe("the finance reports", () => {
  const clock: Clock = { now: new Date("2026-06-15T06:30:00Z") };
  let app: TestServer;
  let finance: Staff;
  let compliance: Staff;
  let emi: { id: string; loanNumber: string };
  /** The ledger series: 150 entries in January 2030 on gateway fees, and one the day before. */
  const series = Array.from({ length: 150 }, (_, i) => ({ i, date: `2030-01-${String((i % 30) + 1).padStart(2, "0")}`, paise: 100 + i }));
  const FORMULA = '=HYPERLINK("http://evil.example","x") <b>&</b>';

  beforeAll(async () => {
    app = await startTestServer({ SEED_DEMO_LOANS: "true" }, { now: () => clock.now });
    finance = await signedInStaff(app, "finance", "Farah Iyer");
    compliance = await signedInStaff(app, "compliance", "Kiran Shah");
    const [loan] = await app.services.db
      .select({ id: loanApplications.id, loanNumber: loanApplications.loanNumber })
      .from(loanApplications)
      .where(and(eq(loanApplications.status, "active"), isNotNull(loanApplications.loanNumber)));
    emi = { id: loan?.id ?? "", loanNumber: loan?.loanNumber ?? "" };
    await post(app, { date: "2029-12-31", kind: "test_fee", narration: "Test fee before", lines: fee(777) });
    for (const s of series) await post(app, { date: s.date, kind: "test_fee", narration: `Test fee ${s.i}`, lines: fee(s.paise) });
    // The journal's own entries, in March 2031.
    await post(app, { date: "2031-03-05", kind: "test_adjust", narration: "Bank charge batch 17", lines: fee(12345) });
    await post(app, { date: "2031-03-06", kind: "test_adjust", narration: FORMULA, lines: fee(5000) });
    await post(app, {
      date: "2031-03-07",
      kind: "test_loan",
      narration: "A line of the demo loan",
      lines: [
        { purpose: "bank", paise: 2500, applicationId: emi.id },
        { purpose: "gateway_clearing", paise: -2500, applicationId: emi.id },
      ],
    });
    await post(app, {
      date: "2031-03-08",
      kind: "test_many",
      narration: "Thirty receipts at once",
      lines: [
        ...Array.from({ length: 30 }, (_, i): Line => ({ purpose: "bank", paise: 100, applicationId: null, providerRef: `ref_${i}` })),
        { purpose: "gateway_clearing", paise: -3000, applicationId: null },
      ],
    });
    // Income and expenses in February 2032.
    await post(app, { date: "2032-02-03", kind: "test_income", narration: "Interest", lines: fee(-10000, "interest_income") });
    await post(app, { date: "2032-02-04", kind: "test_income", narration: "Penal", lines: fee(-2000, "penal_income") });
    await post(app, { date: "2032-02-05", kind: "test_income", narration: "Penal reversed", lines: fee(500, "penal_income") });
    await post(app, { date: "2032-02-06", kind: "test_income", narration: "Written off", lines: fee(3000, "write_off_expense") });
    await post(app, { date: "2032-02-29", kind: "test_income", narration: "Gateway fee", lines: fee(700) });
    await post(app, { date: "2032-03-01", kind: "test_income", narration: "After the period", lines: fee(-99900, "interest_income") });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  it("the trial balance lists every account of the chart with its balance, and the debits equal the credits", async () => {
    const chart = await chartInForce(app.services);
    for (const on of ["2026-06-15", "2030-12-31", "2026-03-31"]) {
      const { status, html } = await page(app, `/admin/books?on=${on}`, finance);
      expect(status).toBe(200);
      const expected = await trialTotals(app.services, on);
      const rows = rowsOf(html, "trial-balance-row");
      expect(rows.map((r) => r.attr("data-purpose")).sort()).toEqual([...ACCOUNT_PURPOSES].sort());
      for (const r of rows) {
        const purpose = r.attr("data-purpose");
        const balance = expected.balances[purpose] ?? 0;
        expect(paiseOf(r.cell("debit")) - paiseOf(r.cell("credit")), `${on} ${purpose}`).toBe(balance);
        const account = chart.accounts.find((a) => a.purpose === purpose);
        expect(r.text).toContain(`${account?.code} ${account?.name}`.replace(/&/g, "&"));
      }
      const [totals] = rowsOf(html, "trial-balance-totals");
      expect(paiseOf(totals?.cell("debit") ?? "")).toBe(expected.debits);
      expect(paiseOf(totals?.cell("credit") ?? "")).toBe(expected.credits);
      expect(expected.debits).toBe(expected.credits);
      expect(expected.debits).toBeGreaterThan(0);
      expect(text(html)).toContain("the debits and the credits agree");
      // Each account opens its ledger for the month to the date.
      expect(html).toContain(`/admin/books/accounts/loans_receivable?from=${on.slice(0, 7)}-01&amp;to=${on}`);
    }
    // Before the books began: nothing, and still in agreement; a date not understood falls back to today.
    const before = await page(app, "/admin/books?on=2020-01-01", finance);
    expect(rowsOf(before.html, "trial-balance-row").every((r) => r.cell("debit") === "" && r.cell("credit") === "")).toBe(true);
    const bad = await page(app, "/admin/books?on=2026-02-30", finance);
    expect(text(bad.html)).toContain("“2026-02-30” is not a date");
    expect(text(bad.html)).toContain("At the end of 15 Jun 2026");
    // Every finance page links to the others.
    for (const link of [
      "/admin/books/journal",
      "/admin/books/portfolio",
      "/admin/books/income",
      "/admin/books/periods",
      "/admin/books/rules",
    ])
      expect(before.html).toContain(`href="${link}"`);
  });

  it("exports the trial balance as CSV, audited", async () => {
    const { status, html: csv, res } = await page(app, "/admin/books/trial-balance.csv?on=2030-12-31", finance);
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="trial-balance-2030-12-31.csv"');
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual(["on", "account_code", "account_name", "purpose", "type", "debit", "credit"]);
    expect(rows).toHaveLength(ACCOUNT_PURPOSES.length + 2);
    const expected = await trialTotals(app.services, "2030-12-31");
    for (const r of rows.slice(1, -1)) {
      const [, , , purpose, , debit, credit] = r;
      expect(Math.round(Number(debit) * 100) - Math.round(Number(credit) * 100), purpose).toBe(expected.balances[purpose ?? ""] ?? 0);
    }
    const total = rows.at(-1) ?? [];
    expect(total.slice(2, 3)).toEqual(["Total"]);
    expect(Math.round(Number(total[5]) * 100)).toBe(expected.debits);
    expect(total[5]).toBe(total[6]);
    const audited = await exportsAudited(app, finance.userId, "trial_balance");
    expect(audited?.details).toMatchObject({ report: "trial_balance", filters: { on: "2030-12-31" }, rows: ACCOUNT_PURPOSES.length });
  });

  it("a general ledger has its opening balance, each line with a running balance right across pages, and its closing balance", async () => {
    const opening = await sumOf(
      app,
      sql`select sum(debit_paise - credit_paise) as n from journal_lines where purpose = 'gateway_fees' and entry_date < '2030-01-01'`,
    );
    expect(opening).toBeGreaterThanOrEqual(777);
    // The order they were journalled: by date, then by entry.
    const ordered = [...series].sort((a, b) => a.date.localeCompare(b.date) || a.i - b.i);
    const running: number[] = [];
    ordered.reduce((b, s) => (running.push(b + s.paise), b + s.paise), opening);
    const base = "/admin/books/accounts/gateway_fees?from=2030-01-01&to=2030-01-31";
    const first = await page(app, base, finance);
    expect(first.status).toBe(200);
    expect(text(first.html)).toContain("Lines 1–100 of 150");
    expect(balanceOf(rowsOf(first.html, "ledger-brought-forward")[0]?.text.replace(/.*2030/, "") ?? "")).toBe(opening);
    const lines1 = rowsOf(first.html, "ledger-line");
    expect(lines1).toHaveLength(100);
    lines1.forEach((l, k) => {
      expect(paiseOf(l.cell("debit"))).toBe(ordered[k]?.paise);
      expect(balanceOf(l.cell("balance")), `line ${k + 1}`).toBe(running[k]);
    });
    expect(first.html).toContain('rel="next"');
    expect(rowsOf(first.html, "ledger-closing-row")).toHaveLength(0);
    const second = await page(app, `${base}&page=2`, finance);
    expect(text(second.html)).toContain("Lines 101–150 of 150");
    const [forward] = rowsOf(second.html, "ledger-brought-forward");
    expect(forward?.text).toContain("Brought forward");
    expect(balanceOf(forward?.text.replace(/.*page before/, "") ?? "")).toBe(running[99]);
    const lines2 = rowsOf(second.html, "ledger-line");
    expect(lines2).toHaveLength(50);
    lines2.forEach((l, k) => expect(balanceOf(l.cell("balance")), `line ${k + 101}`).toBe(running[k + 100]));
    const closing = opening + series.reduce((s, x) => s + x.paise, 0);
    expect(running.at(-1)).toBe(closing);
    expect(balanceOf(text(/data-testid="ledger-closing"[^>]*>([^<]*)</.exec(second.html)?.[1] ?? ""))).toBe(closing);
    expect(rowsOf(second.html, "ledger-closing-row")).toHaveLength(1);
    // An account that does not exist.
    expect((await page(app, "/admin/books/accounts/petty_cash", finance)).status).toBe(404);
    expect((await page(app, "/admin/books/accounts/petty_cash/ledger.csv", finance)).status).toBe(404);
  });

  it("exports a general ledger as CSV with the running balance, its opening and closing lines, audited", async () => {
    const { status, html: csv } = await page(app, "/admin/books/accounts/gateway_fees/ledger.csv?from=2030-01-01&to=2030-01-31", finance);
    expect(status).toBe(200);
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([
      "entry_date",
      "entry_no",
      "kind",
      "narration",
      "loan_number",
      "provider_ref",
      "debit",
      "credit",
      "balance",
      "balance_side",
    ]);
    expect(rows).toHaveLength(1 + 1 + 150 + 1);
    const signed = (r: string[] | undefined) => Math.round(Number(r?.[8]) * 100) * (r?.[9] === "Cr" ? -1 : 1);
    let balance = signed(rows[1]);
    expect(rows[1]?.[2]).toBe("opening");
    for (const r of rows.slice(2, -1)) {
      balance += Math.round(Number(r[6]) * 100) - Math.round(Number(r[7]) * 100);
      expect(signed(r)).toBe(balance);
    }
    expect(rows.at(-1)?.[2]).toBe("closing");
    expect(signed(rows.at(-1))).toBe(balance);
    const audited = await exportsAudited(app, finance.userId, "general_ledger");
    expect(audited?.details).toMatchObject({ filters: { purpose: "gateway_fees", from: "2030-01-01", to: "2030-01-31" }, rows: 150 });
  });

  it("searches the journal by date, kind, loan, amount and narration, newest first, 50 a page, each entry with its lines", async () => {
    const entryNos = async (query: string) => {
      const { status, html } = await page(app, `/admin/books/journal?${query}`, finance);
      expect(status, query).toBe(200);
      return { html, nos: rowsOf(html, "journal-entry").map((r) => Number(r.attr("data-entry-no"))), count: text(html) };
    };
    const byDate = await entryNos("from=2031-03-05&to=2031-03-06");
    expect(byDate.nos).toHaveLength(2);
    expect(byDate.nos[0]).toBeGreaterThan(byDate.nos[1] ?? 0);
    // Kind: 151 entries, four pages.
    const kind = await entryNos("kind=test_fee");
    expect(kind.count).toContain("Entries 1–50 of 151, newest first.");
    const last = await entryNos("kind=test_fee&page=4");
    expect(last.nos).toHaveLength(1);
    expect(last.count).toContain("Entries 151–151 of 151");
    // Narration, case aside; the amount on one of its lines (in rupees), with its lines shown.
    const words = await entryNos("text=BATCH%2017");
    expect(words.nos).toHaveLength(1);
    const amount = await entryNos("amount=123.45");
    expect(amount.nos).toEqual(words.nos);
    const lines = rowsOf(amount.html, "journal-line");
    expect(lines.map((l) => [l.text.includes("Payment gateway fees"), paiseOf(l.cell("debit")), paiseOf(l.cell("credit"))])).toEqual([
      [true, 12345, 0],
      [false, 0, 12345],
    ]);
    // A loan: every entry about it or with a line of its subledger.
    const expected = await sumOf(
      app,
      sql`select count(*) as n from journal_entries e where e.application_id = ${emi.id}
        or e.id in (select entry_id from journal_lines where application_id = ${emi.id})`,
    );
    const loan = await entryNos(`loan=${emi.loanNumber.toLowerCase()}&from=2020-01-01`);
    expect(loan.count).toContain(`of ${expected},`);
    expect(loan.html).toContain(`href="/admin/loans/${emi.loanNumber}"`);
    const ofLoan = await entryNos(`loan=${emi.loanNumber}&kind=test_loan`);
    expect(ofLoan.nos).toHaveLength(1);
    expect(text((await entryNos("loan=SL00000000")).html)).toContain("No loan has the number SL00000000.");
    // An entry of many lines is shown by account.
    const many = await entryNos("kind=test_many");
    expect(text(many.html)).toContain("31 lines, shown summed by account.");
    const summed = rowsOf(many.html, "journal-line");
    expect(summed.map((l) => [paiseOf(l.cell("debit")), paiseOf(l.cell("credit"))])).toEqual([
      [3000, 0],
      [0, 3000],
    ]);
    expect(summed[0]?.text).toContain("30 lines");
    // Filters not understood are said so and not applied.
    const bad = await entryNos("amount=abc&loan=XYZ&kind=test_adjust");
    expect(bad.count).toContain("“abc” is not an amount");
    expect(bad.count).toContain("“XYZ” is not a loan number");
    expect(bad.nos).toHaveLength(2);
  });

  it("exports the journal as CSV, a row a line, formula cells neutralised, audited", async () => {
    const { status, html: csv, res } = await page(app, "/admin/books/journal.csv?kind=test_adjust", finance);
    expect(status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="journal-2026-06-15\.csv"$/);
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([
      "entry_no",
      "entry_date",
      "business_date",
      "kind",
      "narration",
      "account_code",
      "account_name",
      "loan_number",
      "provider_ref",
      "debit",
      "credit",
    ]);
    expect(rows).toHaveLength(5);
    // Newest entry first: the one whose narration is a formula, kept as text.
    expect(rows[1]?.[4]).toBe(`'${FORMULA}`);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""x"") <b>&</b>"`);
    expect(rows.slice(1).map((r) => [r[1], r[5], r[9], r[10]])).toEqual([
      ["2031-03-06", "5103", "50.00", "0.00"],
      ["2031-03-06", "1201", "0.00", "50.00"],
      ["2031-03-05", "5103", "123.45", "0.00"],
      ["2031-03-05", "1201", "0.00", "123.45"],
    ]);
    const audited = await exportsAudited(app, finance.userId, "journal_csv");
    expect(audited?.details).toMatchObject({ filters: { kind: "test_adjust" }, rows: 4 });
  });

  it("exports the journal as Tally XML: well-formed, escaped, a balanced journal voucher an entry", async () => {
    const { status, html: xml, res } = await page(app, "/admin/books/journal.xml?from=2031-03-01&to=2031-03-31", finance);
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(wellFormed(xml)).toBeNull();
    expect(xml).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\r\n<ENVELOPE>\r\n<HEADER>\r\n<TALLYREQUEST>Import Data<\/TALLYREQUEST>\r\n<\/HEADER>\r\n<BODY>\r\n<IMPORTDATA>\r\n<REQUESTDESC>\r\n<REPORTNAME>Vouchers<\/REPORTNAME>/,
    );
    const vouchers = [...xml.matchAll(/<VOUCHER VCHTYPE="Journal" ACTION="Create"[^>]*>([\s\S]*?)<\/VOUCHER>/g)].map((m) => m[1] ?? "");
    expect(vouchers).toHaveLength(4);
    expect(xml.match(/<TALLYMESSAGE xmlns:UDF="TallyUDF">/g)).toHaveLength(4);
    const chart = await chartInForce(app.services);
    const names = new Set(chart.accounts.map((a) => a.name));
    const dates = [];
    for (const v of vouchers) {
      dates.push(/<DATE>(\d{8})<\/DATE>/.exec(v)?.[1]);
      expect(v).toMatch(/<VOUCHERTYPENAME>Journal<\/VOUCHERTYPENAME>/);
      expect(v).toMatch(/<VOUCHERNUMBER>\d+<\/VOUCHERNUMBER>/);
      const entries = [...v.matchAll(/<ALLLEDGERENTRIES\.LIST>([\s\S]*?)<\/ALLLEDGERENTRIES\.LIST>/g)].map((m) => {
        const body = m[1] ?? "";
        return {
          ledger: /<LEDGERNAME>([^<]*)<\/LEDGERNAME>/.exec(body)?.[1] ?? "",
          positive: /<ISDEEMEDPOSITIVE>(Yes|No)<\/ISDEEMEDPOSITIVE>/.exec(body)?.[1],
          amount: /<AMOUNT>(-?\d+\.\d{2})<\/AMOUNT>/.exec(body)?.[1] ?? "x",
        };
      });
      expect(entries.length).toBeGreaterThanOrEqual(2);
      // Debits are deemed positive with a negative amount; the voucher sums to nothing.
      for (const e of entries) {
        expect(names.has(e.ledger), e.ledger).toBe(true);
        expect(e.positive).toBe(Number(e.amount) < 0 ? "Yes" : "No");
      }
      expect(entries.reduce((s, e) => s + Math.round(Number(e.amount) * 100), 0)).toBe(0);
    }
    expect(dates).toEqual(["20310308", "20310307", "20310306", "20310305"]);
    // The many-line entry is one ledger entry an account; the formula narration is escaped.
    expect(vouchers[0]).toContain("<AMOUNT>-30.00</AMOUNT>");
    expect(vouchers[0]?.match(/<ALLLEDGERENTRIES\.LIST>/g)).toHaveLength(2);
    expect(vouchers[2]).toContain(
      "<NARRATION>=HYPERLINK(&quot;http://evil.example&quot;,&quot;x&quot;) &lt;b&gt;&amp;&lt;/b&gt;</NARRATION>",
    );
    const audited = await exportsAudited(app, finance.userId, "journal_tally");
    expect(audited?.details).toMatchObject({ filters: { from: "2031-03-01", to: "2031-03-31" }, rows: 4 });
  });

  it("shows the portfolio by asset class now and at a month end, as the books hold it", async () => {
    const classNow = async () => {
      const { html } = await page(app, "/admin/books/portfolio?month=2026-05", finance);
      return { html, rows: rowsOf(html, "portfolio-now") };
    };
    const expectedNow = async (assetClass: string, npaSince: string | null) => {
      const [row] = (
        (await app.services.db.execute(sql`
          select count(*) as loans,
            sum(case when b.purpose = 'loans_receivable' then b.balance_paise else 0 end) as principal,
            sum(case when b.purpose = 'interest_receivable' then b.balance_paise else 0 end) as interest,
            sum(case when b.purpose = 'interest_suspense' then -b.balance_paise else 0 end) as suspense,
            sum(case when b.purpose = 'loan_loss_provision' then -b.balance_paise else 0 end) as provision
          from book_positions b where b.application_id = ${emi.id}`)) as unknown as {
          rows: { principal: string; interest: string; suspense: string; provision: string }[];
        }
      ).rows;
      return {
        assetClass,
        npaSince,
        principal: Number(row?.principal),
        interest: Number(row?.interest),
        provision: Number(row?.provision),
      };
    };
    const activeLoans = await app.services.db
      .select({ id: loanApplications.id })
      .from(loanApplications)
      .where(eq(loanApplications.status, "active"));
    expect(activeLoans).toHaveLength(1);
    try {
      for (const [assetClass, npaSince] of [
        ["standard", null],
        ["sub_standard", "2026-05-01"],
        ["doubtful", "2025-01-10"],
      ] as const) {
        await app.services.db.update(loanAccounts).set({ npaSince }).where(eq(loanAccounts.applicationId, emi.id));
        const want = await expectedNow(assetClass, npaSince);
        const { rows } = await classNow();
        expect(rows.map((r) => r.attr("data-class"))).toEqual(["standard", "sub_standard", "doubtful"]);
        for (const r of rows) {
          const mine = r.attr("data-class") === assetClass;
          expect(r.cell("loans"), `${assetClass}: ${r.attr("data-class")}`).toBe(mine ? "1" : "0");
          expect(paiseOf(r.cell("principal"))).toBe(mine ? want.principal : 0);
          expect(paiseOf(r.cell("interest"))).toBe(mine ? want.interest : 0);
          expect(paiseOf(r.cell("provision"))).toBe(mine ? want.provision : 0);
        }
        expect(want.principal).toBeGreaterThan(0);
      }
    } finally {
      await app.services.db.update(loanAccounts).set({ npaSince: null }).where(eq(loanAccounts.applicationId, emi.id));
    }
    // The month end as its provisioning kept it.
    const kept = await app.services.db.select().from(monthEndClasses).where(eq(monthEndClasses.month, "2026-05"));
    expect(kept.length).toBeGreaterThan(0);
    const { html } = await classNow();
    expect(text(html)).toContain("At the end of May 2026");
    const standard = rowsOf(html, "portfolio-month").find((r) => r.attr("data-class") === "standard");
    const mine = kept.filter((k) => k.assetClass === "standard");
    expect(Number(standard?.cell("loans"))).toBe(mine.length);
    expect(paiseOf(standard?.cell("book") ?? "")).toBe(mine.reduce((s, k) => s + k.bookValuePaise, 0));
    expect(paiseOf(standard?.cell("provision") ?? "")).toBe(mine.reduce((s, k) => s + k.provisionPaise, 0));
    // A month with nothing kept: the latest instead, said so.
    const none = await page(app, "/admin/books/portfolio?month=2019-01", finance);
    expect(text(none.html)).toContain("January 2019 has no month-end classification kept: showing May 2026.");
    // The CSV: now, then the month end.
    const csv = parseCsv((await page(app, "/admin/books/portfolio.csv?month=2026-05", finance)).html);
    expect(csv[0]).toEqual([
      "as_at",
      "asset_class",
      "loans",
      "principal_outstanding",
      "interest_receivable",
      "interest_in_suspense",
      "book_value",
      "provision",
    ]);
    expect(csv.slice(1).map((r) => [r[0], r[1]])).toEqual([
      ["2026-06-15", "standard"],
      ["2026-06-15", "sub_standard"],
      ["2026-06-15", "doubtful"],
      ["2026-05", "standard"],
      ["2026-05", "sub_standard"],
      ["2026-05", "doubtful"],
    ]);
    expect(Math.round(Number(csv[4]?.[7]) * 100)).toBe(mine.reduce((s, k) => s + k.provisionPaise, 0));
  });

  it("shows the income of a period: each account's movement, the totals and the net; and as CSV", async () => {
    const { status, html } = await page(app, "/admin/books/income?from=2032-02-01&to=2032-02-29", finance);
    expect(status).toBe(200);
    const movement = (kind: string, purpose: string) =>
      paiseOf(
        rowsOf(html, `${kind}-row`)
          .find((r) => r.attr("data-purpose") === purpose)
          ?.cell("movement") ?? "x",
      );
    expect(movement("income", "interest_income")).toBe(10000);
    expect(movement("income", "penal_income")).toBe(1500);
    expect(movement("income", "recoveries")).toBe(0);
    expect(movement("expense", "write_off_expense")).toBe(3000);
    expect(movement("expense", "gateway_fees")).toBe(700);
    const total = (testId: string) => paiseOf(rowsOf(html, testId)[0]?.text ?? "x");
    expect(total("total-income")).toBe(11500);
    expect(total("total-expenses")).toBe(3700);
    expect(total("net-income")).toBe(7800);
    expect(rowsOf(html, "net-income")[0]?.text).toContain("Net income");
    const csv = parseCsv((await page(app, "/admin/books/income.csv?from=2032-02-01&to=2032-02-29", finance)).html);
    expect(csv[0]).toEqual(["from", "to", "account_code", "account_name", "type", "debits", "credits", "movement"]);
    const interest = csv.find((r) => r[2] === "4101");
    expect(interest).toEqual(["2032-02-01", "2032-02-29", "4101", "Interest income", "income", "0.00", "100.00", "100.00"]);
    expect(csv.find((r) => r[3] === "Penal-charge income")?.slice(5)).toEqual(["5.00", "20.00", "15.00"]);
    expect(csv.at(-1)).toEqual(["2032-02-01", "2032-02-29", "", "Net income", "net", "", "", "78.00"]);
    // A loss is a negative number, not text.
    const loss = parseCsv((await page(app, "/admin/books/income.csv?from=2032-02-06&to=2032-02-06", finance)).html);
    expect(loss.at(-1)?.[7]).toBe("-30.00");
  });

  it("is open to finance, compliance and administrators only; exports too", async () => {
    const paths = [
      "/admin/books",
      "/admin/books/trial-balance.csv",
      "/admin/books/accounts/bank",
      "/admin/books/accounts/bank/ledger.csv",
      "/admin/books/journal",
      "/admin/books/journal.csv?kind=test_adjust",
      "/admin/books/journal.xml?kind=test_adjust",
      "/admin/books/portfolio",
      "/admin/books/portfolio.csv",
      "/admin/books/income",
      "/admin/books/income.csv",
      "/admin/books/periods",
      "/admin/books/rules",
    ];
    const others = await Promise.all(
      (["credit", "operations", "support"] as const).map((role) => signedInStaff(app, role, `Someone ${role}`)),
    );
    for (const path of paths) {
      for (const who of others) expect((await page(app, path, who)).status, path).toBe(403);
      expect((await page(app, path, compliance)).status, path).toBe(200);
    }
    // Compliance reads but neither closes a month nor saves a rule.
    expect(
      (await postForm(app, "/admin/books/periods", { month: "2026-02", note: "All checked" }, { cookie: compliance.cookie })).status,
    ).toBe(403);
    expect(
      (await postForm(app, "/admin/books/rules", { intent: "framework", version: "1", reason: "x" }, { cookie: compliance.cookie })).status,
    ).toBe(403);
    const periods = await page(app, "/admin/books/periods", compliance);
    expect(text(periods.html)).toContain("Only finance and administrators close a month.");
    expect(periods.html).not.toContain('data-testid="close-month"');
    const rules = await page(app, "/admin/books/rules", compliance);
    expect(rules.html).not.toContain("Save a new version");
    // The back office's menu offers Books to those who may open it.
    expect((await page(app, "/admin", finance)).html).toContain('href="/admin/books"');
    expect((await page(app, "/admin", others[0] as Staff)).html).not.toContain('href="/admin/books"');
  });
});

describe("closing months and the books' rules", () => {
  const clock: Clock = { now: new Date("2026-06-15T06:30:00Z") };
  let app: TestServer;
  let finance: Staff;
  beforeAll(async () => {
    app = await startTestServer({ SEED_DEMO_LOANS: "true" }, { now: () => clock.now });
    finance = await signedInStaff(app, "finance", "Farah Iyer");
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  const close = (month: string, note = "Bank reconciled; suspense clear") =>
    postForm(app, "/admin/books/periods", { month, note }, { cookie: finance.cookie });
  const closed = async () => (await app.services.db.select().from(accountingPeriods).orderBy(accountingPeriods.month)).map((p) => p.month);

  it("closes months in order, each once it has ended, been provisioned and left nothing in suspense; twice is refused gently", async () => {
    const first = await page(app, "/admin/books/periods", finance);
    expect(text(first.html)).toContain("Next to close: February 2026");
    expect(rowsOf(first.html, "period").map((r) => r.attr("data-month"))).toEqual(["2026-06", "2026-05", "2026-04", "2026-03", "2026-02"]);
    // Before its end; out of order; a note too short.
    const early = await close("2026-06");
    expect(early.status).toBe(409);
    expect(text(await early.text())).toContain("June 2026 has not ended: it can be closed from 1 Jul 2026.");
    const outOfOrder = await close("2026-03");
    expect(outOfOrder.status).toBe(409);
    expect(text(await outOfOrder.text())).toContain("Close February 2026 first");
    const beforeBooks = await close("2025-12");
    expect(beforeBooks.status).toBe(409);
    expect(text(await beforeBooks.text())).toContain("Nothing is journalled before February 2026: it is the books' first month to close.");
    const noNote = await close("2026-02", "ok");
    expect(noNote.status).toBe(400);
    expect(text(await noNote.text())).toContain("Write a note for the file, in a few words.");
    // Something in suspense at the month's end.
    await post(app, {
      date: "2026-02-26",
      kind: "test_suspense",
      narration: "Unexplained receipt",
      lines: [
        { purpose: "bank", paise: 1000, applicationId: null },
        { purpose: "books_suspense", paise: -1000, applicationId: null },
      ],
    });
    const suspense = await close("2026-02");
    expect(suspense.status).toBe(409);
    expect(text(await suspense.text())).toContain("The suspense account holds ₹10 (credit) at the end of February 2026");
    expect(await closed()).toEqual([]);
    await post(app, {
      date: "2026-02-27",
      kind: "test_suspense",
      narration: "Receipt explained: a refund due",
      lines: [
        { purpose: "books_suspense", paise: 1000, applicationId: null },
        { purpose: "refunds_payable", paise: -1000, applicationId: null },
      ],
    });
    const done = await close("2026-02");
    expect(done.status).toBe(302);
    expect(toastOf(done)).toBe("February 2026 is closed.");
    const [period] = await app.services.db.select().from(accountingPeriods);
    expect(period).toMatchObject({ month: "2026-02", closedBy: finance.userId, note: "Bank reconciled; suspense clear" });
    const [row] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "books.month_closed"), eq(auditLog.actorUserId, finance.userId)));
    expect(row).toMatchObject({ subjectType: "accounting_period", subjectId: "2026-02" });
    expect(row?.details).toMatchObject({ month: "2026-02", note: "Bank reconciled; suspense clear", provisionedNow: false });
    // The same form again: closed already, said plainly.
    const again = await close("2026-02");
    expect(again.status).toBe(302);
    expect(toastOf(again)).toMatch(/^February 2026 is closed already, by Farah Iyer, on /);
    expect(await closed()).toEqual(["2026-02"]);

    // An event dated in the closed month is journalled on the first open day; the database refuses an entry dated in it.
    const late = await post(app, { date: "2026-02-20", kind: "test_late", narration: "A late answer", lines: fee(4200) });
    expect(late?.entryDate).toBe("2026-03-01");
    const [lateEntry] = await app.services.db
      .select()
      .from(journalEntries)
      .where(eq(journalEntries.id, late?.id ?? ""));
    expect(lateEntry).toMatchObject({ entryDate: "2026-03-01", businessDate: "2026-02-20" });
    await expect(
      app.services.db.insert(journalEntries).values({
        entryDate: "2026-02-15",
        businessDate: "2026-02-15",
        kind: "test_direct",
        narration: "Straight into a closed month",
        createdAt: clock.now,
      }),
    ).rejects.toThrow();
    const journal = await page(app, "/admin/books/journal?kind=test_late", finance);
    expect(text(journal.html)).toContain("Event of 20 Feb 2026, journalled on the first open day after its month closed.");

    // March to May were provisioned at their ends; June, once it has ended, is provisioned as it closes.
    for (const month of ["2026-03", "2026-04", "2026-05"]) expect((await close(month)).status, month).toBe(302);
    clock.now = new Date("2026-07-02T06:30:00Z");
    expect(await app.services.db.select().from(journalEntries).where(eq(journalEntries.sourceKey, "provision:2026-06"))).toHaveLength(0);
    const june = await close("2026-06");
    expect(june.status).toBe(302);
    expect(toastOf(june)).toBe("June 2026 is closed.");
    expect(await app.services.db.select().from(monthEndClasses).where(eq(monthEndClasses.month, "2026-06"))).not.toHaveLength(0);
    const [juneAudit] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "books.month_closed"), eq(auditLog.subjectId, "2026-06")));
    expect(juneAudit?.details).toMatchObject({ provisionedNow: true });
    expect(await closed()).toEqual(["2026-02", "2026-03", "2026-04", "2026-05", "2026-06"]);
    const after = await page(app, "/admin/books/periods", finance);
    expect(text(after.html)).toContain("Next to close: July 2026");
    expect(text(after.html)).toContain("July 2026 ends on 31 Jul 2026");
    expect(after.html).not.toContain('data-testid="close-month"');
    const states = rowsOf(after.html, "period").map((r) => [r.attr("data-month"), r.cell("period-state")]);
    expect(states.slice(0, 2)).toEqual([
      ["2026-07", "Open (not ended)"],
      ["2026-06", "Closed"],
    ]);
  });

  it("saves a new version of each rule, checked by its schema, with a reason, refused when another was saved meanwhile; audited", async () => {
    const rules = async () => (await page(app, "/admin/books/rules", finance)).html;
    const versionOf = async (kind: "framework" | "chart" | "provisioning") =>
      (await app.services.db.select().from(booksRules).where(eq(booksRules.kind, kind)).orderBy(desc(booksRules.version)))[0]?.version ?? 0;
    const save = (fields: Record<string, string>) => postForm(app, "/admin/books/rules", fields, { cookie: finance.cookie });
    const rates = {
      standardBps: "50",
      subStandardBps: "1500",
      doubtfulBps: "10000",
      lossBps: "10000",
      eclStage1Bps: "100",
      eclStage2Bps: "1500",
      eclStage3Bps: "6500",
    };
    const html = await rules();
    expect(text(html)).toContain("Standard: 0.4%");
    const v = await versionOf("provisioning");
    // A rate over 100%, no reason: each said beside its field.
    const bad = await save({ intent: "provisioning", version: String(v), ...rates, doubtfulBps: "20000", reason: "" });
    expect(bad.status).toBe(400);
    const badText = text(await bad.text());
    expect(badText).toContain("A rate is at most 10,000 basis points (100%)");
    expect(badText).toContain("Say why it changes.");
    // Based on an old version.
    const stale = await save({ intent: "provisioning", version: String(v - 1), ...rates, reason: "Board raised the floor" });
    expect(stale.status).toBe(409);
    expect(text(await stale.text())).toContain(`Version ${v} was saved while you were editing.`);
    const ok = await save({ intent: "provisioning", version: String(v), ...rates, reason: "Board raised the floor" });
    expect(ok.status).toBe(302);
    const saved = await versionOf("provisioning");
    expect(toastOf(ok)).toBe(`Saved as version ${saved} of the provisioning rates.`);
    const [audited] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "books.provisioning_saved"), eq(auditLog.actorUserId, finance.userId)));
    expect(audited?.details).toMatchObject({ version: saved, reason: "Board raised the floor" });
    expect(text(await rules())).toContain("Standard: 0.5%");
    // The same again changes nothing.
    const same = await save({ intent: "provisioning", version: String(saved), ...rates, reason: "Again" });
    expect(same.status).toBe(409);

    // The chart: a code used twice is refused beside the field; a renamed account is saved.
    const chart = await chartInForce(app.services);
    const chartFields = (rename: Record<string, { code?: string; name?: string }>) => {
      const f: Record<string, string> = { intent: "chart", version: String(chart.version), reason: "Renamed for the auditors" };
      chart.accounts.forEach((a, i) => {
        f[`accounts[${i}].purpose`] = a.purpose;
        f[`accounts[${i}].code`] = rename[a.purpose]?.code ?? a.code;
        f[`accounts[${i}].name`] = rename[a.purpose]?.name ?? a.name;
      });
      return f;
    };
    const twice = await save(chartFields({ bank: { code: "1101" } }));
    expect(twice.status).toBe(400);
    expect(text(await twice.text())).toContain("The code 1101 is used twice");
    const renamed = await save(chartFields({ bank: { name: "Bank: HDFC collection account" } }));
    expect(renamed.status).toBe(302);
    expect((await chartInForce(app.services)).accounts.find((a) => a.purpose === "bank")?.name).toBe("Bank: HDFC collection account");
    const after = text(await rules());
    expect(after).toContain("1201: “Bank: collection account” → “Bank: HDFC collection account”");
    expect(after).toContain("Renamed for the auditors");
    // The trial balance names the account as the chart in force does.
    expect(text((await page(app, "/admin/books", finance)).html)).toContain("Bank: HDFC collection account");

    // The framework: a state too short is refused; Ind AS saved.
    const fv = await versionOf("framework");
    const shortState = await save({ intent: "framework", version: String(fv), framework: "ind_as", lenderState: "K", reason: "Listed" });
    expect(shortState.status).toBe(400);
    expect(text(await shortState.text())).toContain("Enter the state of the lender's GST registration");
    const framework = await save({
      intent: "framework",
      version: String(fv),
      framework: "ind_as",
      lenderState: "Karnataka",
      reason: "Listed",
    });
    expect(framework.status).toBe(302);
    expect(text(await rules())).toContain("Ind AS 109");
  });
});
