import { FactRows, PdfFrame } from "../../components/loan-flow.tsx";
import { servicesContext } from "../../context.ts";
import { KIND_NAME, parseReference } from "../../domain/loans/application.ts";
import { agreementLinkNote, linkOpenUntil } from "../../domain/loans/agreement-link.ts";
import { formatDateIST, formatTimeIST } from "../../domain/india-date.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatRupees } from "../../domain/money.ts";
import { agreementRefused, agreementViewer } from "../../web/agreement.server.ts";
import type { Route } from "./+types/eagreement";
import { maskMobile } from "../../domain/validators/mobile.ts";
import { signedAgreement } from "../../server/loans/read.server.ts";

/**
 * /Eagreement/{id}: a signed agreement, for whoever holds its own unguessable link for 30 days
 * after signing, then for its owner signed in (docs/product.md "Key Fact Statement, signing and the signed agreement").
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const ref = parseReference(params.id);
  const viewer = await agreementViewer(services, request);
  const agreement = ref ? await signedAgreement(services, ref, viewer) : null;
  if (!ref || !agreement) return agreementRefused(services, request, ref, viewer);
  return {
    ref,
    kindName: KIND_NAME[agreement.product],
    name: agreement.name ?? "",
    // The amount signed for (the application's may have changed since, if it went back for a fresh KFS).
    amountPaise: agreement.terms.figures.amountPaise,
    withdrawn: agreement.supersededAt !== null,
    signedAt: agreement.signedAt.toISOString(),
    mobile: maskMobile(agreement.mobile),
    shownSha256: agreement.shownSha256,
    signedSha256: agreement.signedSha256,
    /** Until when anyone with the link may open it; null once only the owner may. */
    openUntil: linkOpenUntil(agreement.signedAt, viewer.at)?.toISOString() ?? null,
  };
}

export default function Eagreement({ loaderData: a }: Route.ComponentProps) {
  const signedAt = new Date(a.signedAt);
  const pdf = `/Eagreement/${a.ref}/pdf`;
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10">
      <h1 className="text-2xl sm:text-3xl">Signed loan agreement</h1>
      {a.openUntil ? (
        <p className="text-slate-700" data-testid="agreement-link-until">
          {agreementLinkNote(formatDateIST(new Date(a.openUntil)))}
        </p>
      ) : null}
      {a.withdrawn ? (
        <p className="card border-amber-300 bg-amber-50" data-testid="agreement-withdrawn">
          This agreement was withdrawn before any money was paid: under our lending policy the application went back to the borrower to
          choose the amount again and sign a new Key Fact Statement. It is kept here as it was signed.
        </p>
      ) : null}
      <section className="card" aria-labelledby="signature-title">
        <h2 id="signature-title" className="text-xl">
          Signature
        </h2>
        <FactRows
          rows={[
            ["Loan", `${a.kindName} of ${formatRupees(a.amountPaise)}`],
            ["Signed by", a.name],
            ["Signed at", `${formatDateIST(signedAt)}, ${formatTimeIST(signedAt)} (India time)`],
            ["One-time code sent to", a.mobile],
            ["SHA-256 of the document shown", a.shownSha256],
            ["SHA-256 of this signed copy", a.signedSha256],
          ]}
        />
      </section>
      <section className="card space-y-3" aria-labelledby="document-title">
        <h2 id="document-title" className="text-xl">
          The document
        </h2>
        <PdfFrame title="Signed Key Fact Statement and loan agreement (PDF)" src={pdf} preview={`/Eagreement/${a.ref}/preview.png`} />
        <p className="flex flex-wrap gap-3">
          <a className="btn-secondary" href={pdf} target="_blank" rel="noopener">
            Open the PDF
          </a>
          <a className="btn-primary" href={`${pdf}?download=1`} download>
            Download the signed PDF
          </a>
        </p>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "Signed loan agreement"),
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];
