import { Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { PageLinks, StaffTable } from "../../components/staff-table.tsx";
import { z } from "zod";
import { servicesContext } from "../../context.ts";
import { isLoanStatus, STATUS_TEXT } from "../../domain/loans/lifecycle.ts";
import { formatDateIST } from "../../domain/india-date.ts";
import { pageMeta } from "../../lib/meta.ts";
import { BORROWER_PAGE_SIZE } from "../../domain/borrowers.ts";
import { searchBorrowers } from "../../server/borrowers/read.server.ts";
import { requirePermission } from "../../web/guards.server.ts";
import type { Route } from "./+types/borrowers";

/** Borrower search (docs/product.md "Borrowers"): every staff role. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("borrowers.view")];

/** The search lives in the URL; anything unusable falls back to the default. */
const searchSchema = z.object({
  q: z
    .string()
    .trim()
    .transform((v) => v.slice(0, 100))
    .catch(""),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const filter = searchSchema.parse({ q: params.get("q") ?? "", page: params.get("page") ?? 1 });
  const { rows, total } = await searchBorrowers(context.get(servicesContext), filter);
  return {
    filter,
    total,
    rows: rows.map((r) => ({
      id: r.id,
      name: r.name,
      mobile: r.mobile,
      panMasked: r.panMasked,
      since: r.createdAt.toISOString(),
      applications: r.applications,
      latest: r.latestStatus && isLoanStatus(r.latestStatus) ? STATUS_TEXT[r.latestStatus].label : null,
    })),
  };
}

const pageHref = (q: string, page: number) => {
  const p = new URLSearchParams();
  if (q) p.set("q", q);
  if (page > 1) p.set("page", String(page));
  const qs = p.toString();
  return `/admin/borrowers${qs ? `?${qs}` : ""}`;
};

export default function Borrowers({ loaderData }: Route.ComponentProps) {
  const { filter, rows, total } = loaderData;
  const first = (filter.page - 1) * BORROWER_PAGE_SIZE + 1;
  const last = Math.min(total, filter.page * BORROWER_PAGE_SIZE);
  return (
    <div className="space-y-5">
      <h1 className="text-2xl sm:text-3xl">Borrowers</h1>
      <Form method="get" className="card grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end" role="search">
        <div>
          <label htmlFor="q" className="field-label">
            Search
          </label>
          <input
            id="q"
            name="q"
            type="search"
            className="field-input"
            defaultValue={filter.q}
            aria-describedby="q-hint"
            placeholder="Mobile, name, PAN's last 4, loan number or reference"
          />
          <p id="q-hint" className="mt-1 text-sm text-slate-600">
            10-digit mobile (with or without +91), part of the name, the last 4 characters of the PAN, a loan number (SL…) or an application
            reference (its first 6 characters are enough).
          </p>
        </div>
        <button type="submit" className="btn-primary">
          Search
        </button>
      </Form>
      <p className="text-slate-700" aria-live="polite" data-testid="borrower-count">
        {total === 0
          ? filter.q
            ? "No borrower matches."
            : "No borrowers yet."
          : first > total
            ? `Page ${filter.page} is past the end: there are ${total}.`
            : `Showing ${first}–${last} of ${total}, newest first.`}
      </p>
      {rows.length ? (
        <StaffTable label="Borrowers" minWidth="min-w-[40rem]" columns={["Borrower", "Mobile", "PAN", "Applications", "Member since"]}>
          {rows.map((r) => (
            <tr key={r.id} data-testid="borrower-row">
              <td className="px-3 py-2">
                <Link className="link" to={`/admin/borrowers/${r.id}`}>
                  {staffBorrowerName({ fullName: r.name, mobile: r.mobile })}
                </Link>
              </td>
              <td className="px-3 py-2 tabular-nums">{r.mobile ? `+91 ${r.mobile}` : "—"}</td>
              <td className="px-3 py-2 font-mono">{r.panMasked ?? "—"}</td>
              <td className="px-3 py-2">
                {r.applications}
                {r.latest ? <span className="block text-slate-600">Latest: {r.latest}</span> : null}
              </td>
              <td className="px-3 py-2">{formatDateIST(new Date(r.since))}</td>
            </tr>
          ))}
        </StaffTable>
      ) : null}
      <PageLinks
        prev={filter.page > 1 ? pageHref(filter.q, filter.page - 1) : null}
        next={last < total ? pageHref(filter.q, filter.page + 1) : null}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Borrowers");
