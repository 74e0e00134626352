import { Link } from "react-router";
import { FactRows, LoanFlow, PdfFrame } from "../../../components/loan-flow.tsx";
import { stepPath } from "../../../domain/loans/application.ts";
import { longDate } from "../../../domain/india-date.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatRupees } from "../../../domain/money.ts";
import type { Route } from "./+types/step5";
import { readForm } from "../../../web/forms.server.ts";
import { cancelFromStep, ensureDocument, ensureProfileReady, loadStep } from "../../../web/new-loan-step.server.ts";
import { signedPdfLink } from "../../../server/loans/pdf-links.server.ts";

export async function loader(args: Route.LoaderArgs) {
  const loaded = await loadStep(args, "Step5");
  await ensureProfileReady(loaded, args.request);
  const { document: doc } = await ensureDocument(loaded, args.request);
  const { services, kind, reference } = loaded;
  const base = stepPath(kind, reference, "Step5");
  return {
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
  return (
    <LoanFlow
      kind={kind}
      reference={reference}
      step="Step5"
      status={loaderData.status}
      done={loaderData.done}
      title="Your Key Fact Statement and agreement"
    >
      <section className="card space-y-3" aria-labelledby="kfs-summary">
        <h2 id="kfs-summary" className="text-xl">
          In short
        </h2>
        <FactRows
          rows={[
            ["Amount", formatRupees(f.amountPaise)],
            [
              f.instalments === 1 ? "You repay" : "Monthly instalment",
              `${formatRupees(f.instalmentPaise)}${f.instalments > 1 ? ` × ${f.instalments}` : ""}`,
            ],
            [f.instalments === 1 ? "Repayment date" : "First instalment", longDate(f.firstDueDate)],
            ["Total interest", formatRupees(f.totalInterestPaise)],
            ["Processing fee with GST", formatRupees(f.feePaise + f.gstPaise)],
            ["You receive", formatRupees(f.netDisbursedPaise)],
            ["APR", `${f.aprPercent.toFixed(2)}%`],
          ]}
        />
        <p className="text-sm text-slate-700">
          Valid for signing until the end of <strong>{longDate(kfs.validUntil)}</strong>. After that we issue a fresh one with the terms of
          that day.
        </p>
      </section>
      <section className="card space-y-3" aria-labelledby="pdf-title">
        <h2 id="pdf-title" className="text-xl">
          The document you sign
        </h2>
        <p className="text-slate-700">
          The Key Fact Statement and the loan agreement, as one PDF ({loaderData.document.sizeKb} kB). This exact file is what you accept at
          the next step.
        </p>
        <PdfFrame title="Key Fact Statement and loan agreement (PDF)" src={loaderData.display} preview={loaderData.preview} />
        <p className="flex flex-wrap gap-3">
          <a className="btn-secondary" href={loaderData.display} target="_blank" rel="noopener">
            Open the PDF
          </a>
          <a className="btn-secondary" href={loaderData.download} download>
            Download the PDF
          </a>
        </p>
        <p className="text-sm text-slate-600">
          Reading on a phone app?{" "}
          <a className="link" href={loaderData.appLink}>
            This link
          </a>{" "}
          opens the PDF without signing in, for 10 minutes.
        </p>
        <p className="text-xs text-slate-500 wrap-anywhere">SHA-256 {loaderData.document.sha256}</p>
      </section>
      {kfs.parts.map((part) => (
        <section key={part.title} className="card" aria-label={part.title}>
          <h2 className="text-xl">{part.title}</h2>
          <FactRows rows={part.rows} />
        </section>
      ))}
      <section className="card" aria-labelledby="schedule-title">
        <h2 id="schedule-title" className="text-xl">
          Repayment schedule
        </h2>
        {/* Focusable so a keyboard can scroll the wide schedule on a phone. */}
        {/* oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
        <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label="Repayment schedule, scrolls sideways">
          <table className="w-full text-sm">
            <caption className="sr-only">Repayment schedule, assuming disbursal on {longDate(kfs.assumedDisbursalDate)}</caption>
            <thead>
              <tr>
                {kfs.schedule.columns.map((c) => (
                  <th key={c} scope="col" className="px-2 py-1 text-left whitespace-nowrap">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
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
          Back
        </Link>
        <Link className="btn-primary" to={stepPath(kind, reference, "Step6")}>
          I have read it: continue to sign
        </Link>
      </div>
    </LoanFlow>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "New loan: Key Fact Statement");
