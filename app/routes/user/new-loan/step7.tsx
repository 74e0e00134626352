import { Link } from "../../../lib/link.tsx";
import { ReuploadNote } from "../../../components/reupload-note.tsx";
import { DisbursalNote, FactRows, LoanFlow, StatusNote } from "../../../components/loan-flow.tsx";

import { formatDateIST, formatTimeIST, todayIST } from "../../../domain/india-date.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatRupees } from "../../../domain/money.ts";
import type { Route } from "./+types/step7";
import { readForm } from "../../../web/forms.server.ts";
import { cancelFromStep, loadStep, stepPage } from "../../../web/new-loan-step.server.ts";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../i18n/use-translations.ts";
import type { Language } from "../../../i18n/languages.ts";
import { useMessageText } from "../../../lib/use-message-text.ts";
import { languageOf } from "../../../web/i18n.server.ts";
import { agreementRefOf } from "../../../server/loans/read.server.ts";
import { borrowerDisbursals } from "../../../server/payouts/read.server.ts";
import { openRequestsFor } from "../../../server/review/read.server.ts";
import { applicationTimeline, type Timeline } from "../../../domain/loans/timeline.ts";
import { data, redirect } from "react-router";
import { startMandate } from "../../../server/mandates/start.server.ts";
import { mandatesOf } from "../../../server/mandates/rows.server.ts";
import { loadProducts } from "../../../server/products.server.ts";
import { siteOrigin } from "../../../../server/config.ts";
import { ApplicationAutopay, autopayRefusal } from "./step7-autopay.tsx";

export async function loader(args: Route.LoaderArgs) {
  const loaded = await loadStep(args, "Step7");
  const { services, kind, reference, application, document: doc } = loaded;
  const beforeDisbursal = AUTOPAY_STATUSES.has(application.status) && services.mandates !== null;
  const [agreementRef, disbursals, requests, mandates, products] = await Promise.all([
    agreementRefOf(services, application.id),
    borrowerDisbursals(services, loaded.user.id),
    openRequestsFor(services, loaded.user.id),
    beforeDisbursal ? mandatesOf(services, { applicationId: application.id, userId: loaded.user.id }) : [],
    loadProducts(services),
  ]);
  const product = kind === "emi" ? products.emi : products.salaryAdvance;
  const disbursal = disbursals.find((d) => d.reference === reference) ?? null;
  const request = requests.find((r) => r.reference === reference) ?? null;
  const on = (at: Date | null) => (at ? todayIST(at) : null);
  return {
    ...stepPage(args.context, "Step7", ["profile", "loans", "loanAutopay", "outcome"]),
    disbursal,
    request: request
      ? {
          message: request.message,
          document: request.documentKind ?? null,
          askedAt: request.askedAt.toISOString(),
        }
      : null,
    timeline: applicationTimeline({
      status: application.status,
      signedOn: on(application.signedAt),
      decidedOn: on(application.decidedAt),
      disbursedOn: application.disbursalDate ?? on(application.disbursedAt),
      waitingForYou: Boolean(request),
      payoutInFlight: disbursal?.inFlight ?? false,
      autopayFirst:
        beforeDisbursal &&
        application.status === "approved" &&
        product.autopayBeforeDisbursal &&
        !mandates.some((m) => m.status === "active"),
      holidays: services.config.holidays,
      language: languageOf(args.context),
    }),
    kind,
    reference,
    status: application.status,
    done: loaded.done,
    statusReason: application.statusReason,
    signedAt: application.signedAt?.toISOString() ?? null,
    agreementRef,
    figures: doc?.kfs.figures ?? null,
    account: application.disbursalAccount,
    autopay: beforeDisbursal ? { mandates, required: product.autopayBeforeDisbursal } : null,
  };
}

/** Autopay is set up on the application from its signature until the money is paid out (then on the loan's page). */
const AUTOPAY_STATUSES = new Set(["signed", "under_review", "approved"]);

export async function action(args: Route.ActionArgs) {
  const loaded = await loadStep(args, "Step7");
  const formData = await readForm(args.request);
  const intent = formData.get("intent");
  if (intent === "cancel") return cancelFromStep(loaded, args.request);
  if (intent === "autopay_start") {
    const { services, user, reference } = loaded;
    const started = await startMandate(services, {
      userId: user.id,
      loan: { reference },
      client: loaded.request,
      origin: siteOrigin(services.config, args.request),
    });
    if (!started.ok) return data({ autopay: autopayRefusal(started.reason) }, { status: 400 });
    return redirect(started.authUrl);
  }
  return new Response(null, { status: 405 });
}

/** The application's steps, who acts next and by when; read again live when staff act (DeviceWatch). */
function TimelineView({ timeline }: { timeline: Timeline }) {
  const t = useTranslations("applyFlow.timeline");
  const say = useMessageText();
  return (
    <div className="space-y-2">
      <ol className="space-y-1" aria-label={t("label")} data-testid="timeline">
        {timeline.steps.map((s) => (
          <li key={s.key} className="flex items-start gap-2" data-state={s.state}>
            <span
              className={
                s.state === "done"
                  ? "mt-0.5 shrink-0 rounded-full bg-brand-50 px-2 text-xs font-semibold text-brand-800"
                  : s.state === "waiting_for_you"
                    ? "mt-0.5 shrink-0 rounded-full bg-amber-100 px-2 text-xs font-semibold text-amber-900"
                    : s.state === "now"
                      ? "mt-0.5 shrink-0 rounded-full bg-slate-800 px-2 text-xs font-semibold text-white"
                      : "mt-0.5 shrink-0 rounded-full bg-slate-100 px-2 text-xs font-semibold text-slate-700"
              }
            >
              {t(`mark.${s.state}`)}
            </span>
            <span>{say(s.label)}</span>
          </li>
        ))}
      </ol>
      {timeline.next ? (
        <p className="font-medium" data-testid="next-step">
          {say(timeline.next)}
        </p>
      ) : null}
    </div>
  );
}

/** The officer's open request, what to upload and where, and where to answer. */
function RequestNote({ request: r }: { request: { message: string; document: string | null; askedAt: string } }) {
  const t = useTranslations("applySteps.submitted");
  const language = useLocale() as Language;
  return (
    <section className="card space-y-3 border-amber-300 bg-amber-50" aria-labelledby="asked-title" data-testid="asked-for-more">
      <h2 id="asked-title" className="text-xl">
        {t("askedOn", { date: formatDateIST(new Date(r.askedAt), language) })}
      </h2>
      <blockquote className="border-l-4 border-amber-400 pl-3 whitespace-pre-line">{r.message}</blockquote>
      {r.document ? <ReuploadNote document={r.document} answer="dashboard" /> : null}
      <p>
        <Link className="btn-primary" to="/User/Dashboard#waiting-title">
          {t("answer")}
        </Link>
      </p>
    </section>
  );
}

export default function Step7({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, reference, figures: f } = loaderData;
  const signedAt = loaderData.signedAt ? new Date(loaderData.signedAt) : null;
  const t = useTranslations("applySteps.submitted");
  const outcome = useTranslations("outcome.application.status");
  const language = useLocale() as Language;
  return (
    <LoanFlow
      kind={kind}
      reference={reference}
      step="Step7"
      status={loaderData.status}
      done={loaderData.done}
      payoutInFlight={loaderData.disbursal?.inFlight ?? false}
      title={outcome(loaderData.status)}
    >
      <section className="card space-y-3" aria-labelledby="status-title">
        <h2 id="status-title" className="text-xl">
          {t("whereItStands")}
        </h2>
        <StatusNote status={loaderData.status} reason={loaderData.statusReason} />
        <TimelineView timeline={loaderData.timeline} />
        {loaderData.disbursal ? <DisbursalNote d={loaderData.disbursal} /> : null}
        {signedAt ? (
          <p className="text-slate-700">{t("signedAt", { date: formatDateIST(signedAt, language), time: formatTimeIST(signedAt) })}</p>
        ) : null}
        {f ? (
          <FactRows
            rows={[
              [t("amount"), formatRupees(f.amountPaise)],
              [f.instalments === 1 ? t("repay") : t("monthly"), formatRupees(f.instalmentPaise)],
              [t("apr"), `${f.aprPercent.toFixed(2)}%`],
              [t("paidInto"), loaderData.account ? `${loaderData.account.accountMasked}, ${loaderData.account.bankName}` : "—"],
            ]}
          />
        ) : null}
      </section>
      {loaderData.request ? <RequestNote request={loaderData.request} /> : null}
      {loaderData.autopay ? (
        <ApplicationAutopay
          mandates={loaderData.autopay.mandates}
          required={loaderData.autopay.required}
          problem={actionData && "autopay" in actionData ? actionData.autopay : null}
        />
      ) : null}
      {loaderData.status === "signed" || loaderData.status === "under_review" || loaderData.status === "approved" ? (
        <section className="card space-y-2" aria-labelledby="next-title">
          <h2 id="next-title" className="text-xl">
            {t("next")}
          </h2>
          <ol className="list-decimal space-y-1 pl-5">
            <li>{t("checks")}</li>
            <li>{t("sms")}</li>
            <li>{t("money")}</li>
          </ol>
        </section>
      ) : null}
      <p className="flex flex-wrap gap-3">
        {loaderData.agreementRef ? (
          <Link className="btn-secondary" to={`/Eagreement/${loaderData.agreementRef}`}>
            {t("agreement")}
          </Link>
        ) : null}
        <Link className="btn-primary" to="/User/Dashboard">
          {t("dashboard")}
        </Link>
      </p>
    </LoanFlow>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
