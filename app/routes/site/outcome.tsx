import { useEffect } from "react";
import { Link, useRevalidator } from "react-router";
import { StatusNote } from "../../components/loan-flow.tsx";
import { servicesContext } from "../../context.ts";
import { parseReference, shortReference, stepPath } from "../../domain/loans/application.ts";
import { STATUS_HEADLINE } from "../../domain/loans/lifecycle.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatRupees } from "../../domain/money.ts";
import { signedInOn } from "../../server/auth/session.server.ts";
import type { Route } from "./+types/outcome";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import { applicationForOutcome } from "../../server/loans/read.server.ts";
import { ownPayment } from "../../server/payments/read.server.ts";
import { PAYMENT_REFERENCE } from "../../domain/loans/pay-now.ts";
import { loanPath } from "../../domain/loans/servicing.ts";
import { longDate } from "../../domain/india-date.ts";

/** The states an outside flow may come back with. The page says what the server holds, not which of these the address names. */
const STATES = { success: true, failure: true, pending: true, cancelled: true } as const;
type State = keyof typeof STATES;

/**
 * /{state}/{id} (docs/product.md "The public site"): where outside flows come back to, and where
 * signing ends. Only the four states and the viewer's own application
 * reference; every other two-segment path is "Page Not Found: {fullPath}".
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const state = params.state.toLowerCase();
  if (!Object.hasOwn(STATES, state)) notFoundFullPath(request);
  const services = context.get(servicesContext);
  if (PAYMENT_REFERENCE.test(params.id)) {
    // A payment's return: what the server knows now, whatever the address says.
    const signedIn = await signedInOn(services, request);
    const found = signedIn ? await ownPayment(services, { userId: signedIn.user.id, reference: params.id }) : null;
    if (!found || !found.loanNumber) notFoundFullPath(request);
    const p = found.payment;
    return {
      state: state as State,
      application: null,
      payment: {
        reference: p.reference,
        status: p.status,
        amountPaise: p.amountPaise,
        businessDate: p.businessDate,
        failureReason: p.failureReason,
        loanHref: loanPath(found.kind, found.loanNumber),
        loanNumber: found.loanNumber,
      },
    };
  }
  const reference = parseReference(params.id);
  if (!reference) notFoundFullPath(request);
  const signedIn = await signedInOn(services, request);
  const application = signedIn ? await applicationForOutcome(services, { userId: signedIn.user.id, reference }) : null;
  if (!application) notFoundFullPath(request);
  return { state: state as State, application, payment: null };
}

type PaymentOutcomeData = NonNullable<Route.ComponentProps["loaderData"]["payment"]>;

const PAYMENT_OUTCOME: Record<string, { title: string; lead: string }> = {
  captured: { title: "Payment received", lead: "Thank you. Your payment is applied to your loan." },
  held: {
    title: "Payment received, being checked",
    lead: "The amount the bank reported differs from your order, so our team is checking it before it is applied. We will tell you by SMS.",
  },
  failed: { title: "Payment failed", lead: "Nothing was taken. You can try again from your loan." },
  cancelled: { title: "Payment stopped", lead: "You stopped before paying. Nothing was taken." },
  pending: { title: "Waiting for the bank", lead: "Your bank has not confirmed the payment yet. This page checks again by itself." },
  created: { title: "Waiting for the bank", lead: "Your bank has not confirmed the payment yet. This page checks again by itself." },
  reversed: { title: "Payment reversed", lead: "This payment was reversed. Please see your loan for what is due." },
};

/** A payment's outcome: the server's status; while the bank has not answered, it asks again every few seconds. */
function PaymentOutcome({ p }: { p: PaymentOutcomeData }) {
  const waiting = p.status === "created" || p.status === "pending";
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 3000);
    return () => window.clearInterval(timer);
  }, [waiting, revalidator]);
  const text = PAYMENT_OUTCOME[p.status] ?? { title: "Payment", lead: "" };
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-12">
      <h1 className="text-2xl sm:text-3xl">{text.title}</h1>
      <section className="card space-y-3" aria-labelledby="payment-title" aria-live="polite">
        <h2 id="payment-title" className="text-xl">
          {formatRupees(p.amountPaise)} for loan <span className="font-mono">{p.loanNumber}</span>
        </h2>
        <p>{text.lead}</p>
        {p.businessDate && p.status === "captured" ? <p>Counted as paid on {longDate(p.businessDate)}.</p> : null}
        {p.failureReason && p.status !== "captured" ? <p className="text-slate-700">{p.failureReason}</p> : null}
        <p className="text-sm text-slate-600">
          Payment reference <span className="font-mono">{p.reference}</span>
        </p>
      </section>
      <p className="flex flex-wrap gap-3">
        <Link className="btn-primary" to={p.loanHref}>
          Back to your loan
        </Link>
        {waiting ? (
          <Link className="btn-secondary" to={`/pending/${p.reference}`} reloadDocument>
            Check again
          </Link>
        ) : null}
      </p>
    </div>
  );
}

export default function Outcome({ loaderData }: Route.ComponentProps) {
  if (loaderData.payment) return <PaymentOutcome p={loaderData.payment} />;
  const { application: a } = loaderData;
  if (!a) return null;
  const kind = a.product;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-12">
      <h1 className="text-2xl sm:text-3xl">{STATUS_HEADLINE[a.status]}</h1>
      <section className="card space-y-3" aria-labelledby="application-title">
        <h2 id="application-title" className="text-xl">
          {a.kindName} {a.amountPaise ? `of ${formatRupees(a.amountPaise)}` : ""}{" "}
          <span className="font-mono text-base text-slate-600">application {shortReference(a.reference)}</span>
        </h2>
        {a.status === "signed" ? (
          <p>Your application is submitted. We sent the link to your signed agreement to your mobile by SMS.</p>
        ) : null}
        <StatusNote status={a.status} reason={a.statusReason} />
      </section>
      <p className="flex flex-wrap gap-3">
        <Link className="btn-primary" to={stepPath(kind, a.reference, "Step7")}>
          {a.status === "draft" ? "Continue your application" : "See your application"}
        </Link>
        {a.agreementRef ? (
          <Link className="btn-secondary" to={`/Eagreement/${a.agreementRef}`}>
            Your signed agreement
          </Link>
        ) : null}
        <Link className="btn-secondary" to="/User/Dashboard">
          Dashboard
        </Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(
    matches,
    loaderData
      ? loaderData.payment
        ? (PAYMENT_OUTCOME[loaderData.payment.status]?.title ?? "Payment")
        : loaderData.application
          ? STATUS_HEADLINE[loaderData.application.status]
          : "Application"
      : "Page not found",
  );
