/**
 * The Key Fact Statement (RBI format, docs/product.md "Key Fact Statement, signing and the signed agreement") as data: Part 1 (interest
 * rate and charges), Part 2 (qualitative information), the APR computation and
 * the repayment schedule, every figure from the loan math. The PDF and the
 * Step5 page both print this model, so they cannot disagree.
 */
import type { Language } from "../../i18n/languages.ts";
import type en from "../../i18n/messages/en/kfs.ts";
import type { MessageKey, MessageValues } from "../../i18n/plain-format.ts";
import { longDate } from "../india-date.ts";
import type { LenderIdentity } from "../lender.ts";
import { formatRupees } from "../money.ts";
import { emiQuote, type FeeTerms, type IsoDate, processingFee, salaryAdvanceQuote } from "../loan-math.ts";
import type { LoanKind } from "./application.ts";

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

/**
 * The words of the statement in one language: the `kfs` namespace of the catalogue and the
 * cooling-off rule (`rates.coolingOff`, the same sentence as coolingOffRule in English). Made on
 * the server (app/server/loans/kfs-words.server.ts).
 */
export interface KfsWords {
  language: Language;
  t: (key: MessageKey<typeof en>, values?: MessageValues) => string;
  coolingOff: (days: number) => string;
}

export type Row = [label: string, value: string];
export interface KfsSection {
  title: string;
  rows: Row[];
}
export interface KfsModel {
  title: string;
  /** The language it is written in (absent on statements issued before there was a choice: English). */
  language?: Language;
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

export function buildKfs(input: KfsInput, words: KfsWords): KfsModel {
  const { t, language } = words;
  const date = (d: IsoDate) => longDate(d, language);
  const fee = processingFee(input.amountPaise, input.fees);
  const feeText = t("value.fee", {
    fee: rs(fee.feePaise),
    gst: rs(fee.gstPaise),
    total: rs(fee.totalUpfrontPaise),
    lender: input.lender.name,
  });
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
      [t("label.loanTerm"), t("value.months", { months: String(months) })],
      [t("label.instalmentType"), t("value.emiType")],
      [t("label.instalments"), String(months)],
      [
        t("label.instalment"),
        lastLine && lastLine.paymentPaise !== q.emiPaise
          ? t("value.instalmentWithLast", { amount: rs(q.emiPaise), last: rs(lastLine.paymentPaise) })
          : rs(q.emiPaise),
      ],
      [t("label.repaymentStarts"), t("value.repaymentStarts", { date: date(first) })],
      [t("label.rate"), t("value.emiRate", { rate: percent(input.rateBps) })],
      [t("label.floating"), t("value.notFloating")],
    ];
    schedule = {
      columns: ["number", "dueDate", "opening", "principal", "interest", "instalment", "closing"].map((c) =>
        t(`column.${c}` as MessageKey<typeof en>),
      ),
      rows: q.schedule.map((l) => [
        String(l.instalment),
        l.dueDate ? date(l.dueDate) : "",
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
      [t("label.loanTerm"), t("value.advanceTerm", { days: String(q.days) })],
      [t("label.instalmentType"), t("value.advanceType")],
      [t("label.instalments"), "1"],
      [t("label.instalment"), rs(q.totalRepayablePaise)],
      [t("label.repaymentDate"), t("value.advanceDate", { date: date(q.repaymentDate), day: String(input.salaryDay) })],
      [t("label.rate"), t("value.advanceRate", { rate: percent(input.rateBps), yearly: percent(input.rateBps * 365) })],
      [t("label.floating"), t("value.notFloating")],
    ];
    schedule = {
      columns: ["number", "dueDate", "principal", "interest", "amountDue"].map((c) => t(`column.${c}` as MessageKey<typeof en>)),
      rows: [
        [
          "1",
          date(q.repaymentDate),
          rs(input.amountPaise),
          t("value.interestDays", { amount: rs(q.interestPaise), days: String(q.days) }),
          rs(q.totalRepayablePaise),
        ],
      ],
    };
  }

  const foreclosure = t(input.kind === "emi" ? "value.foreclosureEmi" : "value.foreclosureAdvance");
  const penal = t(input.kind === "emi" ? "value.penalEmi" : "value.penalAdvance", { amount: rs(input.penalChargePaise) });
  const kindName = t(`kind.${input.kind}`);
  const account = input.disbursalAccount;
  const none = t("value.none");
  const notApplicable = t("value.notApplicable");

  const parts: KfsSection[] = [
    {
      title: t("part1"),
      rows: [
        [t("label.proposal"), input.reference.toUpperCase()],
        [t("label.loanType"), t("value.loanType", { kind: kindName })],
        [
          t("label.borrower"),
          t("value.borrower", { name: input.borrower.name, pan: input.borrower.panMasked, mobile: input.borrower.mobileMasked }),
        ],
        [t("label.purpose"), input.purpose],
        [t("label.sanctioned"), rs(input.amountPaise)],
        [
          t("label.disbursal"),
          t(input.disbursedOn ? "value.disbursalDone" : "value.disbursalAssumed", {
            account: account.accountMasked,
            bank: account.bankName,
            ifsc: account.ifsc,
            date: date(input.disbursedOn ?? input.assumedDisbursalDate),
          }),
        ],
        ...loanRows,
        [t("label.fee"), feeText],
        [t("label.thirdParty"), none],
        [t("label.aprFull"), `${figures.aprPercent.toFixed(2)}%`],
        [t("label.penal"), penal],
        [t("label.otherPenal"), none],
        [t("label.foreclosure"), foreclosure],
        [t("label.switching"), notApplicable],
        [t("label.otherCharges"), none],
      ],
    },
    {
      title: t("part2"),
      rows: [
        [t("label.recovery"), t("value.recovery")],
        [t("label.grievance"), t("value.grievance", { url: "https://cms.rbi.org.in" })],
        [t("label.grievanceOfficer"), `${g.name}, ${g.phone}, ${g.email}`],
        [t("label.transfer"), t("value.transfer")],
        [t("label.coLending"), notApplicable],
        [t("label.coolingOff"), words.coolingOff(input.coolingOffDays)],
        [t("label.lsp"), t("value.lsp", { brand: input.brandName })],
        [
          t("label.lender"),
          t("value.lender", {
            name: input.lender.name,
            registration: input.lender.rbiRegistration,
            cin: input.lender.cin,
            address: input.lender.address,
          }),
        ],
      ],
    },
    {
      title: t("aprPart"),
      rows: [
        [t("label.sanctioned"), rs(input.amountPaise)],
        [t("label.loanTerm"), input.kind === "emi" ? t("value.months", { months: String(figures.instalments) }) : (loanRows[0]?.[1] ?? "")],
        [t("label.instalments"), String(figures.instalments)],
        [t("label.instalment"), rs(figures.instalmentPaise)],
        [t("label.totalInterest"), rs(figures.totalInterestPaise)],
        [t("label.fees"), rs(fee.totalUpfrontPaise)],
        [t("label.netDisbursed"), rs(figures.netDisbursedPaise)],
        [t("label.totalPayable"), rs(figures.totalPayablePaise)],
        [t("label.apr"), `${figures.aprPercent.toFixed(2)}%`],
        [
          t("label.dueDates"),
          figures.instalments === 1
            ? date(figures.firstDueDate)
            : t("value.dueDates", { first: date(figures.firstDueDate), last: date(figures.lastDueDate) }),
        ],
      ],
    },
  ];

  return {
    title: t("title", { revised: input.disbursedOn ? "yes" : "no", kind: kindName }),
    language,
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
export function agreementClauses(input: KfsInput, kfs: KfsModel, words: KfsWords): string[] {
  const { t, language } = words;
  const date = (d: IsoDate) => longDate(d, language);
  const f = kfs.figures;
  const repayment = {
    amount: rs(f.instalmentPaise),
    date: date(f.firstDueDate),
    assumed: date(input.assumedDisbursalDate),
    count: String(f.instalments),
  };
  return [
    t("clause.parties", {
      lender: input.lender.name,
      brand: input.brandName,
      borrower: input.borrower.name,
      reference: input.reference.toUpperCase(),
    }),
    t("clause.loan", { amount: rs(f.amountPaise), kind: input.kind }),
    t("clause.disbursal", { net: rs(f.netDisbursedPaise), account: input.disbursalAccount.accountMasked }),
    t(f.instalments === 1 ? "clause.repaymentOne" : "clause.repaymentMany", repayment),
    t("clause.charges"),
    t("clause.prepayment", { rule: words.coolingOff(input.coolingOffDays) }),
    t("clause.data"),
    t("clause.grievances"),
    t("clause.signing", { algorithm: "SHA-256" }),
  ];
}

/** A KFS may be signed until the end of the third working day after the day it is issued. */
export const KFS_VALID_WORKING_DAYS = 3;
