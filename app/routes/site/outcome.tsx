import { Link } from "react-router";
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
import { pageMessages, translatorFor } from "../../web/i18n.server.ts";
import { knownOutcome, PaymentOutcome } from "./payment-outcome.tsx";

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
    const outcome = knownOutcome(p.status);
    const t = translatorFor(context, "loanPayment");
    return {
      state: state as State,
      application: null,
      messages: pageMessages(context, ["loanPayment"]),
      payment: {
        title: outcome ? t(`outcome.${outcome}.title`) : t("title"),
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
        ? loaderData.payment.title
        : loaderData.application
          ? STATUS_HEADLINE[loaderData.application.status]
          : "Application"
      : "Page not found",
  );
