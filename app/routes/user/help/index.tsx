import { Form } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { HelpIllustration } from "../../../components/illustrations.tsx";
import { GrievanceOfficer } from "../../../components/lender-trust.tsx";
import { StatusBadge } from "../../../components/ticket-status.tsx";
import { servicesContext } from "../../../context.ts";
import { escalation, faqSections, helpPath, OMBUDSMAN_URL, RESOLVE_WITHIN_DAYS, searchFaq } from "../../../domain/help.ts";
import { homeFacts, loadProducts } from "../../../server/products.server.ts";
import { policyInForce } from "../../../server/credit/policy.server.ts";
import { formatDateIST } from "../../../domain/india-date.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { borrowerTickets } from "../../../server/help/read.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import type { Route } from "./+types/index";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../i18n/use-translations.ts";
import type { Language } from "../../../i18n/languages.ts";
import { externalLink, linkTo } from "../../../lib/rich-text.tsx";
import { pageMessages, pageMetaText, translatorFor } from "../../../web/i18n.server.ts";

const ombudsmanLink = externalLink(OMBUDSMAN_URL, "link");
const askLink = linkTo("/User/Help/new", "link");

/** Help (docs/product.md "Help and grievances"): questions in sections, searchable; the borrower's tickets; the grievance officer. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const q = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 100);
  const now = services.now();
  const [tickets, products, policy] = await Promise.all([
    borrowerTickets(services, user.id),
    loadProducts(services),
    policyInForce(services),
  ]);
  // The questions in the page's language: the search reads the words the borrower reads.
  const say = translatorFor(context, "help") as unknown as (key: string, values: Record<string, string | number>) => string;
  const faq = faqSections(homeFacts(products, policy.rules), (key, values) => say(`faq.sections.${key}`, values));
  return {
    messages: pageMessages(context, ["help"]),
    meta: pageMetaText(context, "help"),
    q,
    sections: searchFaq(faq, q),
    tickets: tickets.map((t) => ({
      reference: t.reference,
      subject: t.subject,
      status: t.status,
      updatedAt: t.updatedAt.toISOString(),
      escalable: escalation(t, now) !== null,
    })),
  };
}

export default function Help({ loaderData }: Route.ComponentProps) {
  const { q, sections, tickets } = loaderData;
  const found = sections.reduce((n, s) => n + s.items.length, 0);
  const t = useTranslations("help");
  const language = useLocale() as Language;
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-4">
          <HelpIllustration className="h-14 w-auto shrink-0" />
          <h1 className="text-2xl sm:text-3xl">{t("heading")}</h1>
        </div>
        <Link className="btn-primary" to="/User/Help/new">
          {t("raise")}
        </Link>
      </div>

      <section aria-labelledby="tickets-title" className="card">
        <h2 id="tickets-title" className="text-xl">
          {t("tickets.heading")}
        </h2>
        {tickets.length === 0 ? (
          <p className="mt-2 text-slate-700">{t("tickets.none", { days: String(RESOLVE_WITHIN_DAYS) })}</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200" aria-label={t("tickets.heading")}>
            {tickets.map((ticket) => (
              <li key={ticket.reference} className="flex flex-wrap items-center justify-between gap-2 py-3" data-testid="ticket-row">
                <div className="min-w-0">
                  <Link className="link font-mono" to={helpPath(ticket.reference)}>
                    {ticket.reference}
                  </Link>
                  <p className="break-words text-slate-800">{ticket.subject}</p>
                  <p className="text-sm text-slate-600">
                    {t("tickets.lastChange", { date: formatDateIST(new Date(ticket.updatedAt), language) })}
                  </p>
                </div>
                <span className="flex flex-wrap gap-2">
                  <StatusBadge status={ticket.status} />
                  {ticket.escalable ? (
                    <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-sm font-medium text-amber-900">
                      {t("tickets.mayEscalate")}
                    </span>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="faq-title" className="space-y-4">
        <h2 id="faq-title" className="text-xl">
          {t("faq.heading")}
        </h2>
        <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <label htmlFor="faq-q" className="field-label">
              {t("faq.search")}
            </label>
            <input id="faq-q" name="q" type="search" defaultValue={q} className="field-input" maxLength={100} />
          </div>
          <button type="submit" className="btn-secondary">
            {t("faq.searchButton")}
          </button>
        </Form>
        {q.trim() ? (
          <p role="status" className="text-slate-700">
            {found === 0 ? t.rich("faq.noMatch", { q, link: askLink }) : t("faq.matches", { count: found, q })}{" "}
            <Link className="link" to="/User/Help">
              {t("faq.showAll")}
            </Link>
          </p>
        ) : null}
        {sections.map((s) => (
          <div key={s.id} className="card">
            <h3 id={`faq-${s.id}`}>{s.title}</h3>
            <div className="mt-2 divide-y divide-slate-200">
              {s.items.map((f) => (
                <details key={f.q} className="group py-2" open={Boolean(q.trim())}>
                  <summary className="cursor-pointer py-1 font-medium text-slate-900 marker:text-brand-700">{f.q}</summary>
                  <p className="mt-1 text-slate-700">{f.a}</p>
                </details>
              ))}
            </div>
          </div>
        ))}
      </section>

      <section aria-labelledby="complaints-title" className="card grid gap-4 sm:grid-cols-2">
        <div>
          <h2 id="complaints-title" className="text-xl">
            {t("complaints.heading")}
          </h2>
          <p className="mt-2 text-slate-700">{t.rich("complaints.body", { days: String(RESOLVE_WITHIN_DAYS), link: ombudsmanLink })}</p>
        </div>
        <GrievanceOfficer className="text-slate-800" />
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
