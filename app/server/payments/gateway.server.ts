// Repayments (docs/product.md "Loan servicing"): one payment-gateway interface, the local checkout
// stand-in a fresh clone uses (local.server.ts), and Razorpay Payment Links (razorpay.server.ts),
// chosen by PAYMENT_PROVIDER. No third-party script runs on the app's pages: the borrower is sent to
// the gateway's own hosted page and comes back to a callback whose signature is checked.
import type { StatementFile } from "../../domain/books/statements.ts";

/** What the borrower is asked to pay, as the gateway is told. */
export interface PaymentOrder {
  /** Our payment's own reference (`pm_…`): sent as the gateway's reference id and in its notes. */
  reference: string;
  amountPaise: number;
  /** One line the gateway's page shows ("Loan SL12345678: instalment due"). */
  description: string;
  customer: { name: string; mobile: string; email: string | null };
  /** Where the gateway sends the borrower back (our callback route), absolute. */
  callbackUrl: string;
  /** The gateway stops taking payment for this order after this time. */
  expiresAt: Date;
}

export interface CheckoutSession {
  /** The gateway's id of the order (Razorpay: the payment link's `plink_…`). */
  providerOrderId: string;
  /** Where to send the borrower to pay. */
  checkoutUrl: string;
}

/**
 * What the gateway says about a payment of one of our orders. `captured`: the money is ours (only
 * then is it applied); `failed`: this try failed (the borrower may try again on the same order);
 * `cancelled`: the borrower stopped or the order expired; `pending`: no final answer yet.
 */
export interface PaymentEvent {
  providerOrderId: string | null;
  /** Our reference, when the gateway echoes it. */
  reference: string | null;
  /** The gateway's id of this payment (Razorpay: `pay_…`): a payment is applied once by it. */
  providerPaymentId: string | null;
  state: "captured" | "failed" | "cancelled" | "pending";
  /** What was actually paid, in paise. */
  amountPaise: number | null;
  /** The gateway's time of the capture (its India date is the business date). */
  at: Date | null;
  failureReason: string | null;
  /** How the borrower paid, when the gateway says (the statement names it in words). */
  method?: PaymentMethod | null;
}

/**
 * The way a payment was made: `detail` is the bank's reference of a UPI or net-banking payment, a
 * card's last four digits, or a wallet's name; never a gateway's internal id.
 */
export interface PaymentMethod {
  kind: "upi" | "card" | "netbanking" | "wallet" | "other";
  detail: string | null;
}

export interface PaymentGateway {
  readonly name: string;
  /** Creates the order at the gateway. Throws when the gateway gave no usable answer. */
  createCheckout(order: PaymentOrder): Promise<CheckoutSession>;
  /** The order's state now (a return without a final answer is asked again). Throws when the gateway gave no usable answer. */
  fetch(providerOrderId: string): Promise<PaymentEvent>;
  /** The payment event a webhook carries: "bad_signature" when the gateway did not sign it; "ignored" for other events. */
  webhook(rawBody: string, headers: Headers): PaymentEvent | "bad_signature" | "ignored";
  /** The borrower's return to the callback URL: its query, signature checked. */
  callback(query: URLSearchParams): PaymentEvent | "bad_signature" | "ignored";
  /**
   * The gateway's settlement reports up to today, one per settlement day, in Razorpay's settlement
   * recon columns (docs/decisions/0005-reconciliation-formats.md), where this implementation makes
   * them itself: the local stand-in. Razorpay's are downloaded from its dashboard and uploaded.
   */
  settlementReports?(): Promise<StatementFile[]>;
}
