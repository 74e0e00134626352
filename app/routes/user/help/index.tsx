import { Form, Link } from "react-router";
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
  const faq = faqSections(homeFacts(products, policy.rules));
  return {
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
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-4">
          <HelpIllustration className="h-14 w-auto shrink-0" />
          <h1 className="text-2xl sm:text-3xl">Help</h1>
        </div>
        <Link className="btn-primary" to="/User/Help/new">
          Raise a ticket
        </Link>
      </div>

      <section aria-labelledby="tickets-title" className="card">
        <h2 id="tickets-title" className="text-xl">
          Your tickets
        </h2>
        {tickets.length === 0 ? (
          <p className="mt-2 text-slate-700">
            You have not raised a ticket. If the answers below do not help, raise one: you get a reference at once and an answer within{" "}
            {RESOLVE_WITHIN_DAYS} days, usually within two working days.
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200" aria-label="Your tickets">
            {tickets.map((t) => (
              <li key={t.reference} className="flex flex-wrap items-center justify-between gap-2 py-3" data-testid="ticket-row">
                <div className="min-w-0">
                  <Link className="link font-mono" to={helpPath(t.reference)}>
                    {t.reference}
                  </Link>
                  <p className="break-words text-slate-800">{t.subject}</p>
                  <p className="text-sm text-slate-600">Last change {formatDateIST(new Date(t.updatedAt))}</p>
                </div>
                <span className="flex flex-wrap gap-2">
                  <StatusBadge status={t.status} />
                  {t.escalable ? (
                    <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-sm font-medium text-amber-900">You may escalate</span>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="faq-title" className="space-y-4">
        <h2 id="faq-title" className="text-xl">
          Frequently asked questions
        </h2>
        <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <label htmlFor="faq-q" className="field-label">
              Search the questions
            </label>
            <input id="faq-q" name="q" type="search" defaultValue={q} className="field-input" maxLength={100} />
          </div>
          <button type="submit" className="btn-secondary">
            Search
          </button>
        </Form>
        {q.trim() ? (
          <p role="status" className="text-slate-700">
            {found === 0 ? (
              <>
                No question matches “{q}”.{" "}
                <Link className="link" to="/User/Help/new">
                  Ask us instead
                </Link>
                .
              </>
            ) : (
              `${found} ${found === 1 ? "question matches" : "questions match"} “${q}”.`
            )}{" "}
            <Link className="link" to="/User/Help">
              Show every question
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
            Complaints
          </h2>
          <p className="mt-2 text-slate-700">
            Raise a complaint as a ticket here, or write to or call our grievance officer. We answer within {RESOLVE_WITHIN_DAYS} days. If
            we do not, or you do not accept our answer, you may complain to the RBI Integrated Ombudsman at{" "}
            <a className="link" href={OMBUDSMAN_URL} rel="noreferrer">
              cms.rbi.org.in
            </a>
            ; each ticket shows how.
          </p>
        </div>
        <GrievanceOfficer className="text-slate-800" />
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Help");
