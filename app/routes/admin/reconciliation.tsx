import { getFormProps, getSelectProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { Field, FileField, FormErrors, TextAreaField } from "../../components/field.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import {
  ageText,
  exceptionText,
  LINE_FILTERS,
  type LineFilter,
  MAX_STATEMENT_BYTES,
  REASON_LABEL,
  resolveExceptionSchema,
  STATEMENT_KIND_LABEL,
  STATEMENT_KIND_SHORT,
  STATEMENT_KINDS,
  STATEMENT_TOO_LARGE,
  uploadStatementSchema,
} from "../../domain/books/reconciliation.ts";
import { formatDateTimeIST, longDate, todayIST } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { importStandInStatements, importStatement } from "../../server/reconciliation/import.server.ts";
import { runMatching } from "../../server/reconciliation/match.server.ts";
import { reconciliationView } from "../../server/reconciliation/read.server.ts";
import { resolveException } from "../../server/reconciliation/resolve.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import { receiveUpload, uploadedBytes } from "../../web/uploads.server.ts";
import type { Route } from "./+types/reconciliation";

/**
 * Reconciliation (docs/product.md "The lender's books"): the providers' statements imported and
 * matched line by line to the journals, the exceptions queue with each item's age, and finance's
 * resolutions. Finance, compliance and administrators read it; finance and administrators import
 * and resolve (each audited).
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

const HERE = "/admin/reconciliation";

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const asked = new URL(request.url).searchParams.get("lines");
  const lines: LineFilter = (LINE_FILTERS as readonly string[]).includes(asked ?? "") ? (asked as LineFilter) : "all";
  const today = todayIST(services.now());
  const view = await reconciliationView(services, { today, lines });
  return {
    ...view,
    today,
    filter: lines,
    unmatchedAfterDays: services.config.reconciliation.unmatchedAfterDays,
    mayManage: can(user.role, "books.manage"),
    standIns: Boolean(services.payments.settlementReports || services.payouts.accountStatements),
  };
}

export type ActionData = { key: string; result: Parameters<typeof useSchemaForm>[0]["lastResult"] } | undefined;

const invalid = (key: string, result: unknown, status = 400) =>
  data({ key, result: result as NonNullable<ActionData>["result"] }, { status });

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  // Before a byte of an upload is read: only finance and administrators import or resolve.
  const { user } = assertCan(context, "books.manage");
  const staff = { id: user.id, role: user.role as StaffRole };
  const client = context.get(requestContext);
  if ((request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    const { fields, file } = await receiveUpload(services, request, MAX_STATEMENT_BYTES);
    try {
      const form = new FormData();
      form.set("kind", fields.kind ?? "");
      if (file?.tooLarge)
        return invalid(
          "upload",
          parseWithZod(form, { schema: uploadStatementSchema }).reply({ fieldErrors: { file: [STATEMENT_TOO_LARGE] } }),
        );
      const bytes = file ? await uploadedBytes(services, file.key) : null;
      if (file && bytes) form.set("file", new File([new Uint8Array(bytes)], file.name));
      const s = parseWithZod(form, { schema: uploadStatementSchema });
      if (s.status !== "success" || !bytes) return invalid("upload", s.reply({ hideFields: ["file"] }));
      const done = await importStatement(services, {
        kind: s.value.kind,
        provider: s.value.kind === "gateway_settlement" ? "razorpay" : "razorpayx",
        source: "upload",
        fileName: s.value.file.name,
        bytes,
        staff,
        client,
      });
      if (!done.ok && done.reason === "unreadable")
        return invalid("upload", s.reply({ hideFields: ["file"], fieldErrors: { file: [`Nothing was imported. ${done.message}`] } }));
      if (!done.ok)
        return invalid(
          "upload",
          s.reply({
            hideFields: ["file"],
            formErrors: [
              `This file was imported already (as ${done.fileName}, ${formatDateTimeIST(done.importedAt)}${done.importedBy ? ` by ${done.importedBy}` : ""}): nothing was imported again.`,
            ],
          }),
          409,
        );
      return redirectWithToast(services.config, request, HERE, {
        type: "success",
        title: `Imported ${done.lines} line${done.lines === 1 ? "" : "s"}: ${done.matched} matched, ${done.exceptions} to the exceptions queue${done.duplicates ? `, ${done.duplicates} imported before` : ""}.`,
      });
    } finally {
      if (file) await services.storage.remove(file.key);
    }
  }
  const form = await readForm(request);
  switch (String(form.get("intent") ?? "")) {
    case "resolve": {
      const s = parseWithZod(form, { schema: resolveExceptionSchema });
      if (s.status !== "success") return invalid(`resolve-${String(form.get("exception") ?? "")}`, s.reply());
      const done = await resolveException(services, { staff, client, exceptionId: s.value.exception, note: s.value.note });
      if (!done.ok && done.reason === "not_found") throw data({ message: "No such exception." }, { status: 404 });
      return redirectWithToast(
        services.config,
        request,
        HERE,
        done.ok
          ? { type: "success", title: "Resolved, with your note." }
          : { type: "error", title: "Someone resolved it already: their note is below." },
      );
    }
    case "import_local": {
      const done = await importStandInStatements(services, { staff, client });
      const lines = done.imported.reduce((n, d) => n + (d.result.ok ? d.result.lines : 0), 0);
      const exceptions = done.imported.reduce((n, d) => n + (d.result.ok ? d.result.exceptions : 0), 0);
      return redirectWithToast(
        services.config,
        request,
        HERE,
        !done.available
          ? { type: "error", title: "No stand-in is in use: download the providers' reports and upload them." }
          : done.refused.length
            ? { type: "error", title: `A stand-in's statement could not be read: ${done.refused[0]?.name}.` }
            : done.imported.length
              ? {
                  type: "success",
                  title: `Imported ${done.imported.length} statement${done.imported.length === 1 ? "" : "s"} (${lines} lines, ${exceptions} to the exceptions queue).`,
                }
              : { type: "success", title: "Nothing new: the stand-ins' statements are imported already." },
      );
    }
    case "match": {
      const done = await runMatching(services, { staff, client });
      return redirectWithToast(services.config, request, HERE, {
        type: "success",
        title: `Matching ran: ${done.matched} matched, ${done.raised} new exception${done.raised === 1 ? "" : "s"}, ${done.cleared} cleared.`,
      });
    }
    default:
      throw data({ message: "That is not something this page does." }, { status: 400 });
  }
}

type Data = Route.ComponentProps["loaderData"];
type Exception = Data["open"][number];

const resultFor = (actionData: ActionData, key: string) => (actionData?.key === key ? actionData.result : undefined);

function UploadForm({ actionData }: { actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "upload",
    schema: uploadStatementSchema,
    lastResult: resultFor(actionData, "upload"),
    shouldValidate: "onSubmit",
  });
  const kind = fields.kind;
  const file = fields.file;
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <Field id={kind.id} label="Statement" errors={kind.errors} errorId={kind.errorId}>
        <select {...getSelectProps(kind)} key={kind.key} className="field-input">
          <option value="">Choose…</option>
          {STATEMENT_KINDS.map((k) => (
            <option key={k} value={k}>
              {STATEMENT_KIND_LABEL[k]}
            </option>
          ))}
        </select>
      </Field>
      <FileField
        field={file}
        label="CSV file"
        hint={`Up to ${MAX_STATEMENT_BYTES / 1024 / 1024} MB. The same file is never imported twice.`}
        accept=".csv,text/csv"
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        Import the statement
      </button>
    </Form>
  );
}

function ResolveForm({ e, actionData }: { e: Exception; actionData: ActionData }) {
  const key = `resolve-${e.id}`;
  const lastResult = resultFor(actionData, key);
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: key,
    schema: resolveExceptionSchema,
    lastResult,
    shouldValidate: "onSubmit",
    defaultValue: { exception: e.id },
  });
  return (
    <details className="rounded-lg border border-slate-200 p-3" open={Boolean(lastResult)}>
      <summary className="cursor-pointer font-medium text-brand-700">Resolve with a note</summary>
      <Form method="post" className="mt-3 space-y-3" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <input type="hidden" name="intent" value="resolve" />
        <input type="hidden" name="exception" value={e.id} />
        <TextAreaField
          field={fields.note}
          label="How it was resolved"
          hint="Kept with the exception, with your name and the time, and in the audit log. It cannot be changed after."
          rows={2}
        />
        <button type="submit" className="btn-primary" disabled={busy}>
          Resolve
        </button>
      </Form>
    </details>
  );
}

function ExceptionItem({ e, mayManage, actionData, today }: { e: Exception; mayManage: boolean; actionData: ActionData; today: string }) {
  return (
    <li className="card space-y-3" data-testid="recon-exception">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className="text-lg">
          {REASON_LABEL[e.reason]}: <span className="font-mono text-base break-all">{e.providerRef}</span>
        </h3>
        <p className="money tabular-nums">{formatRupees(e.amountPaise)}</p>
      </div>
      <p>{exceptionText(e)}</p>
      <dl className="grid gap-x-6 gap-y-1 text-sm text-slate-700 sm:grid-cols-2">
        <div>
          <dt className="inline font-medium">Statement: </dt>
          <dd className="inline">{STATEMENT_KIND_SHORT[e.kind]}</dd>
        </div>
        <div>
          <dt className="inline font-medium">{e.side === "books" ? "In the books since: " : "Statement date: "}</dt>
          <dd className="inline">
            {longDate(e.eventDate)} ({ageText(e.eventDate, today)})
          </dd>
        </div>
        {e.fileName ? (
          <div className="sm:col-span-2">
            <dt className="inline font-medium">Line: </dt>
            <dd className="inline break-all">
              row {e.rowNo} of {e.fileName}
            </dd>
          </div>
        ) : null}
        {e.loanNumber ? (
          <div>
            <dt className="inline font-medium">Loan: </dt>
            <dd className="inline">
              <Link className="link font-mono" to={`/admin/loans/${e.loanNumber}`}>
                {e.loanNumber}
              </Link>
            </dd>
          </div>
        ) : null}
      </dl>
      {mayManage ? <ResolveForm e={e} actionData={actionData} /> : null}
    </li>
  );
}

/** A titled section of the page: its table, or a line saying there is nothing. */
function TableSection({ id, title, empty, children }: { id: string; title: string; empty: string | null; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-xl">
        {title}
      </h2>
      {empty === null ? children : <p className="card">{empty}</p>}
    </section>
  );
}

/** Who did it, with when under it. */
const WhoWhen = ({ who, at }: { who: string; at: string }) => (
  <td className="px-3 py-2">
    {who}
    <span className="block text-slate-600">{formatDateTimeIST(new Date(at))}</span>
  </td>
);

const LINE_STATE_TEXT: Record<string, string> = {
  matched: "Matched",
  unmatched: "Exception",
  duplicate: "Imported before",
  not_settled: "Not settled yet",
};
const LINE_FILTER_TEXT: Record<LineFilter, string> = { all: "All", matched: "Matched", unmatched: "Unmatched" };

export default function Reconciliation({ loaderData: d, actionData }: Route.ComponentProps) {
  const g = d.byKind.gateway_settlement;
  const p = d.byKind.payout_statement;
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl sm:text-3xl">Reconciliation</h1>
        <p className="max-w-3xl text-slate-700">
          The gateway's settlement reports and the payout account's statements, matched line by line to the books: the same account,
          provider id and amount, dated on or before the statement. A payment or payout in the books that no statement lists{" "}
          {d.unmatchedAfterDays} days after its date joins the exceptions queue, as does every statement line that matches nothing.
        </p>
      </div>

      <section aria-labelledby="summary-title" className="space-y-3">
        <h2 id="summary-title" className="text-xl">
          Where things stand
        </h2>
        <ul className="grid gap-3 sm:grid-cols-3">
          {[
            { label: "Gateway settlement lines", value: `${g.matched} matched, ${g.unmatched} unmatched`, id: "gateway-lines" },
            { label: "Payout statement lines", value: `${p.matched} matched, ${p.unmatched} unmatched`, id: "payout-lines" },
            { label: "Exceptions open", value: String(d.openCount), id: "open-exceptions" },
          ].map((c) => (
            <li key={c.id} className="card">
              <p className="text-sm text-slate-700">{c.label}</p>
              <p className="text-lg font-semibold tabular-nums" data-testid={c.id}>
                {c.value}
              </p>
            </li>
          ))}
        </ul>
        <StaffTable
          label="Ageing of what is not reconciled, table"
          minWidth="min-w-[36rem]"
          columns={["Age", "Exceptions open", "Amount", "In the books, on no statement yet", "Amount"]}
        >
          {d.ageing.map((b) => (
            <tr key={b.key} data-testid={`ageing-${b.key}`}>
              <th scope="row" className="px-3 py-2 text-left font-medium">
                {b.label}
              </th>
              <td className="px-3 py-2 text-right tabular-nums">{b.exceptions.count}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatRupees(b.exceptions.paise)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{b.awaiting.count}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatRupees(b.awaiting.paise)}</td>
            </tr>
          ))}
        </StaffTable>
      </section>

      {d.mayManage ? (
        <section aria-labelledby="import-title" className="card space-y-4">
          <h2 id="import-title" className="text-xl">
            Import a statement
          </h2>
          <p className="text-slate-700">
            Export the report as CSV from the provider's dashboard: Razorpay's settlement recon report for the gateway, RazorpayX's account
            statement for payouts. A settlement is journalled as it is imported: the bank, the fees and their GST against the gateway
            clearing account.
          </p>
          <UploadForm actionData={actionData} />
          <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-4">
            {d.standIns ? (
              <Form method="post">
                <input type="hidden" name="intent" value="import_local" />
                <button type="submit" className="btn-secondary">
                  Import the stand-ins' latest statements
                </button>
              </Form>
            ) : null}
            <Form method="post">
              <input type="hidden" name="intent" value="match" />
              <button type="submit" className="btn-secondary">
                Match again now
              </button>
            </Form>
          </div>
        </section>
      ) : null}

      <section aria-labelledby="queue-title" className="space-y-3">
        <h2 id="queue-title" className="text-xl">
          Exceptions queue: {d.openCount}
        </h2>
        {d.open.length ? (
          <ul className="space-y-3">
            {d.open.map((e) => (
              <ExceptionItem key={e.id} e={e} mayManage={d.mayManage} actionData={actionData} today={d.today} />
            ))}
          </ul>
        ) : (
          <p className="card">No exception is open.</p>
        )}
        {d.openCount > d.open.length ? <p className="text-slate-700">The oldest {d.open.length} are shown.</p> : null}
      </section>

      <section aria-labelledby="lines-title" className="space-y-3">
        <h2 id="lines-title" className="text-xl">
          Statement lines
        </h2>
        <nav aria-label="Which lines" className="flex flex-wrap gap-2">
          {LINE_FILTERS.map((f) => (
            <Link
              key={f}
              to={f === "all" ? HERE : `${HERE}?lines=${f}`}
              className={f === d.filter ? "btn-primary" : "btn-secondary"}
              aria-current={f === d.filter ? "page" : undefined}
            >
              {LINE_FILTER_TEXT[f]}
            </Link>
          ))}
        </nav>
        {d.lines.length ? (
          <StaffTable
            label="Statement lines, newest import first, table"
            minWidth="min-w-[60rem]"
            columns={["Statement", "Line", "Id", "Date", "Gross", "Fees and GST", "Net", "Settlement or UTR", "State"]}
          >
            {d.lines.map((l) => (
              <tr key={l.id} data-testid="statement-line">
                <td className="px-3 py-2">
                  {STATEMENT_KIND_SHORT[l.kind]}
                  <span className="block text-xs break-all text-slate-600">
                    {l.fileName}, row {l.rowNo}
                  </span>
                </td>
                <td className="px-3 py-2">{l.lineType.replaceAll("_", " ")}</td>
                <td className="px-3 py-2 font-mono text-xs break-all">{l.providerRef}</td>
                <td className="px-3 py-2 whitespace-nowrap">{l.valueDate ? longDate(l.valueDate) : "–"}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatRupees(l.grossPaise)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatRupees(l.feesPaise)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatRupees(l.netPaise)}</td>
                <td className="px-3 py-2 font-mono text-xs break-all">{l.settlement ?? "–"}</td>
                <td className="px-3 py-2">
                  {LINE_STATE_TEXT[l.state] ?? l.state}
                  {l.loanNumber ? (
                    <Link className="link block font-mono text-xs" to={`/admin/loans/${l.loanNumber}`}>
                      {l.loanNumber}
                    </Link>
                  ) : null}
                </td>
              </tr>
            ))}
          </StaffTable>
        ) : (
          <p className="card">No statement line is {d.filter === "all" ? "imported yet" : d.filter}.</p>
        )}
      </section>

      <TableSection id="imports-title" title="Imports" empty={d.imports.length ? null : "No statement has been imported yet."}>
        <StaffTable
          label="Statements imported, newest first, table"
          minWidth="min-w-[48rem]"
          columns={["Statement", "File", "Dates", "Lines", "Imported"]}
        >
          {d.imports.map((i) => (
            <tr key={i.id} data-testid="statement-import">
              <td className="px-3 py-2">
                {STATEMENT_KIND_SHORT[i.kind]}
                <span className="block text-xs text-slate-600">{i.source === "stand_in" ? "local stand-in" : i.provider}</span>
              </td>
              <td className="px-3 py-2 break-all">{i.fileName}</td>
              <td className="px-3 py-2 whitespace-nowrap">
                {i.firstDate ? longDate(i.firstDate) : "–"}
                {i.lastDate && i.lastDate !== i.firstDate ? ` to ${longDate(i.lastDate)}` : ""}
              </td>
              <td className="px-3 py-2 tabular-nums">
                {i.lineCount}: {i.matched} matched, {i.unmatched} unmatched
                {i.duplicate ? `, ${i.duplicate} not matched again` : ""}
              </td>
              <WhoWhen who={i.importer ?? "–"} at={i.importedAt} />
            </tr>
          ))}
        </StaffTable>
      </TableSection>

      <TableSection id="resolved-title" title="Resolved lately" empty={d.resolved.length ? null : "No exception has been resolved yet."}>
        <StaffTable
          label="Exceptions resolved, newest first, table"
          minWidth="min-w-[48rem]"
          columns={["Exception", "Amount", "Why it is resolved", "By, when"]}
        >
          {d.resolved.map((r) => (
            <tr key={r.id} data-testid="resolved-exception" className="align-top">
              <td className="px-3 py-2">
                {REASON_LABEL[r.reason]}
                <span className="block font-mono text-xs break-all text-slate-600">{r.providerRef}</span>
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{formatRupees(r.amountPaise)}</td>
              <td className="px-3 py-2">{r.resolution}</td>
              <WhoWhen who={r.resolver ?? "Matching, when the other side turned up"} at={r.resolvedAt} />
            </tr>
          ))}
        </StaffTable>
      </TableSection>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Reconciliation");
