import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { z } from "zod";
import { requestContext, servicesContext } from "../../context.ts";
import { strDraftSchema } from "../../domain/aml/forms.ts";
import { fromIstDateTimeInput, istDateTimeInput, longDate, todayIST } from "../../domain/india-date.ts";
import type { StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { draftReport } from "../../server/aml/str.server.ts";
import { borrowerDetails, searchBorrowers } from "../../server/borrowers/read.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { invalidForm, readForm } from "../../web/forms.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import { DraftForm, ReportsLink } from "./aml-report/forms.tsx";
import type { KeyedActionData } from "../../components/use-schema-form.ts";
import type { Route } from "./+types/aml-report-new";

/**
 * Drafting a suspicious-transaction report (docs/product.md "Suspicious-transaction reports"): the
 * borrower chosen (from their page, or found here by mobile, PAN's last 4 or name), then when the
 * suspicion arose, the period of transactions and the grounds. Compliance and administrators only.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("aml.manage")];

const querySchema = z.object({
  q: z
    .string()
    .trim()
    .transform((v) => v.slice(0, 100))
    .catch(""),
  borrower: z.uuid().nullable().catch(null),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const { q, borrower } = querySchema.parse({ q: params.get("q") ?? "", borrower: params.get("borrower") });
  const now = services.now();
  const chosen = borrower ? await borrowerDetails(services, borrower) : null;
  if (borrower && !chosen) throw data({ message: "There is no such borrower." }, { status: 404 });
  const found = !chosen && q ? (await searchBorrowers(services, { q, page: 1 })).rows : [];
  return {
    q,
    found: found.map((r) => ({ id: r.id, name: r.name, mobile: r.mobile, panMasked: r.panMasked })),
    chosen: chosen
      ? {
          id: chosen.person.id,
          name: chosen.person.name,
          mobile: chosen.person.mobile,
          panMasked: chosen.person.panMasked,
          dateOfBirth: chosen.person.dateOfBirth,
          // The whole history by default: from the day the account was opened (never after today).
          since: [todayIST(chosen.person.createdAt), todayIST(now)].sort()[0] as string,
        }
      : null,
    defaults: { suspectedAt: istDateTimeInput(now), periodTo: todayIST(now) },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const s = parseWithZod(await readForm(request), { schema: strDraftSchema });
  const invalid = (result: unknown) => invalidForm("draft", result);
  if (s.status !== "success") return invalid(s.reply());
  const { borrower, suspectedAt, ...rest } = s.value;
  const drafted = await draftReport(services, {
    userId: borrower,
    content: { ...rest, suspectedAt: fromIstDateTimeInput(suspectedAt) ?? new Date(Number.NaN) },
    by: { staff: { id: user.id, role: user.role as StaffRole }, client: context.get(requestContext) },
  });
  if (!drafted.ok)
    return invalid(
      drafted.reason === "future_suspicion"
        ? s.reply({ fieldErrors: { suspectedAt: ["The suspicion cannot arise later than now"] } })
        : s.reply({ fieldErrors: { borrower: ["There is no such borrower: search again"] } }),
    );
  return redirectWithToast(services.config, request, `/admin/aml/reports/${drafted.reference}`, {
    type: "success",
    title: drafted.already
      ? `This draft was saved already as ${drafted.reference}.`
      : `Drafted ${drafted.reference}: a colleague who did not write it reviews it next.`,
  });
}

export default function NewReport({ loaderData: d, actionData }: Route.ComponentProps) {
  const c = d.chosen;
  return (
    <div className="space-y-6">
      <ReportsLink />
      <h1 className="text-2xl sm:text-3xl">Draft a suspicious-transaction report</h1>
      {c ? (
        <section aria-labelledby="borrower-title" className="card space-y-4">
          <h2 id="borrower-title" className="text-xl">
            {c.name ?? "A borrower without a KYC profile"}
          </h2>
          <p className="text-slate-700">
            Mobile {c.mobile ?? "none"}, PAN {c.panMasked ?? "none"}, born {c.dateOfBirth ? longDate(c.dateOfBirth) : "not known"}.{" "}
            <Link className="link" to="/admin/aml/reports/new">
              Choose another borrower
            </Link>
          </p>
          <DraftForm
            key={c.id}
            borrower={c.id}
            defaults={{ suspectedAt: d.defaults.suspectedAt, periodFrom: c.since, periodTo: d.defaults.periodTo }}
            actionData={actionData as KeyedActionData}
          />
        </section>
      ) : (
        <section aria-labelledby="find-title" className="card space-y-4">
          <h2 id="find-title" className="text-xl">
            Whom is it about?
          </h2>
          <Form method="get" className="flex flex-wrap items-end gap-3">
            <div className="min-w-0 grow">
              <label htmlFor="q" className="field-label">
                Mobile number, PAN's last 4 or name
              </label>
              <input id="q" name="q" defaultValue={d.q} className="field-input" maxLength={100} autoComplete="off" />
            </div>
            <button type="submit" className="btn-secondary">
              Find
            </button>
          </Form>
          {d.q ? (
            d.found.length ? (
              <ul className="divide-y divide-slate-200">
                {d.found.map((b) => (
                  <li key={b.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <span>
                      {b.name ?? "No KYC profile"} · {b.mobile ?? "no mobile"} · PAN {b.panMasked ?? "none"}
                    </span>
                    <Link className="link" to={`/admin/aml/reports/new?borrower=${b.id}`}>
                      Report about {b.name ?? "this borrower"}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p>No borrower matches “{d.q}”.</p>
            )
          ) : null}
        </section>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Draft a suspicious-transaction report");
