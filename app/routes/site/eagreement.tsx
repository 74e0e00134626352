import { FactRows, PdfFrame, usePdfWords } from "../../components/loan-flow.tsx";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../i18n/use-translations.ts";
import type { Language } from "../../i18n/languages.ts";
import { pageMessages, translatorFor } from "../../web/i18n.server.ts";
import { servicesContext } from "../../context.ts";
import { parseReference } from "../../domain/loans/application.ts";
import { linkOpenUntil } from "../../domain/loans/agreement-link.ts";
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
    messages: pageMessages(context, ["signedAgreement", "applyFlow"]),
    meta: { title: translatorFor(context, "signedAgreement")("meta.title") },
    ref,
    kind: agreement.product,
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
  const t = useTranslations("signedAgreement");
  const language = useLocale() as Language;
  const pdfWords = usePdfWords(t("pdfTitle"));
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10">
      <h1 className="text-2xl sm:text-3xl">{t("heading")}</h1>
      {a.openUntil ? (
        <p className="text-slate-700" data-testid="agreement-link-until">
          {t("linkUntil", { date: formatDateIST(new Date(a.openUntil), language) })}
        </p>
      ) : null}
      {a.withdrawn ? (
        <p className="card border-amber-300 bg-amber-50" data-testid="agreement-withdrawn">
          {t("withdrawn")}
        </p>
      ) : null}
      <section className="card" aria-labelledby="signature-title">
        <h2 id="signature-title" className="text-xl">
          {t("signature")}
        </h2>
        <FactRows
          rows={[
            [t("loan"), t("loanOf", { kind: a.kind, amount: formatRupees(a.amountPaise) })],
            [t("signedBy"), a.name],
            [t("signedAt"), t("signedAtValue", { date: formatDateIST(signedAt, language), time: formatTimeIST(signedAt) })],
            [t("codeTo"), a.mobile],
            [t("shownHash"), a.shownSha256],
            [t("signedHash"), a.signedSha256],
          ]}
        />
      </section>
      <section className="card space-y-3" aria-labelledby="document-title">
        <h2 id="document-title" className="text-xl">
          {t("document")}
        </h2>
        <PdfFrame title={t("pdfTitle")} src={pdf} preview={`/Eagreement/${a.ref}/preview.png`} words={pdfWords} />
        <p className="flex flex-wrap gap-3">
          <a className="btn-secondary" href={pdf} target="_blank" rel="noopener">
            {t("open")}
          </a>
          <a className="btn-primary" href={`${pdf}?download=1`} download>
            {t("download")}
          </a>
        </p>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  ...pageMeta(matches, loaderData && "meta" in loaderData ? loaderData.meta.title : ""),
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];
