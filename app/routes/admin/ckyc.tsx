import { data, Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { CKYC_UPLOAD_DAYS } from "../../domain/ckyc.ts";
import { formatDateIST, formatDateTimeIST, longDate, todayIST } from "../../domain/india-date.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { ckycWorklist } from "../../server/ckyc/read.server.ts";
import { retryCkycUpload } from "../../server/ckyc/retry.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/ckyc";

/** CKYC (docs/product.md "CKYC"): uploads due within 10 days of disbursal, late ones first; records uploaded or found. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("ckyc.view")];

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const list = await ckycWorklist(services, { today: todayIST(services.now()) });
  return { ...list, provider: services.ckyc?.name ?? null, mayRetry: can(user.role, "ckyc.manage") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = assertCan(context, "ckyc.manage");
  const form = await readForm(request);
  if (form.get("intent") !== "retry") throw data({ message: "That is not something this page does." }, { status: 400 });
  const done = await retryCkycUpload(services, {
    staff: { id: user.id, role: user.role as StaffRole },
    client: context.get(requestContext),
    userId: String(form.get("userId") ?? ""),
  });
  return redirectWithToast(
    services.config,
    request,
    "/admin/ckyc",
    done.ok
      ? { type: "success", title: "The upload is being tried again now. This page shows the answer in a moment." }
      : { type: "error", title: "Only a failed upload can be tried again." },
  );
}

type Data = Route.ComponentProps["loaderData"];

function Borrower({ r }: { r: { userId: string; name: string | null; mobile: string | null } }) {
  return (
    <Link className="link" to={`/admin/borrowers/${r.userId}`}>
      {staffBorrowerName({ fullName: r.name, mobile: r.mobile })}
    </Link>
  );
}

function Loan({ loanNumber }: { loanNumber: string | null }) {
  return loanNumber ? (
    <Link className="link font-mono" to={`/admin/loans/${loanNumber}`}>
      {loanNumber}
    </Link>
  ) : (
    <span>—</span>
  );
}

function DueRows({ d }: { d: Data }) {
  return (
    <StaffTable
      label="Uploads to make, the earliest due first, table"
      minWidth="min-w-[60rem]"
      columns={["Borrower", "Loan", "Disbursed", "Due by", "Status", "Attempts", "Last error", "Action"]}
    >
      {d.due.map((r) => (
        <tr key={r.userId} data-testid="ckyc-due" className={r.timing.late ? "bg-danger-50" : undefined}>
          <td className="px-3 py-2">
            <Borrower r={r} />
          </td>
          <td className="px-3 py-2">
            <Loan loanNumber={r.loanNumber} />
          </td>
          <td className="px-3 py-2 whitespace-nowrap">{r.disbursalDate ? longDate(r.disbursalDate) : "—"}</td>
          <td className="px-3 py-2 whitespace-nowrap">
            {r.dueBy ? longDate(r.dueBy) : "—"}
            <span className={`block ${r.timing.late ? "font-semibold text-danger-600" : "text-slate-600"}`}>
              {r.timing.late ? `Late: ${r.timing.text}` : r.timing.text}
            </span>
          </td>
          <td className="px-3 py-2">
            {r.status === "failed" ? "Failed" : "Pending"}
            {r.status === "failed" && r.nextAttemptAt ? (
              <span className="block text-slate-600">Next try {formatDateTimeIST(new Date(r.nextAttemptAt))}</span>
            ) : null}
          </td>
          <td className="px-3 py-2 tabular-nums">{r.attempts}</td>
          <td className="px-3 py-2">{r.lastError ?? "—"}</td>
          <td className="px-3 py-2">
            {d.mayRetry && r.status === "failed" ? (
              <Form method="post">
                <input type="hidden" name="intent" value="retry" />
                <input type="hidden" name="userId" value={r.userId} />
                <button className="btn-secondary px-3 py-1 whitespace-nowrap">Try again now</button>
              </Form>
            ) : (
              "—"
            )}
          </td>
        </tr>
      ))}
    </StaffTable>
  );
}

function RecentRows({ d }: { d: Data }) {
  return (
    <StaffTable
      label="Records uploaded or found, table"
      minWidth="min-w-[44rem]"
      columns={["Borrower", "Loan", "CKYC number", "How", "When"]}
    >
      {d.recent.map((r) => (
        <tr key={r.userId} data-testid="ckyc-recent">
          <td className="px-3 py-2">
            <Borrower r={r} />
          </td>
          <td className="px-3 py-2">
            <Loan loanNumber={r.loanNumber} />
          </td>
          <td className="px-3 py-2 font-mono">{r.ckycNumber}</td>
          <td className="px-3 py-2">{r.status === "uploaded" ? "Uploaded by us" : "Found by the search"}</td>
          <td className="px-3 py-2 whitespace-nowrap">
            {r.uploadedAt ? formatDateIST(new Date(r.uploadedAt)) : r.searchedAt ? formatDateIST(new Date(r.searchedAt)) : "—"}
          </td>
        </tr>
      ))}
    </StaffTable>
  );
}

export default function Ckyc({ loaderData: d }: Route.ComponentProps) {
  const late = d.due.filter((r) => r.timing.late).length;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">CKYC</h1>
      <p className="text-slate-700">
        Each borrower's KYC record goes to the central KYC registry (CERSAI) within {CKYC_UPLOAD_DAYS} days of their first loan's disbursal,
        unless the search when they signed found one there. Failed uploads are tried again every hour.
      </p>
      {d.provider ? null : (
        <p className="card font-semibold text-danger-600" role="status">
          No CKYC provider is configured (CKYC_PROVIDER=none): nothing is searched or uploaded, and the uploads below wait.
        </p>
      )}
      <section aria-labelledby="due-title" className="space-y-3">
        <h2 id="due-title">
          Uploads to make: {d.due.length}
          {late ? `, ${late} late` : ""}
        </h2>
        {d.due.length ? <DueRows d={d} /> : <p className="card">No upload is waiting.</p>}
      </section>
      <section aria-labelledby="recent-title" className="space-y-3">
        <h2 id="recent-title">Uploaded or found, latest first: {d.recent.length}</h2>
        {d.recent.length ? <RecentRows d={d} /> : <p className="card">No record uploaded or found yet.</p>}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "CKYC");
