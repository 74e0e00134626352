/**
 * The Key Fact Statement (RBI format, docs/product.md "Key Fact Statement, signing and the signed agreement") as data: Part 1 (interest
 * rate and charges), Part 2 (qualitative information), the APR computation and
 * the repayment schedule, every figure from the loan math. The PDF and the
 * Step5 page both print this model, so they cannot disagree.
 */
import { longDate } from "../india-date.ts";
import type { LenderIdentity } from "../lender.ts";
import { formatRupees } from "../money.ts";
import { emiQuote, type FeeTerms, type IsoDate, processingFee, salaryAdvanceQuote } from "../loan-math.ts";
import { KIND_NAME, KIND_WITH_ARTICLE, type LoanKind } from "./application.ts";
import { coolingOffRule } from "./cooling-off.ts";

export interface KfsInput {
  kind: LoanKind;
  /** The application reference, printed as the proposal number. */
  reference: string;
  brandName: string;
  lender: LenderIdentity;
  borrower: { name: string; panMasked: string; mobileMasked: string; address: string };
  issuedOn: IsoDate;
  validUntil: IsoDate;
  assumedDisbursalDate: IsoDate;
  amountPaise: number;
  /** EMI loan only. */
  tenureMonths: number | null;
  /** EMI loan: annual rate; salary advance: rate per day. */
  rateBps: number;
  fees: FeeTerms;
  penalChargePaise: number;
  coolingOffDays: number;
  /** Salary advance only. */
  salaryDay: number | null;
  purpose: string;
  disbursalAccount: { holderName: string; accountMasked: string; ifsc: string; bankName: string };
  /** Set on the revised KFS issued at disbursal: the actual disbursal date (then equal to `assumedDisbursalDate`). */
  disbursedOn?: IsoDate;
}

export type Row = [label: string, value: string];
export interface KfsSection {
  title: string;
  rows: Row[];
}
export interface KfsModel {
  title: string;
  kind: LoanKind;
  reference: string;
  issuedOn: IsoDate;
  validUntil: IsoDate;
  assumedDisbursalDate: IsoDate;
  /** The figures, in paise, for the page and for checks. */
  figures: {
    amountPaise: number;
    instalmentPaise: number;
    instalments: number;
    firstDueDate: IsoDate;
    lastDueDate: IsoDate;
    totalInterestPaise: number;
    feePaise: number;
    gstPaise: number;
    netDisbursedPaise: number;
    totalPayablePaise: number;
    aprPercent: number;
  };
  parts: KfsSection[];
  schedule: { columns: string[]; rows: string[][] };
}

const rs = formatRupees;
const percent = (bps: number) => `${(bps / 100).toFixed(2)}%`;

export function buildKfs(input: KfsInput): KfsModel {
  const fee = processingFee(input.amountPaise, input.fees);
  const feeText = `${rs(fee.feePaise)} + GST ${rs(fee.gstPaise)} = ${rs(fee.totalUpfrontPaise)} (one-time, payable to ${input.lender.name}, deducted from the disbursal)`;
  const g = input.lender.grievanceOfficer;
  let figures: KfsModel["figures"];
  let loanRows: Row[];
  let schedule: KfsModel["schedule"];

  if (input.kind === "emi") {
    const months = input.tenureMonths ?? 0;
    const q = emiQuote({
      principalPaise: input.amountPaise,
      annualRateBps: input.rateBps,
      months,
      upfrontPaise: fee.totalUpfrontPaise,
      disbursalDate: input.assumedDisbursalDate,
    });
    const first = q.schedule[0]?.dueDate ?? input.assumedDisbursalDate;
    const last = q.schedule.at(-1)?.dueDate ?? first;
    figures = {
      amountPaise: input.amountPaise,
      instalmentPaise: q.emiPaise,
      instalments: months,
      firstDueDate: first,
      lastDueDate: last,
      totalInterestPaise: q.totalInterestPaise,
      feePaise: fee.feePaise,
      gstPaise: fee.gstPaise,
      netDisbursedPaise: q.netDisbursedPaise,
      totalPayablePaise: q.totalPayablePaise,
      aprPercent: q.aprPercent,
    };
    const lastLine = q.schedule.at(-1);
    loanRows = [
      ["Loan term", `${months} months`],
      ["Type of instalments", "Equated monthly instalments (EMI)"],
      ["Number of instalments", String(months)],
      [
        "Instalment amount",
        lastLine && lastLine.paymentPaise !== q.emiPaise
          ? `${rs(q.emiPaise)} (the last instalment is ${rs(lastLine.paymentPaise)})`
          : rs(q.emiPaise),
      ],
      ["Repayment starts", `${longDate(first)}, one month after disbursal; then on the same day each month`],
      ["Interest rate and type", `${percent(input.rateBps)} a year, fixed, on the reducing balance`],
      ["Floating rate details", "Not applicable (fixed rate)"],
    ];
    schedule = {
      columns: ["No.", "Due date", "Opening balance", "Principal", "Interest", "Instalment", "Closing balance"],
      rows: q.schedule.map((l) => [
        String(l.instalment),
        l.dueDate ? longDate(l.dueDate) : "",
        rs(l.openingPaise),
        rs(l.principalPaise),
        rs(l.interestPaise),
        rs(l.paymentPaise),
        rs(l.closingPaise),
      ]),
    };
  } else {
    const q = salaryAdvanceQuote({
      principalPaise: input.amountPaise,
      dailyRateBps: input.rateBps,
      disbursalDate: input.assumedDisbursalDate,
      salaryDay: input.salaryDay ?? 1,
      fees: input.fees,
    });
    figures = {
      amountPaise: input.amountPaise,
      instalmentPaise: q.totalRepayablePaise,
      instalments: 1,
      firstDueDate: q.repaymentDate,
      lastDueDate: q.repaymentDate,
      totalInterestPaise: q.interestPaise,
      feePaise: fee.feePaise,
      gstPaise: fee.gstPaise,
      netDisbursedPaise: q.netDisbursedPaise,
      totalPayablePaise: q.totalRepayablePaise,
      aprPercent: q.aprPercent,
    };
    loanRows = [
      ["Loan term", `${q.days} days (to your salary date)`],
      ["Type of instalments", "One repayment (bullet) on your salary date"],
      ["Number of instalments", "1"],
      ["Instalment amount", rs(q.totalRepayablePaise)],
      ["Repayment date", `${longDate(q.repaymentDate)} (your salary day ${input.salaryDay}; at least 7 days after disbursal)`],
      [
        "Interest rate and type",
        `${percent(input.rateBps)} a day on the principal, simple interest (${percent(input.rateBps * 365)} a year)`,
      ],
      ["Floating rate details", "Not applicable (fixed rate)"],
    ];
    schedule = {
      columns: ["No.", "Due date", "Principal", "Interest", "Amount due"],
      rows: [["1", longDate(q.repaymentDate), rs(input.amountPaise), `${rs(q.interestPaise)} (${q.days} days)`, rs(q.totalRepayablePaise)]],
    };
  }

  const foreclosure =
    input.kind === "emi"
      ? "Allowed at any time with no charge: you pay the principal outstanding, interest for the days since the last due date, and any unpaid dues."
      : "Allowed at any time with no charge: you pay the principal and interest only for the days used.";
  const penal =
    input.kind === "emi"
      ? `${rs(input.penalChargePaise)} flat for each missed instalment, shown as its own charge; it never earns interest and is never added to the loan.`
      : `${rs(input.penalChargePaise)} once if the repayment is missed, shown as its own charge; it never earns interest and is never added to the loan.`;

  const parts: KfsSection[] = [
    {
      title: "Part 1 — Interest rate and fees and charges",
      rows: [
        ["Loan proposal number", input.reference.toUpperCase()],
        ["Type of loan", `${KIND_NAME[input.kind]}, unsecured`],
        ["Borrower", `${input.borrower.name}, PAN ${input.borrower.panMasked}, mobile ${input.borrower.mobileMasked}`],
        ["Purpose", input.purpose],
        ["Sanctioned loan amount", rs(input.amountPaise)],
        [
          "Disbursal schedule",
          `100% upfront, in one payment to your own verified account ${input.disbursalAccount.accountMasked} (${input.disbursalAccount.bankName}, IFSC ${input.disbursalAccount.ifsc}); ${
            input.disbursedOn
              ? `disbursed on ${longDate(input.disbursedOn)}`
              : `assumed disbursal date ${longDate(input.assumedDisbursalDate)} (the next working day after signing)`
          }`,
        ],
        ...loanRows,
        ["Processing fee (payable to the lender)", feeText],
        ["Fees payable to third parties", "None"],
        ["Annual Percentage Rate (APR)", `${figures.aprPercent.toFixed(2)}%`],
        ["Penal charges for late payment", penal],
        ["Other penal charges", "None"],
        ["Foreclosure charges", foreclosure],
        ["Charges for switching the loan", "Not applicable"],
        ["Any other charges", "None"],
      ],
    },
    {
      title: "Part 2 — Other qualitative information",
      rows: [
        [
          "Recovery agents",
          "Recovery, if needed, is done by the lender's own staff under the RBI Fair Practices Code; you will be told the name of any agent before contact.",
        ],
        [
          "Grievance redressal",
          `Raise a complaint in the app (Help) or with the grievance officer below. We answer within 30 days. If we do not, or you are not satisfied, you may complain to the RBI Integrated Ombudsman at https://cms.rbi.org.in.`,
        ],
        ["Grievance redressal officer", `${g.name}, ${g.phone}, ${g.email}`],
        ["Transfer of the loan", "The loan is not transferred or securitised without notice to you."],
        ["Co-lending", "Not applicable"],
        ["Cooling-off period", coolingOffRule(input.coolingOffDays)],
        ["Lending service provider", `None: ${input.brandName} is the lender's own platform.`],
        [
          "Lender",
          `${input.lender.name}, RBI registration ${input.lender.rbiRegistration}, CIN ${input.lender.cin}, ${input.lender.address}`,
        ],
      ],
    },
    {
      title: "Computation of the APR",
      rows: [
        ["Sanctioned loan amount", rs(input.amountPaise)],
        ["Loan term", input.kind === "emi" ? `${figures.instalments} months` : (loanRows[0]?.[1] ?? "")],
        ["Number of instalments", String(figures.instalments)],
        ["Instalment amount", rs(figures.instalmentPaise)],
        ["Total interest", rs(figures.totalInterestPaise)],
        ["Fees and charges (with GST)", rs(fee.totalUpfrontPaise)],
        ["Net disbursed amount", rs(figures.netDisbursedPaise)],
        ["Total amount you pay", rs(figures.totalPayablePaise)],
        ["Annual Percentage Rate", `${figures.aprPercent.toFixed(2)}%`],
        [
          "Due dates",
          figures.instalments === 1
            ? longDate(figures.firstDueDate)
            : `${longDate(figures.firstDueDate)} to ${longDate(figures.lastDueDate)}, monthly`,
        ],
      ],
    },
  ];

  return {
    title: `${input.disbursedOn ? "Revised Key Fact Statement" : "Key Fact Statement"} — ${KIND_NAME[input.kind]}`,
    kind: input.kind,
    reference: input.reference,
    issuedOn: input.issuedOn,
    validUntil: input.validUntil,
    assumedDisbursalDate: input.assumedDisbursalDate,
    figures,
    parts,
    schedule,
  };
}

/** The agreement's clauses, which embed the KFS by reference and print it in full after them. */
export function agreementClauses(input: KfsInput, kfs: KfsModel): string[] {
  const f = kfs.figures;
  return [
    `This loan agreement is between ${input.lender.name} ("the lender"), through its platform ${input.brandName}, and ${input.borrower.name} ("the borrower"), for proposal number ${input.reference.toUpperCase()}.`,
    `1. The loan. The lender agrees to lend ${rs(f.amountPaise)} as ${KIND_WITH_ARTICLE[input.kind]} on the terms of the Key Fact Statement printed with this agreement, which is part of it. If anything here differs from the Key Fact Statement, the Key Fact Statement applies.`,
    `2. Disbursal. The lender pays ${rs(f.netDisbursedPaise)} (the amount less the processing fee and its GST) only into the borrower's own verified bank account ${input.disbursalAccount.accountMasked}, after its staff have verified the borrower's KYC, documents, selfie and bank account. Nothing is approved by signing: the lender may decline the application with reasons.`,
    `3. Repayment. The borrower repays ${f.instalments === 1 ? `${rs(f.instalmentPaise)} on ${longDate(f.firstDueDate)}` : `${f.instalments} monthly instalments of ${rs(f.instalmentPaise)} from ${longDate(f.firstDueDate)}`}, as in the repayment schedule. The schedule assumes disbursal on ${longDate(input.assumedDisbursalDate)}; if the actual date or any amount differs, the lender issues a revised Key Fact Statement before the first instalment.`,
    `4. Charges. The only charges are those in the Key Fact Statement. Penal charges are charges, not interest: they are never added to the principal and never earn interest, and the borrower is told each time one is levied.`,
    `5. Prepayment, foreclosure and cooling-off. The borrower may prepay or close the loan at any time without a charge. Cooling-off: ${coolingOffRule(input.coolingOffDays)}`,
    `6. Data. The lender uses the borrower's data only to assess, service and recover this loan and as the law requires, under the consents the borrower has given, which may be withdrawn as the privacy policy explains.`,
    `7. Grievances. Complaints go to the grievance officer named in the Key Fact Statement, who answers within 30 days; after that the borrower may approach the RBI Integrated Ombudsman.`,
    `8. Signing. The borrower signs electronically by accepting this document and entering a one-time code sent to their registered mobile. A signature page recording who signed, when, and the SHA-256 hash of this document is added to the signed copy, which is sent to the borrower.`,
  ];
}

/** A KFS may be signed until the end of the third working day after the day it is issued. */
export const KFS_VALID_WORKING_DAYS = 3;
