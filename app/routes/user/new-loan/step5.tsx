import { Link } from "../../../lib/link.tsx";
import { FactRows, LoanFlow, PdfFrame, usePdfWords } from "../../../components/loan-flow.tsx";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { HTML_LANG, type Language } from "../../../i18n/languages.ts";
import { externalLink, strong } from "../../../lib/rich-text.tsx";
import { stepPath } from "../../../domain/loans/application.ts";
import { longDate } from "../../../domain/india-date.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatRupees } from "../../../domain/money.ts";
import type { Route } from "./+types/step5";
import { readForm } from "../../../web/forms.server.ts";
import { cancelFromStep, ensureDocument, ensureProfileReady, loadStep, stepPage } from "../../../web/new-loan-step.server.ts";
import { signedPdfLink } from "../../../server/loans/pdf-links.server.ts";

export async function loader(args: Route.LoaderArgs) {
  const loaded = await loadStep(args, "Step5");
  await ensureProfileReady(loaded, args.request);
  const { document: doc } = await ensureDocument(loaded, args.request);
  const { services, kind, reference } = loaded;
  const base = stepPath(kind, reference, "Step5");
  return {
    ...stepPage(args.context, "Step5"),
    kind,
    reference,
    status: loaded.state.status,
    done: loaded.done,
    kfs: doc.kfs,
    document: { id: doc.id, sha256: doc.sha256, sizeKb: Math.ceil(doc.sizeBytes / 1024), issuedAt: doc.issuedAt.toISOString() },
    display: `${base}/pdfDisplay`,
    download: `${base}/pdfDownload`,
    preview: `${base}/preview.png`,
    appLink: signedPdfLink(services.config, `${base}/pdfDisplay`, services.now()),
  };
}

export async function action(args: Route.ActionArgs) {
  const loaded = await loadStep(args, "Step5");
  const formData = await readForm(args.request);
  if (formData.get("intent") === "cancel") return cancelFromStep(loaded, args.request);
  return new Response(null, { status: 405 });
}

export default function Step5({ loaderData }: Route.ComponentProps) {
  const { kind, reference, kfs } = loaderData;
  const f = kfs.figures;
  const t = useTranslations("applySteps.kfs");
  const language = useLocale() as Language;
  const pdfWords = usePdfWords(t("pdfTitle"));
  return (
    <LoanFlow kind={kind} reference={reference} step="Step5" status={loaderData.status} done={loaderData.done} title={t("title")}>
      <section className="card space-y-3" aria-labelledby="kfs-summary">
        <h2 id="kfs-summary" className="text-xl">
          {t("inShort")}
        </h2>
        <FactRows
          rows={[
            [t("amount"), formatRupees(f.amountPaise)],
            [
              f.instalments === 1 ? t("repay") : t("monthly"),
              f.instalments > 1
                ? t("times", { amount: formatRupees(f.instalmentPaise), count: String(f.instalments) })
                : formatRupees(f.instalmentPaise),
            ],
            [f.instalments === 1 ? t("repaymentDate") : t("firstInstalment"), longDate(f.firstDueDate, language)],
            [t("totalInterest"), formatRupees(f.totalInterestPaise)],
            [t("fee"), formatRupees(f.feePaise + f.gstPaise)],
            [t("receive"), formatRupees(f.netDisbursedPaise)],
            [t("apr"), `${f.aprPercent.toFixed(2)}%`],
          ]}
        />
        <p className="text-sm text-slate-700">{t.rich("validUntil", { date: longDate(kfs.validUntil, language), strong })}</p>
      </section>
      <section className="card space-y-3" aria-labelledby="pdf-title">
        <h2 id="pdf-title" className="text-xl">
          {t("document")}
        </h2>
        <p className="text-slate-700">{t("documentIs", { size: String(loaderData.document.sizeKb) })}</p>
        <PdfFrame title={t("pdfTitle")} src={loaderData.display} preview={loaderData.preview} words={pdfWords} />
        <p className="flex flex-wrap gap-3">
          <a className="btn-secondary" href={loaderData.display} target="_blank" rel="noopener">
            {t("open")}
          </a>
          <a className="btn-secondary" href={loaderData.download} download>
            {t("download")}
          </a>
        </p>
        <p className="text-sm text-slate-600">{t.rich("appLink", { link: externalLink(loaderData.appLink, "link") })}</p>
        <p className="text-xs text-slate-500 wrap-anywhere">SHA-256 {loaderData.document.sha256}</p>
      </section>
      {/* The KFS's own parts are as issued, in the language it was issued in: the page's, since opening
          the page in another language issues it afresh in that one (app/server/loans/issue-kfs.server.ts). */}
      {kfs.parts.map((part) => (
        <section key={part.title} className="card" aria-label={part.title} lang={HTML_LANG[kfs.language ?? "en"]}>
          <h2 className="text-xl">{part.title}</h2>
          <FactRows rows={part.rows} />
        </section>
      ))}
      <section className="card" aria-labelledby="schedule-title">
        <h2 id="schedule-title" className="text-xl">
          {t("schedule")}
        </h2>
        {/* Focusable so a keyboard can scroll the wide schedule on a phone. */}
        {/* oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
        <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label={t("scheduleScroll")}>
          <table className="w-full text-sm">
            <caption className="sr-only">{t("scheduleCaption", { date: longDate(kfs.assumedDisbursalDate, language) })}</caption>
            <thead lang={HTML_LANG[kfs.language ?? "en"]}>
              <tr>
                {kfs.schedule.columns.map((c) => (
                  <th key={c} scope="col" className="px-2 py-1 text-left whitespace-nowrap">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody lang={HTML_LANG[kfs.language ?? "en"]}>
              {kfs.schedule.rows.map((row) => (
                <tr key={row[0]} className="border-t border-slate-200">
                  {row.map((cell, i) => (
                    <td key={kfs.schedule.columns[i]} className="money px-2 py-1 whitespace-nowrap">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <div className="flex flex-wrap gap-3">
        <Link className="btn-secondary" to={stepPath(kind, reference, "Step1")}>
          {t("back")}
        </Link>
        <Link className="btn-primary" to={stepPath(kind, reference, "Step6")}>
          {t("continue")}
        </Link>
      </div>
    </LoanFlow>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
