import { Form } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { shortReference } from "../../../domain/loans/application.ts";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { useMessageText } from "../../../lib/use-message-text.ts";
import { strong } from "../../../lib/rich-text.tsx";
import { formatRupees } from "../../../domain/money.ts";
import { DisbursalNote } from "../../../components/loan-flow.tsx";
import type { Data } from "../dashboard.tsx";

// The dashboard's applications: each with its status and next step, then apply for a new loan or why not now.

export function Applications({ d }: { d: Data }) {
  const t = useTranslations("dashboard.applications");
  const statusName = useTranslations("loans.status");
  // What each status means next: the loan flow's words (the application's own page says the same).
  const statusNext = useTranslations("applyFlow.statusNext");
  return (
    <section aria-labelledby="loans-title" className="card space-y-4">
      <h2 id="loans-title" className="text-xl">
        {t("heading")}
      </h2>
      {d.applications.length ? (
        <ul className="divide-y divide-slate-200" data-testid="applications">
          {d.applications.map((a) => (
            <li key={a.reference} className="space-y-1 py-3">
              <p className="font-semibold">
                {a.amountPaise && a.tenureMonths
                  ? t("kindAmountTenure", { kind: a.kind, amount: formatRupees(a.amountPaise), months: a.tenureMonths })
                  : a.amountPaise
                    ? t("kindAmount", { kind: a.kind, amount: formatRupees(a.amountPaise) })
                    : t("kind", { kind: a.kind })}{" "}
                <span className="font-mono text-sm font-normal text-slate-600">
                  {t("reference", { reference: shortReference(a.reference) })}
                </span>
              </p>
              <p>
                {t.rich("status", { status: statusName(a.status), strong })}{" "}
                <span className="text-slate-700">
                  {a.autopayFirst
                    ? t("autopayFirst")
                    : // A rejection's own reason, as the credit officer wrote it; else what each status means.
                      a.status === "rejected" && a.statusReason
                      ? a.statusReason
                      : statusNext(a.status)}
                </span>
              </p>
              {a.disbursal ? <DisbursalNote d={a.disbursal} /> : null}
              <p className="flex flex-wrap gap-3">
                <Link className="link" to={a.next.href}>
                  {a.next.what === "continue"
                    ? t("continueStep", { step: a.next.step })
                    : a.next.what === "autopay"
                      ? t("setUpAutopay")
                      : t("seeStatus")}
                </Link>
                {a.agreementRef ? (
                  <Link className="link" to={`/Eagreement/${a.agreementRef}`}>
                    {t("agreement")}
                  </Link>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-700">{t("none")}</p>
      )}
      <ApplyButtons apply={d.apply} quiet={Boolean(d.overdue)} />
    </section>
  );
}

/**
 * Apply (a POST: no page view starts an application), continue the one in progress, or why a new
 * one is not open now. `quiet`: something else leads the page (an overdue amount to pay).
 */
function ApplyButtons({ apply, quiet }: { apply: Data["apply"]; quiet: boolean }) {
  const closed = apply.filter((a) => a.state === "closed");
  const t = useTranslations("dashboard.apply");
  // The reasons are message keys the loader gave (said in the page's language).
  const say = useMessageText();
  return (
    <div className="space-y-3" data-testid="apply">
      <div className="flex flex-wrap gap-3">
        {apply.map((a, i) => {
          const style = i === 0 && !quiet ? "btn-primary" : "btn-secondary";
          if (a.state === "continue")
            return (
              <Link key={a.kind} className={style} to={a.href}>
                {t(`${a.kind}.continue`)}
              </Link>
            );
          if (a.state === "open")
            return (
              <Form key={a.kind} method="post" action={a.href}>
                <button type="submit" className={style}>
                  {t(`${a.kind}.open`)}
                </button>
              </Form>
            );
          return null;
        })}
      </div>
      {closed.length ? (
        <div className="rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="apply-closed">
          <p className="font-medium">{closed.length === 2 ? t("closedBoth") : t(`${closed[0]?.kind ?? "emi"}.closed`)}</p>
          <ul className="mt-2 list-disc space-y-1 pl-5" data-testid="apply-reasons">
            {(closed[0]?.reasons ?? []).map((r) => (
              <li key={r.code}>{say(r.text)}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
