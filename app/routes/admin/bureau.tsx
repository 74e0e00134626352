import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { FormErrors, TextField } from "../../components/field.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { BureauSaidCell, DueCell } from "../../components/bureau-cells.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { BUREAU_NAME, BUREAUS, type Bureau } from "../../domain/bureau/format.ts";
import { makeFilesSchema, NOT_A_FILE_DATE } from "../../domain/bureau/reporting.ts";
import { formatDateTimeIST, longDate, todayIST } from "../../domain/india-date.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { sendCorrections } from "../../server/bureau/corrections.server.ts";
import { makeDateFiles, mayMakeFilesAsOf } from "../../server/bureau/daily.server.ts";
import { bureauOverview } from "../../server/bureau/read.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/bureau";

/**
 * Credit bureau reporting (docs/product.md "Credit bureau reporting"): each reporting date's file
 * for each of the four bureaus, the runs with their counts and downloads, and the rejected records
 * waiting to be sent again. Finance, compliance and administrators read it; finance and
 * administrators make files and send corrections (each audited).
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("bureau.view")];

const HERE = "/admin/bureau";

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const today = todayIST(services.now());
  return { ...(await bureauOverview(services, today)), today, mayManage: can(user.role, "bureau.manage") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = assertCan(context, "bureau.manage");
  const staff = { id: user.id, role: user.role as StaffRole };
  const client = context.get(requestContext);
  const form = await readForm(request);
  const today = todayIST(services.now());
  switch (String(form.get("intent") ?? "")) {
    case "make": {
      const s = parseWithZod(form, { schema: makeFilesSchema });
      if (s.status !== "success") return data({ result: s.reply() }, { status: 400 });
      const asOf = s.value.asOf;
      if (!(await mayMakeFilesAsOf(services, asOf, today)))
        return data({ result: s.reply({ fieldErrors: { asOf: [NOT_A_FILE_DATE] } }) }, { status: 400 });
      const made = await makeDateFiles(services, asOf, { staff, client });
      const held = made.reduce((n, m) => n + m.heldBack, 0);
      return redirectWithToast(
        services.config,
        request,
        HERE,
        made.length
          ? {
              type: "success",
              title: `Made ${made.length} file${made.length === 1 ? "" : "s"} as at ${longDate(asOf)}: ${accountsText(made[0]?.accounts ?? 0)} each${held ? `, ${held} records held back (see each file)` : ""}.`,
            }
          : { type: "success", title: `The files as at ${longDate(asOf)} were made already.` },
      );
    }
    case "corrections": {
      const { made, stuck } = await sendCorrections(services, { staff, client });
      const accounts = made.reduce((n, m) => n + m.accounts, 0);
      const still = stuck.reduce((n, m) => n + m.heldBack, 0);
      const stillText = `${still} record${still === 1 ? "" : "s"} still fail${still === 1 ? "s" : ""} the format's rules: correct them first (each file's page says why).`;
      return redirectWithToast(
        services.config,
        request,
        HERE,
        made.length
          ? {
              type: "success",
              title: `Made ${made.length} correction file${made.length === 1 ? "" : "s"} with ${accounts} record${accounts === 1 ? "" : "s"} sent again.${still ? ` ${stillText}` : ""}`,
            }
          : still
            ? { type: "error", title: `Nothing was sent: ${stillText}` }
            : { type: "success", title: "No rejected record is waiting to be sent again." },
      );
    }
    default:
      throw data({ message: "That is not something this page does." }, { status: 400 });
  }
}

type Data = Route.ComponentProps["loaderData"];

const accountsText = (n: number) => `${n} account${n === 1 ? "" : "s"}`;

function DatesTable({ d }: { d: Data }) {
  return (
    <StaffTable
      label="Reporting dates, table"
      minWidth="min-w-[44rem]"
      columns={["As at", "Due by", ...BUREAUS.map((b) => BUREAU_NAME[b]), "Action"]}
    >
      {d.grid.map((row) => {
        const missing = !row.noLoans && row.files.some((f) => !f.run);
        return (
          <tr key={row.asOf} data-testid={`date-${row.asOf}`}>
            <th scope="row" className="px-3 py-2 text-left font-medium">
              {longDate(row.asOf)}
            </th>
            <DueCell dueBy={row.dueBy} today={d.today} open={missing} />
            {row.files.map((f) => (
              <td key={f.bureau} className="px-3 py-2">
                {f.run ? (
                  <Link className="link" to={`${HERE}/runs/${f.run.id}`}>
                    {accountsText(f.run.accounts)}
                  </Link>
                ) : row.noLoans ? (
                  "No loan to report"
                ) : (
                  <span className="font-medium text-red-800">Not made</span>
                )}
              </td>
            ))}
            <td className="px-3 py-2">
              {missing && d.mayManage ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="make" />
                  <input type="hidden" name="asOf" value={row.asOf} />
                  <button type="submit" className="btn-secondary">
                    Make the files as at {longDate(row.asOf)}
                  </button>
                </Form>
              ) : null}
            </td>
          </tr>
        );
      })}
    </StaffTable>
  );
}

function OtherDateForm({ actionData }: { actionData: Route.ComponentProps["actionData"] }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "make-other",
    schema: makeFilesSchema,
    lastResult: actionData?.result,
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" className="card space-y-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="make" />
      <FormErrors id={form.errorId} errors={formErrors} />
      <TextField
        field={fields.asOf}
        type="date"
        label="Make the files as at another reporting date"
        hint="The 15th or a month's last day, before today, on or after the first loan's disbursal: a date the daily run missed."
      />
      <button type="submit" className="btn-secondary" disabled={busy}>
        Make the files
      </button>
    </Form>
  );
}

function PendingTable({ d }: { d: Data }) {
  return (
    <StaffTable
      label="Rejected records to send again, table"
      minWidth="min-w-[44rem]"
      columns={["Account", "Bureau", "File as at", "What the bureau said", "Send again by"]}
    >
      {d.pending.map((r) => (
        <tr key={r.id} data-testid="pending-rejection">
          <td className="px-3 py-2 font-mono">
            <Link className="link" to={`/admin/loans/${r.accountNumber}`}>
              {r.accountNumber}
            </Link>
          </td>
          <td className="px-3 py-2">{BUREAU_NAME[r.bureau as Bureau]}</td>
          <td className="px-3 py-2">
            <Link className="link" to={`${HERE}/runs/${r.runId}`}>
              {longDate(r.asOf)}
            </Link>
          </td>
          <BureauSaidCell r={r} />
          <DueCell dueBy={r.dueBy} today={d.today} open />
        </tr>
      ))}
    </StaffTable>
  );
}

function RunsTable({ d }: { d: Data }) {
  return (
    <StaffTable
      label="Files made, table"
      minWidth="min-w-[52rem]"
      columns={["Made", "Bureau", "As at", "Kind", "Accounts", "Held back", "Past due or default", "File"]}
    >
      {d.runs.map((r) => (
        <tr key={r.id} data-testid="bureau-run">
          <td className="px-3 py-2">
            {formatDateTimeIST(new Date(r.createdAt))}
            <span className="block text-slate-600">{r.createdBy ?? "Daily run"}</span>
          </td>
          <td className="px-3 py-2">{BUREAU_NAME[r.bureau as Bureau]}</td>
          <td className="px-3 py-2">{longDate(r.asOf)}</td>
          <td className="px-3 py-2">{r.kind === "regular" ? "Regular" : "Correction"}</td>
          <td className="px-3 py-2 text-right tabular-nums">{r.accounts}</td>
          <td className="px-3 py-2 text-right tabular-nums">{r.heldBack}</td>
          <td className="px-3 py-2 text-right tabular-nums">{r.delinquent}</td>
          <td className="px-3 py-2">
            <Link className="link" to={`${HERE}/runs/${r.id}`}>
              Details
            </Link>{" "}
            ·{" "}
            <a className="link break-all" href={`${HERE}/runs/${r.id}/file`} download>
              {r.fileName}
            </a>
          </td>
        </tr>
      ))}
    </StaffTable>
  );
}

export default function BureauReporting({ loaderData: d, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl sm:text-3xl">Credit bureau reporting</h1>
        <p className="max-w-3xl text-slate-700">
          Every loan active in the period, and those closed since the last file, go to TransUnion CIBIL, Equifax, Experian and CRIF High
          Mark as at the 15th and each month's last day, in the uniform consumer credit reporting format. The daily run makes each date's
          files the day after it; they are due within 7 days. A record that fails the format's rules is held back and listed with why. A
          record a bureau rejects is sent again in a correction file within 7 days of importing the rejection.
        </p>
      </div>

      <section aria-labelledby="dates-title" className="space-y-3">
        <h2 id="dates-title" className="text-xl">
          Reporting dates
        </h2>
        <DatesTable d={d} />
        {d.mayManage ? <OtherDateForm actionData={actionData} /> : null}
      </section>

      <section aria-labelledby="pending-title" className="space-y-3">
        <h2 id="pending-title" className="text-xl">
          Rejected records to send again: {d.pending.length}
        </h2>
        {d.pending.length ? <PendingTable d={d} /> : <p className="card">No rejected record is waiting to be sent again.</p>}
        {d.pending.length && d.mayManage ? (
          <Form method="post">
            <input type="hidden" name="intent" value="corrections" />
            <button type="submit" className="btn-primary">
              Send the corrections now
            </button>
          </Form>
        ) : null}
        <p className="text-sm text-slate-700">
          Correct what the bureau names at its source (the borrower's profile) first: each record is read again when it is sent. The daily
          run sends whatever is left when 2 days remain.
        </p>
      </section>

      <section aria-labelledby="runs-title" className="space-y-3">
        <h2 id="runs-title" className="text-xl">
          Files made
        </h2>
        {d.runs.length ? <RunsTable d={d} /> : <p className="card">No file has been made yet.</p>}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Credit bureau reporting");
