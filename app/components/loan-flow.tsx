import type { ReactNode } from "react";
import { Form, Link, useSubmit } from "react-router";
import { KIND_NAME, KIND_NOUN, type LoanKind, shortReference, type Step, STEP_TITLES, STEPS } from "../domain/loans/application.ts";
import { borrowerCanCancel, type LoanStatus, STATUS_TEXT, statusNext } from "../domain/loans/lifecycle.ts";
import type { BorrowerDisbursal } from "../domain/loans/disbursal.ts";
import { longDate } from "../domain/india-date.ts";
import { formatRupees } from "../domain/money.ts";
import { useConfirm } from "./confirm-dialog.tsx";
import { LenderNote } from "./lender-trust.tsx";
import { useMediaQuery } from "../lib/use-media-query.ts";

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
  return (
    <div className="space-y-6">
      <header>
        <p className="text-sm font-medium text-brand-700">
          {KIND_NAME[kind]} application <span className="font-mono text-slate-600">{shortReference(reference)}</span>
        </p>
        <h1 className="mt-1 text-2xl sm:text-3xl">{title}</h1>
        <nav aria-label="Application steps" className="mt-4">
          <p className="text-sm text-slate-600">
            Step {index + 1} of {STEPS.length}
          </p>
          <ol className="mt-2 grid grid-cols-5 gap-1" data-testid="loan-steps">
            {STEPS.map((s) => {
              const isDone = done.includes(s);
              return (
                <li key={s} aria-current={s === step ? "step" : undefined} className="text-xs text-slate-700" data-done={isDone}>
                  <span
                    className={`block h-1.5 rounded-full ${isDone ? "bg-brand-600" : s === step ? "bg-brand-200" : "bg-slate-200"}`}
                    aria-hidden="true"
                  />
                  <span className={`mt-1 hidden sm:block ${s === step ? "font-semibold text-slate-900" : ""}`}>{STEP_TITLES[s]}</span>
                  <span className="sr-only">{isDone && s !== step ? " (done)" : !isDone && s !== step ? " (not done)" : ""}</span>
                  <span className="sr-only sm:hidden">{STEP_TITLES[s]}</span>
                </li>
              );
            })}
          </ol>
        </nav>
      </header>
      {children}
      {borrowerCanCancel(status) && !payoutInFlight ? <CancelApplication kindName={KIND_NOUN[kind]} /> : null}
      <LenderNote />
    </div>
  );
}

/** Cancel, after the confirm dialog (and without JavaScript, straight away: the button says what it does). */
function CancelApplication({ kindName }: { kindName: string }) {
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
          title: `Cancel this ${kindName} application?`,
          description: "It cannot be restarted; you can begin a new application at any time.",
          confirmLabel: "Cancel application",
          cancelLabel: "Keep it",
          danger: true,
        });
        if (yes) void submit(form);
      }}
    >
      <input type="hidden" name="intent" value="cancel" />
      <button type="submit" className="link text-danger-600">
        Cancel this application
      </button>
    </Form>
  );
}

/** The status in words and what happens next. */
export function StatusNote({ status, reason }: { status: LoanStatus; reason?: string | null }) {
  const text = STATUS_TEXT[status];
  return (
    <div className="space-y-1">
      <p>
        Status: <strong data-testid="application-status">{text.label}</strong>
      </p>
      <p className="text-slate-700" data-testid="status-next">
        {statusNext(status, reason)}
      </p>
    </div>
  );
}

/** The disbursal as the borrower reads it: on its way, or what reached which account, the loan number and the first due. */
export function DisbursalNote({ d }: { d: BorrowerDisbursal }) {
  if (d.inFlight) {
    return (
      <p className="rounded bg-sky-50 p-3 text-sky-900" data-testid="disbursal">
        The money is on its way to your bank account {d.accountMasked}: {formatRupees(d.paidOutPaise)}. We will send you an SMS with the
        transfer reference when your bank confirms it.
      </p>
    );
  }
  return (
    <div className="space-y-2 rounded bg-money-50 p-3" data-testid="disbursal">
      <p className="font-semibold text-money-700">
        {formatRupees(d.paidOutPaise)} sent to your bank account {d.accountMasked}
        {d.disbursalDate ? ` on ${longDate(d.disbursalDate)}` : ""}.
      </p>
      <FactRows
        rows={[
          ["Loan number", d.loanNumber ?? "—"],
          ["Transfer reference (UTR)", d.utr ?? "—"],
          [
            "First instalment",
            d.firstDueDate && d.firstDuePaise !== null ? `${formatRupees(d.firstDuePaise)} on ${longDate(d.firstDueDate)}` : "—",
          ],
        ]}
      />
      {d.revisedKfs && d.loanNumber ? (
        <p>
          The dates changed from the Key Fact Statement you signed, because the money was sent on a different day.{" "}
          <a className="link" href={`/User/Loans/${d.loanNumber}/revised-kfs.pdf`} download>
            Download the revised Key Fact Statement (PDF)
          </a>
        </p>
      ) : null}
    </div>
  );
}

/** The details an offer still needs, each a link to where it is given. */
export function MissingDetails({ items }: { items: readonly { key: string; href: string; label: string; what: string }[] }) {
  return (
    <section className="card border-amber-300 bg-amber-50" aria-labelledby="missing-title">
      <h2 id="missing-title" className="text-xl">
        We need a few details to make you an offer
      </h2>
      <ul className="mt-3 list-disc space-y-1 pl-5">
        {items.map((m) => (
          <li key={m.key}>
            <Link className="link" to={m.href}>
              {m.label}
            </Link>
            : {m.what}
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
export function PdfFrame({ title, src, preview }: { title: string; src: string; preview?: string }) {
  // oxlint-disable-next-line react/iframe-missing-sandbox
  if (!preview) return <iframe title={title} src={src} className="h-[70vh] w-full rounded-lg border border-slate-300" />;
  return <PdfWithPreview title={title} src={src} preview={preview} />;
}

/**
 * A wide screen embeds the PDF (fetched only there: a phone loads the image alone); without
 * JavaScript the frame comes from <noscript>, shown from the same width by CSS.
 */
function PdfWithPreview({ title, src, preview }: { title: string; src: string; preview: string }) {
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
            alt={`First page of the ${title}`}
            width={720}
            height={1018}
            loading="lazy"
            className="h-auto w-full rounded-lg border border-slate-300 bg-white shadow-sm"
          />
        </a>
        <figcaption className="mt-2 text-sm text-slate-600">The first page. Open the PDF to read every page.</figcaption>
      </figure>
    </>
  );
}
