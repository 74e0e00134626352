import { describe, expect, it } from "vitest";
import {
  ageBucket,
  exceptionText,
  type JournalCandidate,
  matchLine,
  uploadStatementSchema,
} from "../../app/domain/books/reconciliation.ts";
import { parseCsv } from "../../app/domain/csv.ts";
import {
  parsePayoutStatement,
  parseSettlementReport,
  payoutStatementCsv,
  settlementCsv,
  standInCharges,
} from "../../app/domain/books/statements.ts";
import { localSettlementReports } from "../../app/server/payments/local.server.ts";
import { localPayoutStatements } from "../../app/server/payouts/provider.server.ts";

// Reconciliation's files (docs/decisions/0005-reconciliation-formats.md) and its matching rule
// (docs/product.md "The lender's books"): each format read from rows as the providers document them,
// what the local stand-ins write read back to the same figures, and a statement line's journal line.

/** Razorpay's documented settlement recon items (GET /v1/settlements/recon/combined), as CSV rows. */
const RAZORPAY_EXAMPLE = [
  "entity_id,type,debit,credit,amount,currency,fee,tax,on_hold,settled,created_at,settled_at,settlement_id,posted_at,credit_type,description,notes,payment_id,settlement_utr,order_id,order_receipt,method,card_network,card_issuer,card_type,dispute_id",
  'pay_DEXrnipqTmWVGE,payment,0,97100,100000,INR,2900,0,false,true,1567692556,1568176960,setl_DGlQ1Rj8os78Ec,,default,Recurring Payment via Subscription,"Beam me up Scotty.",,1568176960vxp0rj,order_DEXrnRiR3SNDHA,,card,MasterCard,KARB,credit,',
  "rfnd_DGRcGzZSLyEdg1,refund,242500,0,242500,INR,0,0,false,true,1568107224,1568176960,setl_DGlQ1Rj8os78Ec,,default,,,pay_DEXq1pACSqFxtS,1568176960vxp0rj,order_DEXpmZgffXNvuI,,card,MasterCard,KARB,credit,",
  "pay_DORWaWz6UGwvRx,payment,0,68348,70000,INR,1652,252,false,true,1569853622,1569940022,setl_DGlQ1Rj8os78Ec,,default,,,,1568176960vxp0rj,order_DORWL4a5PvwmiR,,upi,,,,",
].join("\r\n");

describe("CSV", () => {
  it("reads quoted values with commas, quotes and line breaks, CRLF or LF, and a byte-order mark", () => {
    const parsed = parseCsv('\uFEFFa,b,c\r\n"x, y","say ""hi""","two\nlines"\n1,,3\n\n');
    expect(parsed).toEqual({
      ok: true,
      rows: [
        ["a", "b", "c"],
        ["x, y", 'say "hi"', "two\nlines"],
        ["1", "", "3"],
      ],
    });
  });

  it("refuses a quote left open, a stray quote and text after a closing quote, naming the row", () => {
    expect(parseCsv('a,b\n"open,1\n')).toEqual({ ok: false, message: "Row 2: a quoted value is never closed." });
    expect(parseCsv('a,b\nx"y,1\n')).toMatchObject({ ok: false, message: expect.stringMatching(/^Row 2: a quote inside/) });
    expect(parseCsv('a,b\n"x"y,1\n')).toMatchObject({ ok: false, message: expect.stringMatching(/^Row 2: text after/) });
  });
});

describe("Razorpay's settlement recon report", () => {
  it("reads the documented rows: gross, fee without GST, GST, net, settlement, and what each matches", () => {
    const parsed = parseSettlementReport(RAZORPAY_EXAMPLE);
    if (!parsed.ok) throw new Error(parsed.message);
    const [payment, refund, upi] = parsed.lines;
    expect(payment).toMatchObject({
      row: 2,
      lineType: "payment",
      providerRef: "pay_DEXrnipqTmWVGE",
      grossPaise: 100_000,
      feePaise: 2900,
      taxPaise: 0,
      netPaise: 97_100,
      direction: "in",
      valueDate: "2019-09-11",
      eventDate: "2019-09-05",
      settlementId: "setl_DGlQ1Rj8os78Ec",
      utr: "1568176960vxp0rj",
      settled: true,
      match: { purpose: "gateway_clearing", ref: "pay_DEXrnipqTmWVGE", side: "debit" },
    });
    expect(payment?.raw.notes).toBe("Beam me up Scotty.");
    // A refund of a payment is that payment's reversal: a credit on the clearing account under the payment's id.
    expect(refund).toMatchObject({
      lineType: "refund",
      direction: "out",
      netPaise: -242_500,
      match: { purpose: "gateway_clearing", ref: "pay_DEXq1pACSqFxtS", side: "credit" },
    });
    // Razorpay's fee includes its GST: ₹16.52 is ₹14.00 and ₹2.52 GST.
    expect(upi).toMatchObject({ grossPaise: 70_000, feePaise: 1400, taxPaise: 252, netPaise: 68_348 });
  });

  it("reads a dashboard export in rupees with India dates and times, and its header in words", () => {
    const csv = [
      "Entity ID,Type,Debit,Credit,Amount,Currency,Fee,Tax,Settled At,Settlement ID,Settlement UTR,Created At",
      "pay_A1,payment,0.00,980.00,1000.00,INR,20.00,3.05,03/03/2026 10:00:00,setl_X,UTR1,2026-03-02 09:15:00",
    ].join("\n");
    const parsed = parseSettlementReport(csv);
    expect(parsed).toMatchObject({ ok: true, lines: [{ grossPaise: 100_000, feePaise: 1695, taxPaise: 305, netPaise: 98_000 }] });
    expect(parsed.ok && parsed.lines[0]).toMatchObject({ valueDate: "2026-03-03", eventDate: "2026-03-02" });
  });

  it("keeps a line not settled yet without a settlement", () => {
    const csv = [
      "entity_id,type,debit,credit,amount,fee,tax,settled,on_hold,settled_at,settlement_id",
      "pay_B1,payment,0,980,1000,20,3,false,true,,",
    ].join("\n");
    expect(parseSettlementReport(csv)).toMatchObject({
      ok: true,
      lines: [{ settled: false, settlementId: null, valueDate: null, lineKey: "payment:pay_B1:not_settled" }],
    });
  });

  it("refuses a file that is not one, naming the row and column", () => {
    const head = "entity_id,type,debit,credit,amount,fee,tax,settled_at,settlement_id,currency";
    const refused = (rows: string[]) => {
      const parsed = parseSettlementReport([head, ...rows].join("\n"));
      return parsed.ok ? "" : parsed.message;
    };
    expect(refused(["pay_1,payment,0,980,1000,20,3,1772510400,setl_1,INR"])).toBe("");
    expect(refused(["pay_1,payment,0,981,1000,20,3,1772510400,setl_1,INR"])).toMatch(/Row 2: the credit is not the amount less the fee/);
    expect(refused(["pay_1,payment,0,980,1000,20,30,1772510400,setl_1,INR"])).toMatch(/Row 2: the tax is more than the fee/);
    expect(refused(["pay_1,payment,0,980,1000,20,3,1772510400,setl_1,USD"])).toMatch(/Row 2: the currency is USD/);
    expect(refused(["pay_1,payment,0,abc,1000,20,3,1772510400,setl_1,INR"])).toMatch(/Row 2: credit is not an amount/);
    expect(refused(["=cmd|'/c calc'!A1,payment,0,980,1000,20,3,1772510400,setl_1,INR"])).toMatch(/Row 2: entity_id is not a provider's id/);
    expect(refused(["pay_1,payment,0,980,1000,20,3,yesterday,setl_1,INR"])).toMatch(/Row 2: settled_at is not a date/);
    expect(refused(["pay_1,payment,0,980,1000,20,3,1772510400,setl_1"])).toMatch(/Row 2 has 9 values where the header has 10/);
    expect(refused(["pay_1,payment,0,980,1000,20,3,1772510400,setl_1,INR", "pay_1,payment,0,980,1000,20,3,1772510400,setl_1,INR"])).toMatch(
      /Rows 2 and 3 are the same line/,
    );
    expect(parseSettlementReport("id,amount\npay_1,100\n")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/no type, debit, credit/),
    });
    expect(parseSettlementReport(`${head}\n`)).toMatchObject({ ok: false, message: "The file has a header but no lines." });
    expect(parseSettlementReport("PK\u0003\u0004binary")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not a CSV text file/),
    });
  });
});

describe("RazorpayX's account statement", () => {
  const csv = [
    "id,account_number,source_entity,source_id,payout_id,amount,currency,debit,credit,fees,tax,balance,utr,mode,status,reference_id,created_at",
    "txn_00000000000002,7878780080316316,payout,pout_00000000000001,,1000000,INR,1000000,0,590,90,9000000,000000000001,NEFT,processed,ref1,1545224066",
    "txn_00000000000003,7878780080316316,reversal,rvrsl_00000000000001,pout_00000000000001,1000000,INR,0,1000000,-590,-90,10000000,,NEFT,reversed,ref1,1545310466",
    "txn_00000000000001,1121431121541121,bank_transfer,bt_00000000000001,,10000000,INR,0,10000000,0,0,10000000,AXIR000000000001,NEFT,,,1545125568",
  ].join("\n");

  it("reads payouts, their reversals and money added, each with what it matches", () => {
    const parsed = parsePayoutStatement(csv);
    if (!parsed.ok) throw new Error(parsed.message);
    const [payout, reversal, funding] = parsed.lines;
    expect(payout).toMatchObject({
      lineType: "payout",
      providerRef: "pout_00000000000001",
      lineKey: "txn:txn_00000000000002",
      grossPaise: 1_000_000,
      feePaise: 500,
      taxPaise: 90,
      netPaise: -1_000_000,
      direction: "out",
      utr: "000000000001",
      valueDate: "2018-12-19",
      match: { purpose: "payout_account", ref: "pout_00000000000001", side: "credit" },
    });
    expect(reversal).toMatchObject({
      lineType: "reversal",
      feePaise: -500,
      taxPaise: -90,
      netPaise: 1_000_000,
      match: { purpose: "payout_account", ref: "pout_00000000000001", side: "debit" },
    });
    expect(funding).toMatchObject({ lineType: "bank_transfer", match: null });
  });

  it("reads the API's field names with source flattened by a dot", () => {
    const dotted = [
      "id,source.entity,source.id,amount,debit,credit,source.fees,source.tax,source.utr,created_at",
      "txn_9,payout,pout_9,50000,50000,0,590,90,UTR9,1772510400",
    ].join("\n");
    expect(parsePayoutStatement(dotted)).toMatchObject({
      ok: true,
      lines: [{ providerRef: "pout_9", feePaise: 500, taxPaise: 90, utr: "UTR9" }],
    });
  });

  it("refuses a line whose debit is not its amount, or a reversal naming no payout", () => {
    const head = "id,source_entity,source_id,amount,debit,credit,created_at";
    expect(parsePayoutStatement(`${head}\ntxn_1,payout,pout_1,500,400,0,1772510400`)).toMatchObject({
      ok: false,
      message: "Row 2: the debit or credit is not the amount.",
    });
    expect(parsePayoutStatement(`${head}\ntxn_1,reversal,rvrsl_1,500,0,500,1772510400`)).toMatchObject({
      ok: false,
      message: "Row 2: a reversal that names no payout_id.",
    });
  });
});

describe("the local stand-ins' statements", () => {
  it("settle each capture the next working day, 2% and 18% GST kept back, and read back to the same figures", () => {
    const captures = [
      // Friday 6 March 2026, 10:00 India time: settled Monday 9 March.
      {
        paymentId: "lpay_a",
        orderId: "lco_a",
        amountPaise: 1_234_567,
        capturedAt: "2026-03-06T04:30:00Z",
        method: "upi" as const,
        description: "Loan SL1, a",
      },
      // Monday 9 March: settled Tuesday 10 March, or Wednesday when the 10th is a holiday.
      {
        paymentId: "ldd_b",
        orderId: null,
        amountPaise: 500_000,
        capturedAt: "2026-03-09T06:00:00Z",
        method: "emandate" as const,
        description: "Autopay",
      },
      // Wednesday 11 March: settles on the 12th, after "today".
      {
        paymentId: "lpay_c",
        orderId: "lco_c",
        amountPaise: 100,
        capturedAt: "2026-03-11T06:00:00Z",
        method: "upi" as const,
        description: "c",
      },
    ];
    const files = localSettlementReports(captures, { today: "2026-03-11", feeBps: 200, holidays: ["2026-03-10"] });
    expect(files.map((f) => f.name)).toEqual(["local-settlement-2026-03-09.csv", "local-settlement-2026-03-11.csv"]);
    const again = localSettlementReports([...captures].reverse(), { today: "2026-03-11", feeBps: 200, holidays: ["2026-03-10"] });
    expect(again).toEqual(files);
    const first = parseSettlementReport(files[0]?.csv ?? "");
    if (!first.ok) throw new Error(first.message);
    const charges = standInCharges(1_234_567, 200);
    // 2% of ₹12,345.67 is ₹246.91 (half-up); 18% of it ₹44.44.
    expect(charges).toEqual({ fee: 24_691 + 4444, tax: 4444 });
    expect(first.lines).toEqual([
      expect.objectContaining({
        providerRef: "lpay_a",
        grossPaise: 1_234_567,
        feePaise: 24_691,
        taxPaise: 4444,
        netPaise: 1_234_567 - 24_691 - 4444,
        valueDate: "2026-03-09",
        eventDate: "2026-03-06",
        settlementId: "lsetl_20260309",
      }),
    ]);
    const second = parseSettlementReport(files[1]?.csv ?? "");
    expect(second.ok && second.lines.map((l) => [l.providerRef, l.valueDate])).toEqual([["ldd_b", "2026-03-11"]]);
  });

  it("write each day's processed payouts with the fee and its GST, read back to the same figures", () => {
    const record = (key: string, amountPaise: number) => ({
      id: `lpo_${key}`,
      key,
      amountPaise,
      account: "XXXX1234",
      ifsc: "HDFC0000001",
      name: "A",
      createdAt: "2026-03-09T05:00:00Z",
    });
    const files = localPayoutStatements(
      [
        { record: record("k1", 14_646_000), utr: "123456789012", at: new Date("2026-03-09T05:00:05Z") },
        { record: record("k2", 500_000), utr: "210987654321", at: new Date("2026-03-09T20:00:00Z") },
      ],
      { today: "2026-03-10", feePaise: 500 },
    );
    expect(files.map((f) => f.name)).toEqual(["local-payouts-2026-03-09.csv", "local-payouts-2026-03-10.csv"]);
    const parsed = parsePayoutStatement(files[0]?.csv ?? "");
    expect(parsed).toMatchObject({
      ok: true,
      lines: [{ providerRef: "lpo_k1", grossPaise: 14_646_000, feePaise: 500, taxPaise: 90, netPaise: -14_646_000, utr: "123456789012" }],
    });
  });

  it("writes what it reads: a statement written from records reads back to them", () => {
    const csv = settlementCsv([
      {
        entity_id: "pay_1",
        type: "payment",
        debit: 0,
        credit: 9764,
        amount: 10_000,
        fee: 236,
        tax: 36,
        settled_at: 1772510400,
        settlement_id: "setl_1",
        description: 'a "quoted", text',
      },
    ]);
    expect(parseSettlementReport(csv)).toMatchObject({
      ok: true,
      lines: [{ grossPaise: 10_000, feePaise: 200, taxPaise: 36, raw: { description: 'a "quoted", text' } }],
    });
    const out = payoutStatementCsv([
      { id: "txn_1", source_entity: "payout", source_id: "pout_1", amount: 100, debit: 100, credit: 0, created_at: 1772510400 },
    ]);
    expect(parsePayoutStatement(out)).toMatchObject({ ok: true, lines: [{ providerRef: "pout_1", feePaise: 0 }] });
  });
});

describe("matching a statement line to the books", () => {
  const capture = (id: number, paise: number, businessDate: string): JournalCandidate => ({
    id,
    purpose: "gateway_clearing",
    ref: "pay_1",
    side: "debit",
    paise,
    businessDate,
    applicationId: "loan-1",
  });
  const line = {
    match: { purpose: "gateway_clearing" as const, ref: "pay_1", side: "debit" as const },
    grossPaise: 1000,
    valueDate: "2026-03-09",
  };

  it("matches the same account, side, id and amount dated on or before the statement, once", () => {
    expect(matchLine(line, [capture(1, 1000, "2026-03-06")], new Set())).toEqual({
      state: "matched",
      journalLineId: 1,
      applicationId: "loan-1",
    });
    expect(matchLine(line, [capture(1, 1000, "2026-03-06")], new Set([1]))).toMatchObject({ state: "unmatched", reason: "not_in_books" });
    expect(matchLine(line, [{ ...capture(1, 1000, "2026-03-06"), side: "credit" }], new Set())).toMatchObject({ reason: "not_in_books" });
  });

  it("says why not: another amount, a later date, nothing, or a line of another kind", () => {
    expect(matchLine(line, [capture(1, 999, "2026-03-06")], new Set())).toMatchObject({ reason: "amount_differs", expectedPaise: 999 });
    expect(matchLine(line, [capture(1, 1000, "2026-03-10")], new Set())).toMatchObject({ reason: "booked_later", bookedOn: "2026-03-10" });
    expect(matchLine(line, [], new Set())).toMatchObject({ reason: "not_in_books", expectedPaise: null });
    expect(matchLine({ ...line, match: null }, [capture(1, 1000, "2026-03-06")], new Set())).toMatchObject({ reason: "other_kind" });
  });

  it("says in words what the books hold that no statement lists", () => {
    const base = {
      kind: "gateway_settlement" as const,
      reason: "not_on_statement" as const,
      amountPaise: 1000_00,
      expectedPaise: null,
      bookedOn: null,
      eventDate: "2026-03-02",
    };
    expect(exceptionText({ ...base, lineType: "payment" })).toBe("Captured 2 Mar 2026 for ₹1,000, and on no settlement report since.");
    expect(exceptionText({ ...base, lineType: "payment_reversal" })).toMatch(
      /^Reversed in the books 2 Mar 2026 \(₹1,000\), and no refund or dispute/,
    );
    expect(exceptionText({ ...base, kind: "payout_statement", lineType: "payout" })).toBe(
      "Paid out 2 Mar 2026 for ₹1,000, and on no payout statement since.",
    );
  });

  it("ages items in the buckets 0–2, 3–7, 8–30 and over 30 days", () => {
    expect(
      ["2026-03-10", "2026-03-08", "2026-03-07", "2026-03-03", "2026-03-02", "2026-02-08", "2026-02-07"].map((d) =>
        ageBucket(d, "2026-03-10"),
      ),
    ).toEqual(["0-2", "0-2", "3-7", "3-7", "8-30", "8-30", "31+"]);
  });
});

describe("the upload form", () => {
  it("needs a statement kind and a CSV file within the limit", () => {
    const file = (name: string, size: number) => new File([new Uint8Array(size)], name);
    expect(uploadStatementSchema.safeParse({ kind: "gateway_settlement", file: file("s.csv", 10) }).success).toBe(true);
    expect(uploadStatementSchema.safeParse({ kind: "x", file: file("s.csv", 10) }).success).toBe(false);
    expect(uploadStatementSchema.safeParse({ kind: "payout_statement", file: file("s.xlsx", 10) }).error?.issues[0]?.message).toMatch(
      /\.csv/,
    );
    expect(
      uploadStatementSchema.safeParse({ kind: "payout_statement", file: file("s.csv", 3 * 1024 * 1024) }).error?.issues[0]?.message,
    ).toMatch(/larger than 2 MB/);
  });
});
