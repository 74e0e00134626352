import { readdirSync } from "node:fs";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettlementReport, type SettlementRecord, settlementCsv } from "../../app/domain/books/statements.ts";
import {
  auditLog,
  journalEntries,
  journalLines,
  payments,
  reconExceptions,
  statementImports,
  statementLines,
} from "../../app/server/db/schema.ts";
import { activeLoan, signedInStaff } from "../helpers/applications.ts";
import { expectBooksMatchLedger, unbalancedEntries } from "../helpers/books.ts";
import { originOf, postForm, rawRequest, toastOf } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Reconciliation (docs/product.md "The lender's books"; the files in
// docs/decisions/0005-reconciliation-formats.md): the stand-ins' statements imported and matched, a
// settlement journalled and balanced, a doctored settlement report's three differences each an
// exception (the missing payment once it is old enough), importing twice refused, exceptions
// resolved with a note (audited, never changed), roles, and uploads that are not statements.

const PAGE = "/admin/reconciliation";
const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");

interface World {
  app: TestServer;
  clock: { now: Date };
  credit: { cookie: string; userId: string };
  ops: { cookie: string; userId: string };
  finance: { cookie: string; userId: string };
}

async function world(): Promise<World> {
  const clock = { now: new Date("2026-03-02T05:30:00Z") };
  const app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }, { now: () => clock.now });
  return {
    app,
    clock,
    credit: await signedInStaff(app, "credit", "Asha Rao"),
    ops: await signedInStaff(app, "operations", "Omar Shaikh"),
    finance: await signedInStaff(app, "finance", "Farah Iqbal"),
  };
}

/** Pay now on the loan page, then Pay at the local checkout and the borrower's return; the gateway's payment id. */
async function pay(w: World, loan: { loanNumber: string; cookie: string }, rupees: string): Promise<string> {
  const { app } = w;
  const started = await postForm(
    app,
    `/User/Loans/Emi/${loan.loanNumber}`,
    { intent: "pay", choice: "amount", amount: rupees },
    { cookie: loan.cookie },
  );
  expect(started.status).toBe(302);
  const checkout = started.headers.get("location") ?? "";
  const done = await postForm(app, checkout, { outcome: "pay" });
  const back = new URL(done.headers.get("location") ?? "");
  const returned = await app.get(`${back.pathname}${back.search}`);
  const reference = /\/(pm_[a-z2-7]{24})$/.exec(returned.headers.get("location") ?? "")?.[1] ?? "";
  const [p] = await app.services.db.select().from(payments).where(eq(payments.reference, reference));
  expect(p?.status).toBe("captured");
  return p?.providerPaymentId ?? "";
}

/** Uploads a statement through the page's form, as finance's browser sends it. */
function upload(w: World, cookie: string, fields: { kind?: string; name?: string; body?: string | Uint8Array }) {
  const form = new FormData();
  if (fields.kind !== undefined) form.set("kind", fields.kind);
  const bytes = typeof fields.body === "string" ? new TextEncoder().encode(fields.body) : (fields.body ?? new Uint8Array());
  form.set("file", new Blob([new Uint8Array(bytes)], { type: "text/csv" }), fields.name ?? "");
  return w.app.get(PAGE, { method: "POST", body: form, headers: { Cookie: cookie, Origin: originOf(w.app) } });
}

const standIns = (w: World) => postForm(w.app, PAGE, { intent: "import_local" }, { cookie: w.finance.cookie });
const matchAgain = (w: World) => postForm(w.app, PAGE, { intent: "match" }, { cookie: w.finance.cookie });
const openExceptions = (w: World) =>
  w.app.services.db
    .select()
    .from(reconExceptions)
    .where(sql`${reconExceptions.resolvedAt} is null`);
const count = async (w: World, table: typeof statementImports | typeof statementLines | typeof reconExceptions) =>
  Number(((await w.app.services.db.execute(sql`select count(*) as n from ${table}`)) as unknown as { rows: { n: string }[] }).rows[0]?.n);
/** A provider id's balance on an account (debit − credit) over every journal line. */
async function balanceOf(w: World, purpose: string, refs: readonly string[]) {
  const rows = await w.app.services.db
    .select({ d: journalLines.debitPaise, c: journalLines.creditPaise })
    .from(journalLines)
    .where(and(eq(journalLines.purpose, purpose as "bank"), inArray(journalLines.providerRef, [...refs])));
  return rows.reduce((s, r) => s + r.d - r.c, 0);
}

describe("the stand-ins' statements", () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });
  afterAll(async () => {
    await w?.app.stop();
  });

  it("are imported and matched: the disbursals to the payout statement, the payments to their settlement, journalled and balanced", async () => {
    const a = await activeLoan(w.app, "9731000001", w.credit, w.ops);
    const b = await activeLoan(w.app, "9731000002", w.credit, w.ops);
    const paid = [await pay(w, a, "1000"), await pay(w, a, "2500.50"), await pay(w, b, "1234.56")];
    // Monday: the payouts of today are on today's statement; the payments settle the next working day.
    expect(toastOf(await standIns(w))).toMatch(/^Imported 1 statement \(2 lines, 0 to the exceptions queue\)/);
    const payouts = await w.app.services.db.select().from(statementLines).where(eq(statementLines.kind, "payout_statement"));
    expect(payouts.map((l) => l.state)).toEqual(["matched", "matched"]);
    // Each payout's ₹5 fee and ₹0.90 GST, taken from the payout account.
    const [fees] = await w.app.services.db.select().from(journalEntries).where(eq(journalEntries.kind, "payout_fees"));
    expect(fees?.businessDate).toBe("2026-03-02");

    // Tuesday: the settlement of Monday's payments.
    w.clock.now = new Date("2026-03-03T06:30:00Z");
    expect(toastOf(await standIns(w))).toMatch(/^Imported 1 statement \(3 lines, 0 to the exceptions queue\)/);
    const lines = await w.app.services.db.select().from(statementLines).where(eq(statementLines.kind, "gateway_settlement"));
    expect(lines.map((l) => [l.providerRef, l.state]).sort()).toEqual(paid.map((id) => [id, "matched"]).sort());
    // 2% of each payment and 18% GST on it kept back; the rest to the bank; each capture cleared.
    const gross = 1000_00 + 2500_50 + 1234_56;
    const fee = lines.reduce((s, l) => s + l.feePaise, 0);
    const gst = lines.reduce((s, l) => s + l.taxPaise, 0);
    expect(fee).toBe(2000 + 5001 + 2469);
    expect(gst).toBe(360 + 900 + 444);
    const [entry] = await w.app.services.db.select().from(journalEntries).where(eq(journalEntries.kind, "gateway_settlement"));
    expect(entry).toMatchObject({ businessDate: "2026-03-03", entryDate: "2026-03-03" });
    const entryLines = await w.app.services.db
      .select()
      .from(journalLines)
      .where(eq(journalLines.entryId, entry?.id ?? ""));
    const on = (purpose: string) => entryLines.filter((l) => l.purpose === purpose).reduce((s, l) => s + l.debitPaise - l.creditPaise, 0);
    expect(on("bank")).toBe(gross - fee - gst);
    expect(on("gateway_fees")).toBe(fee);
    expect(on("input_gst")).toBe(gst);
    expect(on("gateway_clearing")).toBe(-gross);
    expect(await balanceOf(w, "gateway_clearing", paid)).toBe(0);
    expect(await unbalancedEntries(w.app.services)).toEqual([]);
    expect(await expectBooksMatchLedger(w.app.services, "2026-03-03")).toBeGreaterThan(0);
    // The stand-ins wrote the files a provider offers for download.
    expect(readdirSync(path.join(w.app.dataDir, "settlements"))).toEqual(["local-settlement-2026-03-03.csv"]);
    expect(readdirSync(path.join(w.app.dataDir, "payout-statements"))).toEqual(["local-payouts-2026-03-02.csv"]);

    // Nothing new: the same files are not imported again, and days later nothing is an exception.
    expect(toastOf(await standIns(w))).toBe("Nothing new: the stand-ins' statements are imported already.");
    w.clock.now = new Date("2026-03-10T06:30:00Z");
    expect(toastOf(await matchAgain(w))).toBe("Matching ran: 0 matched, 0 new exceptions, 0 cleared.");
    expect(await openExceptions(w)).toEqual([]);
    const audited = await w.app.services.db.select().from(auditLog).where(eq(auditLog.action, "reconciliation.imported"));
    expect(audited).toHaveLength(2);
    expect(audited[0]).toMatchObject({ actorUserId: w.finance.userId, actorRole: "finance", subjectType: "statement_import" });
  });
});

describe("a settlement report that differs from the books", () => {
  let w: World;
  let compliance: { cookie: string; userId: string };
  let admin: { cookie: string; userId: string };
  let support: { cookie: string; userId: string };
  let missing = "";
  let changed = "";
  let kept = "";
  let report = "";
  beforeAll(async () => {
    w = await world();
    compliance = await signedInStaff(w.app, "compliance", "Chitra Menon");
    admin = await signedInStaff(w.app, "admin", "Anil Mehta");
    support = await signedInStaff(w.app, "support", "Sara Das");
    const a = await activeLoan(w.app, "9732000001", w.credit, w.ops);
    const b = await activeLoan(w.app, "9732000002", w.credit, w.ops);
    [missing, changed, kept] = [await pay(w, a, "1000"), await pay(w, a, "1500"), await pay(w, b, "2000")];
    // The disbursals' statement, so that only the gateway differs.
    await standIns(w);
    w.clock.now = new Date("2026-03-03T06:30:00Z");
    const [file] = (await w.app.services.payments.settlementReports?.()) ?? [];
    const parsed = parseSettlementReport(file?.csv ?? "");
    if (!parsed.ok) throw new Error(parsed.message);
    const records: SettlementRecord[] = parsed.lines
      .filter((l) => l.providerRef !== missing)
      .map((l) =>
        l.providerRef === changed ? { ...l.raw, amount: 1600_00, credit: 1600_00 - Number(l.raw.fee) } : (l.raw as SettlementRecord),
      );
    const extra = parsed.lines.find((l) => l.providerRef === kept)?.raw ?? {};
    records.push({ ...extra, entity_id: "pay_NotOurs00000001", amount: 500_00, fee: 1180, tax: 180, credit: 500_00 - 1180, order_id: "" });
    report = settlementCsv(records);
  });
  afterAll(async () => {
    await w?.app.stop();
  });

  it("is open to finance, compliance and administrators; only finance and administrators import or resolve", async () => {
    for (const who of [w.credit, w.ops, support]) expect((await w.app.get(PAGE, { headers: { Cookie: who.cookie } })).status).toBe(403);
    for (const who of [w.finance, compliance, admin]) expect((await w.app.get(PAGE, { headers: { Cookie: who.cookie } })).status).toBe(200);
    const before = await count(w, statementImports);
    expect((await upload(w, compliance.cookie, { kind: "gateway_settlement", name: "r.csv", body: report })).status).toBe(403);
    expect((await postForm(w.app, PAGE, { intent: "match" }, { cookie: compliance.cookie })).status).toBe(403);
    expect((await postForm(w.app, PAGE, { intent: "import_local" }, { cookie: w.ops.cookie })).status).toBe(403);
    expect(await count(w, statementImports)).toBe(before);
    // Compliance reads the page without the import form.
    expect(await html(await w.app.get(PAGE, { headers: { Cookie: compliance.cookie } }))).not.toContain("Import the statement");
  });

  it("answers an upload that is no statement with a clear message, and stores nothing", async () => {
    const before = [await count(w, statementImports), await count(w, statementLines)];
    const cases: [Parameters<typeof upload>[2], RegExp][] = [
      [
        { kind: "gateway_settlement", name: "r.csv", body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) },
        /not text in UTF-8/,
      ],
      [{ kind: "gateway_settlement", name: "r.csv", body: `entity_id,type\u0000\npay_1,payment\n` }, /not a CSV text file/],
      [{ kind: "gateway_settlement", name: "r.csv", body: 'entity_id,type\n"pay_1,payment\n' }, /Row 2: a quoted value is never closed/],
      [{ kind: "payout_statement", name: "r.csv", body: report }, /The header has no id, source_entity, source_id columns/],
      [
        { kind: "gateway_settlement", name: "r.csv", body: report.replace("setl_", "=cmd|setl_") },
        /Row 2: settlement_id is not a provider's id/,
      ],
      [{ kind: "gateway_settlement", name: "report.xlsx", body: report }, /Choose a \.csv file/],
      [{ kind: "gateway_settlement", name: "", body: "" }, /Choose the CSV file to import/],
      [{ kind: "", name: "r.csv", body: report }, /Choose which statement this is/],
      [{ kind: "gateway_settlement", name: "big.csv", body: new Uint8Array(2 * 1024 * 1024 + 10) }, /larger than 2 MB/],
    ];
    for (const [fields, message] of cases) {
      const res = await upload(w, w.finance.cookie, fields);
      expect([fields.name, res.status]).toEqual([fields.name, 400]);
      expect(await html(res)).toMatch(message);
    }
    // Larger than the route takes: refused before the body is read.
    const huge = await rawRequest(w.app, {
      path: PAGE,
      headers: {
        "Content-Type": "multipart/form-data; boundary=x",
        "Content-Length": String(3 * 1024 * 1024),
        Cookie: w.finance.cookie,
        Accept: "text/html",
      },
      chunks: ["--x"],
    });
    expect(huge?.status).toBe(413);
    expect(huge?.body).toMatch(/larger than 2 MB/);
    expect([await count(w, statementImports), await count(w, statementLines)]).toEqual(before);
    expect(readdirSync(path.join(w.app.dataDir, "uploads", "tmp"))).toEqual([]);
  });

  it("yields exactly three exceptions (the extra line, the changed amount, the missing payment once old enough); one is resolved with a note, audited, never changed after", async () => {
    const res = await upload(w, w.finance.cookie, { kind: "gateway_settlement", name: "razorpay-settlement.csv", body: report });
    expect(res.status).toBe(302);
    expect(toastOf(res)).toBe("Imported 3 lines: 1 matched, 2 to the exceptions queue.");
    const open = await openExceptions(w);
    expect(open.map((e) => [e.providerRef, e.reason, e.side]).sort()).toEqual(
      [
        [changed, "amount_differs", "statement"],
        ["pay_NotOurs00000001", "not_in_books", "statement"],
      ].sort(),
    );
    expect(open.find((e) => e.providerRef === changed)).toMatchObject({ amountPaise: 1600_00, expectedPaise: 1500_00 });
    // The settlement is journalled as the bank received it, balanced; the kept payment's capture is cleared.
    expect(await unbalancedEntries(w.app.services)).toEqual([]);
    expect(await balanceOf(w, "gateway_clearing", [kept])).toBe(0);
    expect(await balanceOf(w, "gateway_clearing", [changed])).toBe(1500_00 - 1600_00);
    expect(await balanceOf(w, "gateway_clearing", [missing])).toBe(1000_00);

    // The same file again: refused, nothing stored.
    const lines = await count(w, statementLines);
    const again = await upload(w, w.finance.cookie, { kind: "gateway_settlement", name: "copy.csv", body: report });
    expect(again.status).toBe(409);
    expect(await html(again)).toMatch(
      /This file was imported already \(as razorpay-settlement\.csv, .* by Farah Iqbal\): nothing was imported again\./,
    );
    expect(await count(w, statementLines)).toBe(lines);

    // Two days after the capture it is not an exception yet; three days after, it is, once.
    w.clock.now = new Date("2026-03-04T06:30:00Z");
    await matchAgain(w);
    expect(await openExceptions(w)).toHaveLength(2);
    w.clock.now = new Date("2026-03-05T06:30:00Z");
    expect(toastOf(await matchAgain(w))).toBe("Matching ran: 0 matched, 1 new exception, 0 cleared.");
    expect(toastOf(await matchAgain(w))).toBe("Matching ran: 0 matched, 0 new exceptions, 0 cleared.");
    const three = await openExceptions(w);
    expect(three.map((e) => [e.providerRef, e.reason]).sort()).toEqual(
      [
        [changed, "amount_differs"],
        [missing, "not_on_statement"],
        ["pay_NotOurs00000001", "not_in_books"],
      ].sort(),
    );
    expect(await count(w, reconExceptions)).toBe(3);
    const runs = await w.app.services.db.select().from(auditLog).where(eq(auditLog.action, "reconciliation.matched"));
    expect(runs.map((r) => [r.actorUserId, r.details])).toContainEqual([w.finance.userId, { matched: 0, raised: 1, cleared: 0 }]);
    const body = await html(await w.app.get(PAGE, { headers: { Cookie: w.finance.cookie } }));
    expect(body).toContain("Exceptions queue: 3");
    // The staff home counts them for the roles that read the books.
    expect(await html(await w.app.get("/admin", { headers: { Cookie: w.finance.cookie } }))).toMatch(
      /3<\/span><span class="mt-1 block text-slate-700">Reconciliation exceptions open/,
    );
    expect(await html(await w.app.get("/admin", { headers: { Cookie: w.ops.cookie } }))).not.toContain("Reconciliation exceptions open");
    expect(body).toMatch(/The statement says ₹1,600; the books hold ₹1,500 for this id/);
    expect(body).toMatch(/Captured 2 Mar 2026 for ₹1,000, and on no settlement report since\./);

    // Finance resolves one with a note: audited, never changed after.
    const [extra] = (await openExceptions(w)).filter((e) => e.providerRef === "pay_NotOurs00000001");
    const id = extra?.id ?? "";
    const short = await postForm(w.app, PAGE, { intent: "resolve", exception: id, note: "ok" }, { cookie: w.finance.cookie });
    expect(short.status).toBe(400);
    expect(await html(short)).toMatch(/Say how it was resolved, in at least 10 characters/);
    expect(
      (await postForm(w.app, PAGE, { intent: "resolve", exception: id, note: "A long enough note" }, { cookie: compliance.cookie })).status,
    ).toBe(403);
    const note = "Another merchant's payment settled to us by mistake; Razorpay ticket 4471 asks for it back.";
    const done = await postForm(w.app, PAGE, { intent: "resolve", exception: id, note }, { cookie: w.finance.cookie });
    expect(toastOf(done)).toBe("Resolved, with your note.");
    const [row] = await w.app.services.db.select().from(reconExceptions).where(eq(reconExceptions.id, id));
    expect(row).toMatchObject({ resolvedBy: w.finance.userId, resolution: note });
    expect(row?.resolvedAt).toBeInstanceOf(Date);
    const [audited] = await w.app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "reconciliation.exception_resolved"), eq(auditLog.subjectId, id)));
    expect(audited).toMatchObject({
      actorUserId: w.finance.userId,
      subjectType: "recon_exception",
      details: expect.objectContaining({ note }),
    });
    // Resolved once: a second answer says so; the database refuses a change or a deletion.
    expect(
      toastOf(await postForm(w.app, PAGE, { intent: "resolve", exception: id, note: "Changing my mind now" }, { cookie: admin.cookie })),
    ).toMatch(/resolved it already/);
    await expect(w.app.services.db.execute(sql`update recon_exceptions set resolution = 'rewritten' where id = ${id}`)).rejects.toThrow();
    await expect(w.app.services.db.execute(sql`delete from recon_exceptions where id = ${id}`)).rejects.toThrow();
    await expect(w.app.services.db.execute(sql`delete from statement_imports`)).rejects.toThrow();
    const after = await html(await w.app.get(PAGE, { headers: { Cookie: w.finance.cookie } }));
    expect(after).toContain("Exceptions queue: 2");
    expect(after).toContain(note);
    expect(after).toContain("Farah Iqbal");
    expect(
      (
        await postForm(
          w.app,
          PAGE,
          { intent: "resolve", exception: "00000000-0000-4000-8000-000000000000", note },
          { cookie: w.finance.cookie },
        )
      ).status,
    ).toBe(404);
  });
});

describe("a payment refunded by the gateway", () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });
  afterAll(async () => {
    await w?.app.stop();
  });

  it("matches the refund to the payment's reversal in the books, and the clearing account nets to nothing", async () => {
    const a = await activeLoan(w.app, "9733000001", w.credit, w.ops);
    const paymentId = await pay(w, a, "1000");
    const [p] = await w.app.services.db.select().from(payments).where(eq(payments.providerPaymentId, paymentId));
    const admin = await signedInStaff(w.app, "admin", "Anil Mehta");
    const loanPage = `/admin/loans/${a.loanNumber}`;
    const reason = { payment: p?.reference ?? "", reason: "Chargeback: the card holder disputed it" };
    expect(toastOf(await postForm(w.app, loanPage, { intent: "request_reversal", ...reason }, { cookie: w.ops.cookie }))).toMatch(/second/);
    expect(toastOf(await postForm(w.app, loanPage, { intent: "confirm_reversal", ...reason }, { cookie: admin.cookie }))).toMatch(
      /reversed/,
    );
    w.clock.now = new Date("2026-03-03T06:30:00Z");
    const common = {
      currency: "INR",
      settled: true,
      settled_at: 1772513400,
      settlement_id: "setl_Refund0000001",
      settlement_utr: "UTRREFUND1",
    };
    const report = settlementCsv([
      { ...common, entity_id: paymentId, type: "payment", debit: 0, credit: 1000_00 - 2360, amount: 1000_00, fee: 2360, tax: 360 },
      {
        ...common,
        entity_id: "rfnd_Refund0000001",
        type: "refund",
        debit: 1000_00,
        credit: 0,
        amount: 1000_00,
        fee: 0,
        tax: 0,
        payment_id: paymentId,
      },
    ]);
    const res = await upload(w, w.finance.cookie, { kind: "gateway_settlement", name: "refund.csv", body: report });
    expect(toastOf(res)).toBe("Imported 2 lines: 2 matched, 0 to the exceptions queue.");
    expect(await balanceOf(w, "gateway_clearing", [paymentId])).toBe(0);
    expect(await balanceOf(w, "bank", ["UTRREFUND1"])).toBe(-2360);
    expect(await unbalancedEntries(w.app.services)).toEqual([]);
    expect(await openExceptions(w)).toEqual([]);
  });
});
