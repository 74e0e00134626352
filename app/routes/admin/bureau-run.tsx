import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { z } from "zod";
import { FileField, FormErrors } from "../../components/field.tsx";
import { BureauSaidCell, DueCell } from "../../components/bureau-cells.tsx";
import { PageLinks, StaffTable } from "../../components/staff-table.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { BUREAU_NAME } from "../../domain/bureau/format.ts";
import { MAX_REJECTION_BYTES, RECORDS_PER_PAGE, REJECTION_TOO_LARGE, uploadRejectionsSchema } from "../../domain/bureau/reporting.ts";
import { formatDateTimeIST, longDate, todayIST } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { importRejections } from "../../server/bureau/corrections.server.ts";
import { bureauRun } from "../../server/bureau/read.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import { receiveUpload, uploadedBytes } from "../../web/uploads.server.ts";
import type { Route } from "./+types/bureau-run";

/** One bureau file: its counts, each account it reported or held back, and the bureau's rejections of it (imported here). */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("bureau.view")];

const ASSET_CLASS_TEXT: Record<string, string> = { standard: "Standard", sub_standard: "Sub-standard", doubtful: "Doubtful", loss: "Loss" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const page = z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .catch(1)
    .parse(new URL(request.url).searchParams.get("page") ?? 1);
  const found = await bureauRun(services, params.runId, page);
  if (!found) throw data({ message: "No such bureau file." }, { status: 404 });
  return { ...found, page, today: todayIST(services.now()), mayManage: can(user.role, "bureau.manage") };
}

type ActionData = { result: Parameters<typeof useSchemaForm>[0]["lastResult"] } | undefined;
const invalid = (result: unknown, status = 400) => data({ result: result as NonNullable<ActionData>["result"] }, { status });

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  // Before a byte of the upload is read: only finance and administrators import.
  const { user } = assertCan(context, "bureau.manage");
  const staff = { id: user.id, role: user.role as StaffRole };
  const { file } = await receiveUpload(services, request, MAX_REJECTION_BYTES);
  try {
    const form = new FormData();
    if (file?.tooLarge)
      return invalid(parseWithZod(form, { schema: uploadRejectionsSchema }).reply({ fieldErrors: { file: [REJECTION_TOO_LARGE] } }));
    const bytes = file ? await uploadedBytes(services, file.key) : null;
    if (file && bytes) form.set("file", new File([new Uint8Array(bytes)], file.name));
    const s = parseWithZod(form, { schema: uploadRejectionsSchema });
    if (s.status !== "success" || !bytes) return invalid(s.reply({ hideFields: ["file"] }));
    const done = await importRejections(services, {
      runId: params.runId,
      fileName: s.value.file.name,
      bytes,
      staff,
      client: context.get(requestContext),
    });
    if (!done.ok && done.reason === "not_found") throw data({ message: "No such bureau file." }, { status: 404 });
    if (!done.ok && done.reason === "unreadable")
      return invalid(s.reply({ hideFields: ["file"], fieldErrors: { file: [`Nothing was imported. ${done.message}`] } }));
    if (!done.ok)
      return invalid(
        s.reply({
          hideFields: ["file"],
          formErrors: [`This file was imported already (${formatDateTimeIST(done.importedAt)}): nothing was imported again.`],
        }),
        409,
      );
    return redirectWithToast(services.config, request, `/admin/bureau/runs/${params.runId}`, {
      type: "success",
      title: `Imported ${done.rows} rejected record${done.rows === 1 ? "" : "s"}: send them again by ${longDate(done.dueBy)}.`,
    });
  } finally {
    if (file) await services.storage.remove(file.key);
  }
}

function ImportForm({ actionData }: { actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "rejections",
    schema: uploadRejectionsSchema,
    lastResult: actionData?.result,
    shouldValidate: "onSubmit",
  });
  const file = fields.file;
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <FileField
        field={file}
        label="The bureau's rejection file"
        hint="CSV as in docs/decisions/0006, up to 2 MB. Every row must name an account of this file; the same file is never imported twice."
        accept=".csv,.txt,text/csv,text/plain"
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        Import the rejections
      </button>
    </Form>
  );
}

type Data = Route.ComponentProps["loaderData"];

function RecordsTable({ d }: { d: Data }) {
  return (
    <StaffTable
      label="Accounts in this file, table"
      minWidth="min-w-[52rem]"
      columns={["Account", "Borrower", "Days past due", "Overdue", "Balance", "Asset class", "State"]}
    >
      {d.records.map((r) => (
        <tr key={r.applicationId} data-testid="bureau-record">
          <td className="px-3 py-2 font-mono">
            <Link className="link" to={`/admin/loans/${r.loanNumber}`}>
              {r.loanNumber}
            </Link>
          </td>
          <td className="px-3 py-2">{r.borrower}</td>
          <td className="px-3 py-2 text-right tabular-nums">{r.dpd}</td>
          <td className="px-3 py-2 text-right tabular-nums">{formatRupees(r.overduePaise)}</td>
          <td className="px-3 py-2 text-right tabular-nums">{formatRupees(r.currentBalancePaise)}</td>
          <td className="px-3 py-2">{ASSET_CLASS_TEXT[r.assetClass] ?? r.assetClass}</td>
          <td className="px-3 py-2">
            {r.heldBack ? (
              <span className="font-medium text-red-800">Held back</span>
            ) : r.writtenOff ? (
              "Written off"
            ) : r.closedOn ? (
              `Closed ${longDate(r.closedOn)}`
            ) : (
              "Open"
            )}
            {/* Why it was held back, or what was left out of it to send it. */}
            {r.problems?.length ? (
              <ul className="list-disc pl-5">
                {r.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            ) : null}
          </td>
        </tr>
      ))}
    </StaffTable>
  );
}

function RejectionsTable({ d }: { d: Data }) {
  return (
    <StaffTable
      label="Rejections of this file, table"
      minWidth="min-w-[44rem]"
      columns={["Account", "What the bureau said", "Send again by", "Sent again"]}
    >
      {d.rejections.map((r) => (
        <tr key={r.id} data-testid="rejection">
          <td className="px-3 py-2 font-mono">{r.accountNumber}</td>
          <BureauSaidCell r={r} />
          <DueCell dueBy={r.dueBy} today={d.today} open={!r.resentRunId} />
          <td className="px-3 py-2">
            {r.resentRunId && r.resentAt ? (
              <Link className="link" to={`/admin/bureau/runs/${r.resentRunId}`}>
                In {r.resentFile}, {formatDateTimeIST(new Date(r.resentAt))}
              </Link>
            ) : (
              "Not yet"
            )}
          </td>
        </tr>
      ))}
    </StaffTable>
  );
}

export default function BureauRun({ loaderData: d, actionData }: Route.ComponentProps) {
  const { run } = d;
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <p>
          <Link className="link" to="/admin/bureau">
            Credit bureau reporting
          </Link>
        </p>
        <h1 className="text-2xl sm:text-3xl">
          {BUREAU_NAME[run.bureau]}: {run.kind === "regular" ? "file" : "correction file"} as at {longDate(run.asOf)}
        </h1>
        <p className="text-slate-700">
          Made {formatDateTimeIST(new Date(run.createdAt))} by {run.createdBy ?? "the daily run"}: {run.accounts} accounts, {run.heldBack}{" "}
          held back, {run.delinquent} reporting days past due or a default.
        </p>
        <p>
          <a className="btn-secondary" href={`/admin/bureau/runs/${run.id}/file`} download>
            Download {run.fileName}
          </a>
        </p>
      </div>

      <section aria-labelledby="rejections-title" className="space-y-3">
        <h2 id="rejections-title" className="text-xl">
          The bureau's rejections: {d.rejections.length}
        </h2>
        {d.rejections.length ? <RejectionsTable d={d} /> : <p className="card">No rejection of this file has been imported.</p>}
        {d.imports.length ? (
          <ul className="text-sm text-slate-700">
            {d.imports.map((i) => (
              <li key={`${i.fileName}-${String(i.importedAt)}`}>
                {i.fileName}: {i.rows} rows, imported {formatDateTimeIST(new Date(i.importedAt))} by {i.importedBy}
              </li>
            ))}
          </ul>
        ) : null}
        {d.mayManage ? (
          <div className="card">
            <ImportForm actionData={actionData} />
          </div>
        ) : null}
      </section>

      <section aria-labelledby="records-title" className="space-y-3">
        <h2 id="records-title" className="text-xl">
          Accounts
        </h2>
        {d.records.length ? (
          <RecordsTable d={d} />
        ) : (
          <p className="card">{d.page > 1 ? "This page is past the end." : "This file holds no account."}</p>
        )}
        <PageLinks
          prev={d.page > 1 ? `?page=${d.page - 1}` : null}
          next={d.page * RECORDS_PER_PAGE < d.run.accounts + d.run.heldBack ? `?page=${d.page + 1}` : null}
        />
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Bureau file");
