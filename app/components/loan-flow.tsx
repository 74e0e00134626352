import type { ReactNode } from "react";
import { Form, useSubmit } from "react-router";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../i18n/use-translations.ts";
import { type LoanKind, shortReference, type Step, STEPS } from "../domain/loans/application.ts";
import { borrowerCanCancel, type LoanStatus } from "../domain/loans/lifecycle.ts";
import type { Language } from "../i18n/languages.ts";
import { linkTo, spanWith } from "../lib/rich-text.tsx";
import type { BorrowerDisbursal } from "../domain/loans/disbursal.ts";
import { longDate } from "../domain/india-date.ts";
import { formatRupees } from "../domain/money.ts";
import { useConfirm } from "./confirm-dialog.tsx";
import { LenderNote } from "./lender-trust.tsx";
import { useMediaQuery } from "../lib/use-media-query.ts";

// The borrower's words here are the "applyFlow" namespace's (StatusNote's status: "loans"): every page
// showing LoanFlow, StatusNote, DisbursalNote or MissingDetails loads them. FactRows, MoneyRows and
// PdfFrame (given its words) have none of their own: staff pages use them too.

/** The frame of every new-loan step: which application, the steps with the current one marked, the content, and cancel. */
export function LoanFlow({
  kind,
  reference,
  step,
  status,
  title,
  done,
  children,
  payoutInFlight = false,
}: {
  kind: LoanKind;
  reference: string;
  step: Step;
  status: LoanStatus;
  title: string;
  /** The steps really done (stepsDone): the bar fills those and the current one, nothing else. */
  done: readonly Step[];
  children: ReactNode;
  /** The money is on its way: the application cannot be cancelled now. */
  payoutInFlight?: boolean;
}) {
  const index = STEPS.indexOf(step);
  const t = useTranslations("applyFlow");
  return (
    <div className="space-y-6">
      <header>
        <p className="text-sm font-medium text-brand-700">
          {t.rich("application", { kind, reference: shortReference(reference), mono: monoRef })}
        </p>
        <h1 className="mt-1 text-2xl sm:text-3xl">{title}</h1>
        <nav aria-label={t("nav")} className="mt-4">
          <p className="text-sm text-slate-600">{t("progress", { number: String(index + 1), count: String(STEPS.length) })}</p>
          <ol className="mt-2 grid grid-cols-5 gap-1" data-testid="loan-steps">
            {STEPS.map((s) => {
              const isDone = done.includes(s);
              return (
                <li key={s} aria-current={s === step ? "step" : undefined} className="text-xs text-slate-700" data-done={isDone}>
                  <span
                    className={`block h-1.5 rounded-full ${isDone ? "bg-brand-600" : s === step ? "bg-brand-200" : "bg-slate-200"}`}
                    aria-hidden="true"
                  />
                  <span className={`mt-1 hidden sm:block ${s === step ? "font-semibold text-slate-900" : ""}`}>{t(`steps.${s}`)}</span>
                  <span className="sr-only">
                    {isDone && s !== step ? ` ${t("stepDone")}` : !isDone && s !== step ? ` ${t("stepNotDone")}` : ""}
                  </span>
                  <span className="sr-only sm:hidden">{t(`steps.${s}`)}</span>
                </li>
              );
            })}
          </ol>
        </nav>
      </header>
      {children}
      {borrowerCanCancel(status) && !payoutInFlight ? <CancelApplication kind={kind} /> : null}
      <LenderNote />
    </div>
  );
}

/** Cancel, after the confirm dialog (and without JavaScript, straight away: the button says what it does). */
function CancelApplication({ kind }: { kind: LoanKind }) {
  const t = useTranslations("applyFlow.cancel");
  const confirm = useConfirm();
  const submit = useSubmit();
  return (
    <Form
      method="post"
      className="border-t border-slate-200 pt-4"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const yes = await confirm({
          title: t("title", { kind }),
          description: t("description"),
          confirmLabel: t("confirm"),
          cancelLabel: t("keep"),
          danger: true,
        });
        if (yes) void submit(form);
      }}
    >
      <input type="hidden" name="intent" value="cancel" />
      <button type="submit" className="link text-danger-600">
        {t("button")}
      </button>
    </Form>
  );
}

/** The status in words and what happens next. */
export function StatusNote({ status, reason }: { status: LoanStatus; reason?: string | null }) {
  const t = useTranslations("applyFlow");
  const loans = useTranslations("loans");
  return (
    <div className="space-y-1">
      <p>{t.rich("statusLine", { status: loans(`status.${status}`), strong: statusStrong })}</p>
      <p className="text-slate-700" data-testid="status-next">
        {/* A rejection's reason, as the officer wrote it, says more than the general words. */}
        {status === "rejected" && reason ? reason : t(`statusNext.${status}`)}
      </p>
    </div>
  );
}

/** The disbursal as the borrower reads it: on its way, or what reached which account, the loan number and the first due. */
export function DisbursalNote({ d }: { d: BorrowerDisbursal }) {
  const t = useTranslations("applyFlow.disbursal");
  const language = useLocale() as Language;
  if (d.inFlight) {
    return (
      <p className="rounded bg-sky-50 p-3 text-sky-900" data-testid="disbursal">
        {t("onWay", { account: d.accountMasked, amount: formatRupees(d.paidOutPaise) })}
      </p>
    );
  }
  return (
    <div className="space-y-2 rounded bg-money-50 p-3" data-testid="disbursal">
      <p className="font-semibold text-money-700">
        {d.disbursalDate
          ? t("sentOn", { amount: formatRupees(d.paidOutPaise), account: d.accountMasked, date: longDate(d.disbursalDate, language) })
          : t("sent", { amount: formatRupees(d.paidOutPaise), account: d.accountMasked })}
      </p>
      <FactRows
        rows={[
          [t("loanNumber"), d.loanNumber ?? "—"],
          [t("utr"), d.utr ?? "—"],
          [
            t("firstInstalment"),
            d.firstDueDate && d.firstDuePaise !== null
              ? t("firstDue", { amount: formatRupees(d.firstDuePaise), date: longDate(d.firstDueDate, language) })
              : "—",
          ],
        ]}
      />
      {d.revisedKfs && d.loanNumber ? (
        <p>
          {t("revised")}{" "}
          <a className="link" href={`/User/Loans/${d.loanNumber}/revised-kfs.pdf`} download>
            {t("revisedLink")}
          </a>
        </p>
      ) : null}
    </div>
  );
}

/** The details an offer still needs, each a link (`label`, or the profile's section) to where it is given. */
export function MissingDetails({
  items,
}: {
  items: readonly { fact: "dateOfBirth" | "employment" | "existingEmis"; href: string; label?: string }[];
}) {
  const t = useTranslations("applyFlow.missing");
  return (
    <section className="card border-amber-300 bg-amber-50" aria-labelledby="missing-title">
      <h2 id="missing-title" className="text-xl">
        {t("heading")}
      </h2>
      <ul className="mt-3 list-disc space-y-1 pl-5">
        {items.map((m) => (
          <li key={m.fact}>
            {t.rich("item", { label: m.label ?? t(`section.${m.fact}`), what: t(`what.${m.fact}`), link: linkTo(m.href, "link") })}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Label/amount rows of a quote or an offer, the amounts right-aligned. */
export function MoneyRows({ rows }: { rows: readonly (readonly [string, string])[] }) {
  return (
    <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-700">{label}</dt>
          <dd className="money text-right font-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Label/value rows of a KFS section. */
export function FactRows({ rows }: { rows: readonly (readonly [string, string])[] }) {
  return (
    <dl className="divide-y divide-slate-200">
      {rows.map(([label, value]) => (
        <div key={label} className="grid gap-1 py-2 sm:grid-cols-[14rem_1fr] sm:gap-4">
          <dt className="font-medium text-slate-600">{label}</dt>
          <dd className="min-w-0 wrap-anywhere">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A same-origin PDF shown in the page. Not sandboxed on purpose: browsers
 * refuse to run their PDF viewer inside a sandboxed frame. The PDF answer
 * itself carries the site's CSP.
 */
export function PdfFrame({ title, src, preview, words }: { title: string; src: string; preview?: string; words?: PdfWords }) {
  // oxlint-disable-next-line react/iframe-missing-sandbox
  if (!preview) return <iframe title={title} src={src} className="h-[70vh] w-full rounded-lg border border-slate-300" />;
  return <PdfWithPreview title={title} src={src} preview={preview} words={words ?? ENGLISH_PDF_WORDS} />;
}

/** The preview's words, in the page's language (a borrower's page gives applyFlow.pdf's; staff pages keep the English). */
export interface PdfWords {
  alt: string;
  caption: string;
}
const ENGLISH_PDF_WORDS: PdfWords = { alt: "", caption: "The first page. Open the PDF to read every page." };

/** The preview's words from applyFlow.pdf, for a borrower's page. */
export function usePdfWords(title: string): PdfWords {
  const t = useTranslations("applyFlow.pdf");
  return { alt: t("previewAlt", { title }), caption: t("caption") };
}

/**
 * A wide screen embeds the PDF (fetched only there: a phone loads the image alone); without
 * JavaScript the frame comes from <noscript>, shown from the same width by CSS.
 */
function PdfWithPreview({ title, src, preview, words }: { title: string; src: string; preview: string; words: PdfWords }) {
  const wide = useMediaQuery("(min-width: 768px)");
  const frame = (className: string) => (
    // oxlint-disable-next-line react/iframe-missing-sandbox
    <iframe title={title} src={src} className={`h-[70vh] w-full rounded-lg border border-slate-300 ${className}`} />
  );
  return (
    <>
      {wide ? frame("") : <noscript>{frame("hidden md:block")}</noscript>}
      {/* A phone's browser shows an embedded PDF as an empty box: its first page as an image instead, opening the PDF. */}
      <figure className="md:hidden" data-testid="pdf-preview">
        <a href={src} target="_blank" rel="noopener" className="block">
          <img
            src={preview}
            alt={words.alt || `First page of the ${title}`}
            width={720}
            height={1018}
            loading="lazy"
            className="h-auto w-full rounded-lg border border-slate-300 bg-white shadow-sm"
          />
        </a>
        <figcaption className="mt-2 text-sm text-slate-600">{words.caption}</figcaption>
      </figure>
    </>
  );
}

const monoRef = spanWith("font-mono text-slate-600");
const statusStrong = (chunks: ReactNode) => <strong data-testid="application-status">{chunks}</strong>;
