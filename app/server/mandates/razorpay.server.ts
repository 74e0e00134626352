// Razorpay recurring payments (https://razorpay.com/docs/api/payments/recurring-payments), the
// mandate provider of MANDATE_PROVIDER=razorpay (docs/product.md "Autopay"): the borrower authorises
// UPI AutoPay or an e-mandate (e-NACH) on Razorpay's own page for a registration link, so no
// Razorpay script runs on our pages, and Razorpay's signed webhooks say what became of it. Debits
// are recurring payments on the token the authorisation made (razorpay-debits.server.ts).
//
// Our id of a mandate at Razorpay (`providerMandateId`) is our own reference (`md_…`), sent as the
// registration link's `receipt` and `notes.reference`. The token, and the customer it belongs to,
// exist only once the borrower has authorised, and Razorpay's token webhooks name neither the link
// nor the customer; from the reference the rest is found when it is needed: the link by its
// receipt, the payments on the link's order, the token they name.
//
// Fields relied on, as Razorpay's API documentation (its markdown copy in the repository
// razorpay/razorpay-php-testapp, branch markdown-docs, llm-content/api/payments/recurring-payments/
// {emandate,upi}/…, webhooks.md and llm-content/api/{orders,payments/invoices}/…) and its Node SDK
// (razorpay/razorpay-node: subscriptions.createRegistrationLink, customers.fetchToken and
// deleteToken) describe them:
// - Registration link (POST /v1/subscription_registration/auth_links, Basic auth key_id:key_secret):
//   customer {name, email, contact}, type "link", amount (0 for an e-mandate; at least 100, ₹1,
//   for UPI, which the borrower pays when authorising), currency "INR", description,
//   subscription_registration {method "emandate", max_amount, expire_at, bank_account
//   {beneficiary_name (4 to 120 characters), account_number, account_type, ifsc_code}; or method
//   "upi", max_amount, expire_at, frequency "as_presented"}, receipt, sms_notify, email_notify,
//   notes. The answer is an invoice: `id` (inv_…) and `short_url`. The documentation says a
//   callback URL is not supported for a registration link: none is sent.
// - The link again (GET /v1/invoices?receipt=…: items[] of {id, receipt, status issued | paid |
//   cancelled | expired, order_id, payment_id, created_at}); one still issued is withdrawn with
//   POST /v1/invoices/{id}/cancel.
// - The authorisation payments (GET /v1/orders/{order_id}/payments: items[] of {id, status,
//   customer_id, token_id, email, contact, created_at}).
// - The token (GET /v1/customers/{customer_id}/tokens/{token_id}): {id, method, recurring_details
//   {status initiated | confirmed | rejected | cancelled | paused, and for UPI
//   cancellation_initiated; failure_reason}}; a deleted token answers 400 "The id provided does not
//   exist". Ending it: UPI, PUT /v1/customers/{customer_id}/tokens/{token_id}/cancel (the
//   documentation warns that deleting a UPI token does not cancel the mandate at NPCI); an
//   e-mandate, DELETE /v1/customers/{customer_id}/tokens/{token_id}.
// - Webhooks (X-Razorpay-Signature = hex HMAC-SHA256 of the raw body with the webhook secret):
//   token.confirmed, token.rejected and token.cancelled carry payload.token.entity {id, notes,
//   recurring_details {failure_reason}}; invoice.paid carries payload.invoice.entity {receipt};
//   payment.authorized, payment.captured and payment.failed carry payload.payment.entity
//   {invoice_id (an authorisation's), notes}. Debits' payment events: razorpay-debits.server.ts.
// - The borrower's return, should Razorpay make one (as its invoices document it): razorpay_payment_id,
//   razorpay_invoice_id, razorpay_invoice_receipt, razorpay_invoice_status and razorpay_signature
//   = hex HMAC-SHA256 with the key secret of `${invoice_id}|${receipt}|${status}|${payment_id}`.
//
// Not confirmed by the documentation: that a token carries the registration link's notes (the
// sample token webhooks show none; the order's `token` in the invoice.paid sample does). A token
// webhook without our reference is ignored; the link's invoice.paid and its authorisation
// payment's webhooks name the reference, and the app asks Razorpay about the mandate on them.
import { istDayEnd } from "../../domain/india-date.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { hmac, safeEqual } from "../crypto.server.ts";
import type { MandateEvent, MandateOrder, MandateProvider } from "./provider.server.ts";
import {
  type Authorisation,
  authorisationOf,
  fromUnix,
  nonEmpty,
  noteOf,
  objectOf,
  razorpayClient,
  type RazorpayEntity,
  type RazorpayMandatesOptions,
  RazorpayRefusal,
} from "./razorpay-api.server.ts";
import { debitWebhook, razorpayDebits } from "./razorpay-debits.server.ts";

/** What a UPI authorisation takes from the borrower: Razorpay's minimum, ₹1. */
const UPI_AUTHORISATION_PAISE = 100;

/** The borrower's mobile as Razorpay wants it: with the country code. */
const contactOf = (mobile: string) => (mobile.startsWith("+") ? mobile : `+91${mobile}`);
/** Our mandate references (`md_…`): what tells our events from other products' on the same account. */
const isMandateReference = (value: string | null): value is string => value?.startsWith("md_") === true;

const TOKEN_EVENTS: Record<string, MandateEvent["state"]> = {
  "token.confirmed": "active",
  "token.rejected": "rejected",
  "token.cancelled": "cancelled",
};
const TOKEN_STATES: Record<string, MandateEvent["state"]> = {
  initiated: "pending",
  confirmed: "active",
  rejected: "rejected",
  cancellation_initiated: "cancelled",
  cancelled: "cancelled",
  // Paused by the borrower in their UPI app: nothing here to change (a debit on it fails and bounces).
  paused: "pending",
};
/** Tokens that can still debit, and so are ended on cancelling. */
const LIVE_TOKENS = new Set(["initiated", "confirmed", "paused"]);

export function createRazorpayMandates(options: RazorpayMandatesOptions, fetchImpl: typeof fetch = fetch): MandateProvider {
  const call = razorpayClient(options, fetchImpl);

  /** The token, or null when Razorpay no longer has it (deleted). */
  async function tokenOf({ customerId, tokenId }: Authorisation) {
    if (!customerId || !tokenId) return null;
    try {
      return await call("GET", `/customers/${encodeURIComponent(customerId)}/tokens/${encodeURIComponent(tokenId)}`);
    } catch (error) {
      if (error instanceof RazorpayRefusal && /does not exist/i.test(error.description)) return null;
      throw error;
    }
  }

  function stateOf(reference: string, found: Authorisation, token: RazorpayEntity | null): MandateEvent {
    const base: MandateEvent = { providerMandateId: reference, reference, state: "pending", reason: null, at: null };
    if (token) {
      const details = objectOf(token.recurring_details);
      const status = String(details.status);
      const state = (Object.hasOwn(TOKEN_STATES, status) && TOKEN_STATES[status]) || "pending";
      return state === "pending" ? base : { ...base, state, reason: nonEmpty(details.failure_reason) };
    }
    if (found.tokenId) return { ...base, state: "cancelled", reason: "The mandate's token no longer exists at Razorpay" };
    if (found.link.status === "expired")
      return {
        ...base,
        state: "rejected",
        reason: "The authorisation link expired before it was approved",
        at: fromUnix(found.link.expired_at),
      };
    if (found.link.status === "cancelled")
      return {
        ...base,
        state: "cancelled",
        reason: "The authorisation link was withdrawn before it was approved",
        at: fromUnix(found.link.cancelled_at),
      };
    return base;
  }

  const mandateHint = (reference: string): MandateEvent => ({
    providerMandateId: reference,
    reference,
    state: "pending",
    reason: null,
    at: null,
  });

  return {
    name: "razorpay",
    // Razorpay's webhooks answer; a debit without one is asked about after 3 working days.
    debitCheckSeconds: null,
    ...razorpayDebits(call),

    async create(order: MandateOrder) {
      const upi = order.kind === "upi_autopay";
      const expireAt = Math.floor(istDayEnd(order.endDate as IsoDate).getTime() / 1000) - 1;
      const holder = order.account.holderName.trim();
      const link = await call("POST", "/subscription_registration/auth_links", {
        customer: {
          name: order.customer.name,
          contact: contactOf(order.customer.mobile),
          ...(order.customer.email ? { email: order.customer.email } : {}),
        },
        type: "link",
        amount: upi ? UPI_AUTHORISATION_PAISE : 0,
        currency: "INR",
        description: order.description,
        subscription_registration: upi
          ? { method: "upi", max_amount: order.maxAmountPaise, expire_at: expireAt, frequency: "as_presented" }
          : {
              method: "emandate",
              max_amount: order.maxAmountPaise,
              expire_at: expireAt,
              bank_account: {
                // Razorpay takes a name of 4 to 120 characters; a shorter one is left to the bank's page.
                ...(holder.length >= 4 && holder.length <= 120 ? { beneficiary_name: holder } : {}),
                account_number: order.account.accountNumber,
                account_type: "savings",
                ifsc_code: order.account.ifsc,
              },
            },
        receipt: order.reference,
        // The borrower is on their way to the link already: Razorpay sends it to nobody.
        sms_notify: false,
        email_notify: false,
        notes: { reference: order.reference },
      });
      const authUrl = nonEmpty(link.short_url);
      if (!nonEmpty(link.id) || !authUrl)
        throw new Error("Razorpay POST /subscription_registration/auth_links answered without an id or short_url");
      return { providerMandateId: order.reference, authUrl };
    },

    async fetch(reference: string) {
      const found = await authorisationOf(call, reference);
      return stateOf(reference, found, await tokenOf(found));
    },

    async cancel(reference: string) {
      const found = await authorisationOf(call, reference);
      const token = await tokenOf(found);
      const status = String(objectOf(token?.recurring_details).status);
      let ended = false;
      if (token && found.customerId && found.tokenId && LIVE_TOKENS.has(status)) {
        const path = `/customers/${encodeURIComponent(found.customerId)}/tokens/${encodeURIComponent(found.tokenId)}`;
        if (token.method === "upi") await call("PUT", `${path}/cancel`);
        else await call("DELETE", path);
        ended = true;
      }
      // A link still open could still be authorised: withdrawn too.
      if (found.link.status === "issued") {
        await call("POST", `/invoices/${encodeURIComponent(String(found.link.id))}/cancel`);
        found.link = { ...found.link, status: "cancelled" };
        ended ||= !token;
      }
      if (ended)
        return { providerMandateId: reference, reference, state: "cancelled", reason: "Cancelled on the lender's request", at: null };
      return stateOf(reference, found, token);
    },

    webhook(rawBody: string, headers: Headers) {
      const signature = headers.get("x-razorpay-signature");
      if (!signature || !safeEqual(signature, hmac(options.webhookSecret, rawBody))) return "bad_signature";
      let event: RazorpayEntity;
      try {
        event = objectOf(JSON.parse(rawBody));
      } catch {
        return "ignored";
      }
      const payload = objectOf(event.payload);
      const name = String(event.event);
      const at = fromUnix(event.created_at);
      const state = Object.hasOwn(TOKEN_EVENTS, name) ? TOKEN_EVENTS[name] : undefined;
      if (state) {
        const token = objectOf(objectOf(payload.token).entity);
        const reference = noteOf(token, "reference");
        if (!isMandateReference(reference)) return "ignored";
        const found: MandateEvent = {
          providerMandateId: reference,
          reference,
          state,
          reason: nonEmpty(objectOf(token.recurring_details).failure_reason),
          at,
        };
        return found;
      }
      if (name === "invoice.paid") {
        const invoice = objectOf(objectOf(payload.invoice).entity);
        const reference = nonEmpty(invoice.receipt) ?? noteOf(invoice, "reference");
        // The borrower authorised: whether the bank confirmed is asked of Razorpay.
        return isMandateReference(reference) ? mandateHint(reference) : "ignored";
      }
      const payment = objectOf(objectOf(payload.payment).entity);
      if (nonEmpty(payment.invoice_id) && ["payment.authorized", "payment.captured", "payment.failed"].includes(name)) {
        const reference = noteOf(payment, "reference");
        return isMandateReference(reference) ? mandateHint(reference) : "ignored";
      }
      return debitWebhook(name, payment, at);
    },

    callback(query: URLSearchParams) {
      const paymentId = query.get("razorpay_payment_id");
      const invoiceId = query.get("razorpay_invoice_id");
      const receipt = query.get("razorpay_invoice_receipt");
      const status = query.get("razorpay_invoice_status");
      const signature = query.get("razorpay_signature");
      if (!paymentId || !invoiceId || !receipt || !status || !signature) return "ignored";
      if (!safeEqual(signature, hmac(options.keySecret, `${invoiceId}|${receipt}|${status}|${paymentId}`))) return "bad_signature";
      // Only a hint: the app asks Razorpay about the mandate before anything is applied.
      return isMandateReference(receipt) ? mandateHint(receipt) : "ignored";
    },
  };
}
