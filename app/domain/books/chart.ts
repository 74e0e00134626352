/**
 * The lender's books (docs/product.md "The lender's books"): the accounts every journal line posts
 * to, the rules finance sets (framework, chart of accounts, provisioning rates) and their shared
 * schemas. The code posts to an account by its purpose; the chart in force gives each purpose its
 * code and name, so finance can renumber or rename without the books splitting.
 */
import { z } from "zod";

export const ACCOUNT_PURPOSES = [
  "loans_receivable",
  "interest_receivable",
  "penal_receivable",
  "loan_loss_provision",
  "bank",
  "gateway_clearing",
  "payout_account",
  "input_gst",
  "refunds_payable",
  "unapplied_receipts",
  "cgst_payable",
  "sgst_payable",
  "igst_payable",
  "interest_suspense",
  "deferred_fee_income",
  "books_suspense",
  "interest_income",
  "processing_fee_income",
  "penal_income",
  "recoveries",
  "provision_expense",
  "write_off_expense",
  "gateway_fees",
] as const;
export type AccountPurpose = (typeof ACCOUNT_PURPOSES)[number];

export type AccountType = "asset" | "liability" | "income" | "expense";

export interface ChartAccount {
  purpose: AccountPurpose;
  code: string;
  name: string;
}

/** Each purpose's type and normal balance (fixed: what the purpose means does not change with the chart). */
export const ACCOUNT_TYPE: Record<AccountPurpose, { type: AccountType; normal: "debit" | "credit" }> = {
  loans_receivable: { type: "asset", normal: "debit" },
  interest_receivable: { type: "asset", normal: "debit" },
  penal_receivable: { type: "asset", normal: "debit" },
  // A contra-asset: it reduces the loans on the balance sheet.
  loan_loss_provision: { type: "asset", normal: "credit" },
  bank: { type: "asset", normal: "debit" },
  gateway_clearing: { type: "asset", normal: "debit" },
  payout_account: { type: "asset", normal: "debit" },
  input_gst: { type: "asset", normal: "debit" },
  refunds_payable: { type: "liability", normal: "credit" },
  unapplied_receipts: { type: "liability", normal: "credit" },
  cgst_payable: { type: "liability", normal: "credit" },
  sgst_payable: { type: "liability", normal: "credit" },
  igst_payable: { type: "liability", normal: "credit" },
  interest_suspense: { type: "liability", normal: "credit" },
  deferred_fee_income: { type: "liability", normal: "credit" },
  books_suspense: { type: "liability", normal: "credit" },
  interest_income: { type: "income", normal: "credit" },
  processing_fee_income: { type: "income", normal: "credit" },
  penal_income: { type: "income", normal: "credit" },
  recoveries: { type: "income", normal: "credit" },
  provision_expense: { type: "expense", normal: "debit" },
  write_off_expense: { type: "expense", normal: "debit" },
  gateway_fees: { type: "expense", normal: "debit" },
};

/** The installation's first chart of accounts (version 1 in the database). */
export const DEFAULT_CHART: readonly ChartAccount[] = [
  { purpose: "loans_receivable", code: "1101", name: "Loans receivable (principal)" },
  { purpose: "interest_receivable", code: "1102", name: "Interest receivable (billed, and accrued not yet billed)" },
  { purpose: "penal_receivable", code: "1103", name: "Penal charges receivable" },
  { purpose: "loan_loss_provision", code: "1109", name: "Provision for loan losses" },
  { purpose: "bank", code: "1201", name: "Bank: collection account" },
  { purpose: "gateway_clearing", code: "1202", name: "Payment gateway clearing" },
  { purpose: "payout_account", code: "1203", name: "Payout account" },
  { purpose: "input_gst", code: "1301", name: "Input GST on gateway fees" },
  { purpose: "refunds_payable", code: "2101", name: "Borrower refunds payable" },
  { purpose: "unapplied_receipts", code: "2102", name: "Unapplied receipts (advances held)" },
  { purpose: "cgst_payable", code: "2201", name: "CGST payable" },
  { purpose: "sgst_payable", code: "2202", name: "SGST payable" },
  { purpose: "igst_payable", code: "2203", name: "IGST payable" },
  { purpose: "interest_suspense", code: "2301", name: "Interest in suspense (NPA)" },
  { purpose: "deferred_fee_income", code: "2302", name: "Deferred processing-fee income" },
  { purpose: "books_suspense", code: "2901", name: "Suspense: differences to investigate" },
  { purpose: "interest_income", code: "4101", name: "Interest income" },
  { purpose: "processing_fee_income", code: "4102", name: "Processing-fee income" },
  { purpose: "penal_income", code: "4103", name: "Penal-charge income" },
  { purpose: "recoveries", code: "4104", name: "Recoveries of loans written off" },
  { purpose: "provision_expense", code: "5101", name: "Provision expense" },
  { purpose: "write_off_expense", code: "5102", name: "Write-off expense" },
  { purpose: "gateway_fees", code: "5103", name: "Payment gateway fees" },
];

export const FRAMEWORKS = ["indian_gaap", "ind_as"] as const;
export type Framework = (typeof FRAMEWORKS)[number];
export const FRAMEWORK_LABEL: Record<Framework, string> = {
  indian_gaap: "Indian GAAP (fees at disbursal; provisions by RBI's asset classes)",
  ind_as: "Ind AS 109 (fees amortised by the effective interest rate; expected credit loss beside the RBI floor)",
};

/** RBI's asset classes for an unsecured loan (docs/product.md "The lender's books"). */
export const ASSET_CLASSES = ["standard", "sub_standard", "doubtful", "loss"] as const;
export type AssetClass = (typeof ASSET_CLASSES)[number];
export const ASSET_CLASS_LABEL: Record<AssetClass, string> = {
  standard: "Standard",
  sub_standard: "Sub-standard",
  doubtful: "Doubtful",
  loss: "Loss",
};

/** Expected-credit-loss stages (Ind AS 109): 1 performing, 2 significant increase in credit risk (over 30 days past due), 3 credit-impaired (NPA). */
export const ECL_STAGES = ["stage1", "stage2", "stage3"] as const;
export type EclStage = (typeof ECL_STAGES)[number];

const code = z
  .string()
  .trim()
  .regex(/^[0-9A-Za-z.-]{1,12}$/, "Use up to 12 letters, digits, dots or dashes");
const name = z.string().trim().min(3, "Give the account a name").max(80, "Keep the name under 80 characters");
const bps = z.coerce
  .number({ message: "Enter a rate in basis points" })
  .int("Enter whole basis points")
  .min(0, "A rate cannot be negative")
  .max(10_000, "A rate is at most 10,000 basis points (100%)");

/** The framework and the lender's GST state (place of supply is the borrower's state against it). */
export const frameworkSchema = z.object({
  framework: z.enum(FRAMEWORKS, { message: "Choose a framework" }),
  lenderState: z.string().trim().min(2, "Enter the state of the lender's GST registration").max(60),
});
export type FrameworkRule = z.infer<typeof frameworkSchema>;

export const chartSchema = z.array(z.object({ purpose: z.enum(ACCOUNT_PURPOSES), code, name })).superRefine((accounts, ctx) => {
  const seen = new Map<string, number>();
  accounts.forEach((a, i) => {
    const at = seen.get(a.code);
    if (at !== undefined) ctx.addIssue({ code: "custom", path: [i, "code"], message: `The code ${a.code} is used twice` });
    seen.set(a.code, i);
  });
  for (const p of ACCOUNT_PURPOSES)
    if (!accounts.some((a) => a.purpose === p)) ctx.addIssue({ code: "custom", path: [], message: `The chart has no account for ${p}` });
});

/** Provision rates on the loan's book value, in basis points; the ECL rates are used under Ind AS beside the RBI floor. */
export const provisioningSchema = z.object({
  standardBps: bps,
  subStandardBps: bps,
  doubtfulBps: bps,
  lossBps: bps,
  eclStage1Bps: bps,
  eclStage2Bps: bps,
  eclStage3Bps: bps,
});
export type ProvisioningRule = z.infer<typeof provisioningSchema>;

/** docs/product.md's defaults for unsecured loans (a lender may choose higher); the ECL rates are the installation's first estimate. */
export const DEFAULT_PROVISIONING: ProvisioningRule = {
  standardBps: 40,
  subStandardBps: 1000,
  doubtfulBps: 10_000,
  lossBps: 10_000,
  eclStage1Bps: 100,
  eclStage2Bps: 1500,
  eclStage3Bps: 6500,
};

export const DEFAULT_FRAMEWORK: FrameworkRule = { framework: "indian_gaap", lenderState: "Karnataka" };

export type BooksRuleKind = "framework" | "chart" | "provisioning";
