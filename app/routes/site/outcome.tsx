import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { Link } from "../../lib/link.tsx";
import { StatusNote } from "../../components/loan-flow.tsx";
import { servicesContext } from "../../context.ts";
import { parseReference, shortReference, stepPath } from "../../domain/loans/application.ts";
import { pageMeta } from "../../lib/meta.ts";
import { spanWith } from "../../lib/rich-text.tsx";
import { pageMessages, translatorFor } from "../../web/i18n.server.ts";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../i18n/use-translations.ts";
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
      messages: pageMessages(context, ["outcome"]),
      meta: { title: translatorFor(context, "outcome")(`payment.${PAYMENT_TEXT[p.status]}.title`) },
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
  return {
    state: state as State,
    // StatusNote's words: the status (loans) and what happens next (applyFlow).
    messages: pageMessages(context, ["outcome", "applyFlow", "loans"]),
    meta: { title: translatorFor(context, "outcome")(`application.status.${application.status}`) },
    application,
    payment: null,
  };
}

type PaymentOutcomeData = NonNullable<Route.ComponentProps["loaderData"]["payment"]>;

/** The words of each payment status (outcome.payment.*): one text while the bank has not answered. */
const PAYMENT_TEXT = {
  captured: "captured",
  held: "held",
  failed: "failed",
  cancelled: "cancelled",
  pending: "waiting",
  created: "waiting",
  reversed: "reversed",
} as const;

const mono = spanWith("font-mono");
const referenceTag = spanWith("font-mono text-base text-slate-600");

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
  const t = useTranslations("outcome.payment");
  const language = useLocale();
  const text = PAYMENT_TEXT[p.status];
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-12">
      <h1 className="text-2xl sm:text-3xl">{t(`${text}.title`)}</h1>
      <section className="card space-y-3" aria-labelledby="payment-title" aria-live="polite">
        <h2 id="payment-title" className="text-xl">
          {t.rich("heading", { amount: formatRupees(p.amountPaise), loanNumber: p.loanNumber, mono })}
        </h2>
        <p>{t(`${text}.lead`)}</p>
        {p.businessDate && p.status === "captured" ? <p>{t("countedPaid", { date: longDate(p.businessDate, language) })}</p> : null}
        {p.failureReason && p.status !== "captured" ? <p className="text-slate-700">{p.failureReason}</p> : null}
        <p className="text-sm text-slate-600">{t.rich("reference", { reference: p.reference, mono })}</p>
      </section>
      <p className="flex flex-wrap gap-3">
        <Link className="btn-primary" to={p.loanHref}>
          {t("backToLoan")}
        </Link>
        {waiting ? (
          <Link className="btn-secondary" to={`/pending/${p.reference}`} reloadDocument>
            {t("checkAgain")}
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
  return <ApplicationOutcome a={a} />;
}

type ApplicationOutcomeData = NonNullable<Route.ComponentProps["loaderData"]["application"]>;

/** An application's outcome (the end of signing): its status, and where to go on. */
function ApplicationOutcome({ a }: { a: ApplicationOutcomeData }) {
  const t = useTranslations("outcome.application");
  const kind = a.product;
  const heading = { kind, reference: shortReference(a.reference), ref: referenceTag };
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-12">
      <h1 className="text-2xl sm:text-3xl">{t(`status.${a.status}`)}</h1>
      <section className="card space-y-3" aria-labelledby="application-title">
        <h2 id="application-title" className="text-xl">
          {a.amountPaise ? t.rich("heading", { ...heading, amount: formatRupees(a.amountPaise) }) : t.rich("headingNoAmount", heading)}
        </h2>
        {a.status === "signed" ? <p>{t("submitted")}</p> : null}
        <StatusNote status={a.status} reason={a.statusReason} />
      </section>
      <p className="flex flex-wrap gap-3">
        <Link className="btn-primary" to={stepPath(kind, a.reference, "Step7")}>
          {a.status === "draft" ? t("continue") : t("see")}
        </Link>
        {a.agreementRef ? (
          <Link className="btn-secondary" to={`/Eagreement/${a.agreementRef}`}>
            {t("agreement")}
          </Link>
        ) : null}
        <Link className="btn-secondary" to="/User/Dashboard">
          {t("dashboard")}
        </Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
