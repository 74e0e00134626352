/**
 * Pay now (docs/product.md "Loan servicing"): what the borrower may choose to pay and the form's
 * schema (one schema for the browser and the server). The amounts come from the server's replay of
 * the ledger; this only decides which of them a choice means. Pure: no I/O, no clock.
 */
import { z } from "zod";
import { parseRupeesToPaise } from "../money.ts";
import { formatRupees } from "../money.ts";
import { msg } from "../../i18n/form-message.ts";

/** `pm_` and 24 characters: a payment's own reference, the one the borrower comes back with. */
export const PAYMENT_REFERENCE = /^pm_[a-z2-7]{24}$/;

export const PAY_CHOICES = ["due", "overdue", "payoff", "amount", "cooling_off"] as const;
export type PayChoice = (typeof PAY_CHOICES)[number];

/** The smallest payment the gateway is asked to take. */
export const MIN_PAYMENT_PAISE = 100_00;

export const payNowSchema = z.object({
  intent: z.literal("pay"),
  choice: z.enum(PAY_CHOICES, { error: msg("loanPay.errors.choose") }),
  /** Rupees, for "another amount". */
  amount: z.string().trim().optional(),
  prepay: z
    .literal("on")
    .optional()
    .transform((v) => v === "on"),
});
export type PayNow = z.infer<typeof payNowSchema>;

/** What the loan's figures offer today. */
export interface Payable {
  overduePaise: number;
  penalDuePaise: number;
  nextDuePaise: number | null;
  payoffPaise: number;
  coolingOffPaise: number | null;
  /** One EMI: a prepayment of principal must be at least this (EMI loans only; null otherwise). */
  emiPaise: number | null;
}

/** Each choice's amount today (null when it does not apply), each at most the payoff amount. */
export function payOptions(p: Payable): Record<PayChoice, number | null> {
  const cap = (n: number) => Math.min(n, p.payoffPaise);
  const late = p.overduePaise + p.penalDuePaise;
  const due = late + (p.nextDuePaise ?? 0);
  return {
    due: due > 0 ? cap(due) : null,
    overdue: late > 0 ? cap(late) : null,
    payoff: p.payoffPaise > 0 ? p.payoffPaise : null,
    amount: p.payoffPaise >= MIN_PAYMENT_PAISE ? 0 : null,
    cooling_off: p.coolingOffPaise,
  };
}

/** The amount to charge for a valid choice, or the field and message (a key, said in the page's language) to show next to it. */
export function amountFor(
  form: PayNow,
  p: Payable,
): { ok: true; amountPaise: number; prepay: boolean } | { ok: false; field: "choice" | "amount" | "prepay"; message: string } {
  const options = payOptions(p);
  if (form.choice !== "amount") {
    const amount = options[form.choice];
    if (!amount) return { ok: false, field: "choice", message: msg("loanPay.errors.notPayable") };
    return { ok: true, amountPaise: amount, prepay: false };
  }
  const paise = form.amount ? parseRupeesToPaise(form.amount) : null;
  if (paise === null) return { ok: false, field: "amount", message: msg("loanPay.errors.amountFormat") };
  if (paise < MIN_PAYMENT_PAISE || paise > p.payoffPaise)
    return {
      ok: false,
      field: "amount",
      message: msg("loanPay.errors.amountRange", { min: formatRupees(MIN_PAYMENT_PAISE), max: formatRupees(p.payoffPaise) }),
    };
  if (form.prepay) {
    if (p.emiPaise === null) return { ok: false, field: "prepay", message: msg("loanPay.errors.prepayEmiOnly") };
    // What is left after the dues and the next instalment (which the advance pays first) goes to principal.
    const beyond = paise - (p.overduePaise + p.penalDuePaise + (p.nextDuePaise ?? 0));
    if (beyond < p.emiPaise)
      return {
        ok: false,
        field: "prepay",
        message: msg("loanPay.errors.prepayAtLeast", { emi: formatRupees(p.emiPaise) }),
      };
  }
  return { ok: true, amountPaise: paise, prepay: form.prepay };
}
