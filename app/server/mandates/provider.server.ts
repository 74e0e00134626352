// Autopay mandates (docs/product.md "Autopay"): one mandate-provider interface, the local stand-in
// a fresh clone uses (local.server.ts) and Razorpay recurring payments (razorpay.server.ts), chosen
// by MANDATE_PROVIDER. Like the payment
// gateway, the borrower authorises on the provider's own page and comes back to a callback whose
// signature is checked; the provider's webhooks say the same, signed.
import type { MandateKind } from "../../domain/loans/mandate.ts";

/** What the borrower is asked to authorise, as the provider is told. */
export interface MandateOrder {
  /** Our mandate's reference (`md_…`), echoed in the provider's answers. */
  reference: string;
  kind: MandateKind;
  maxAmountPaise: number;
  startDate: string;
  endDate: string;
  /** The verified account the debits come from (the number in full: the provider needs it). */
  account: { holderName: string; accountNumber: string; ifsc: string };
  customer: { name: string; mobile: string; email: string | null };
  /** One line the provider's page shows ("Autopay for loan SL12345678"). */
  description: string;
  /** Where the provider sends the borrower back (our callback route), absolute. */
  callbackUrl: string;
}

export interface MandateSession {
  /** The provider's id of the mandate (Razorpay: our reference, its registration link's receipt). */
  providerMandateId: string;
  /** Where to send the borrower to authorise it. */
  authUrl: string;
}

/**
 * What the provider says about a mandate: `active` (the bank confirmed it), `rejected` (the borrower
 * or the bank declined), `cancelled` (ended at the provider, by us, the borrower or the bank), or
 * `pending` (no final answer yet).
 */
export interface MandateEvent {
  providerMandateId: string;
  reference: string | null;
  state: "pending" | "active" | "rejected" | "cancelled";
  reason: string | null;
  /** The provider's time of the change. */
  at: Date | null;
}

/** A debit to present on a mandate: `key` (our debit's id) is the idempotency key; the same key never debits twice. */
export interface DebitOrder {
  key: string;
  /** Our debit's reference (`dd_…`), echoed in the provider's answers. */
  reference: string;
  providerMandateId: string;
  amountPaise: number;
  /** The presentation date (the India date it is debited on). */
  presentOn: string;
  description: string;
}

/**
 * What the provider says about a debit: `pending` (presented, no answer from the bank yet),
 * `captured` (the money is ours) or `failed` (the bank returned it: a bounce).
 */
export interface DebitEvent {
  providerPaymentId: string;
  reference: string | null;
  state: "pending" | "captured" | "failed";
  amountPaise: number | null;
  reason: string | null;
  at: Date | null;
}

export interface MandateProvider {
  readonly name: string;
  /** Seconds after a presentation when asking about it is first worth while; null: the provider's webhook answers (asked after 3 working days). */
  readonly debitCheckSeconds: number | null;
  /** Presents a debit, or answers with the one already presented with this key. Throws when the provider gave no usable answer. */
  present(order: DebitOrder): Promise<DebitEvent>;
  /** The debit's state now. Throws when the provider gave no usable answer. */
  fetchDebit(providerPaymentId: string): Promise<DebitEvent>;
  /** Registers the mandate and returns where the borrower authorises it. Throws when the provider gave no usable answer. */
  create(order: MandateOrder): Promise<MandateSession>;
  /** The mandate's state now. Throws when the provider gave no usable answer. */
  fetch(providerMandateId: string): Promise<MandateEvent>;
  /** Ends the mandate at the provider (nothing more is debited); its state after. Throws when the provider gave no usable answer. */
  cancel(providerMandateId: string): Promise<MandateEvent>;
  /** The event a webhook carries (about a mandate or a debit): "bad_signature" when the provider did not sign it; "ignored" for other events. */
  webhook(rawBody: string, headers: Headers): MandateEvent | { debit: DebitEvent } | "bad_signature" | "ignored";
  /** The borrower's return to the callback URL: its query, signature checked. */
  callback(query: URLSearchParams): MandateEvent | "bad_signature" | "ignored";
}
