import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { FileField, FormErrors, SelectField, TextAreaField, TextField } from "../../components/field.tsx";
import { type KeyedActionData, resultFor, useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import {
  decideMatchSchema,
  LIST_TOO_LARGE,
  loadListSchema,
  MAX_LIST_BYTES,
  REPORT_WITHIN_HOURS,
  reportMatchSchema,
} from "../../domain/aml/forms.ts";
import { LIST_NAME, type ListSource, MATCH_THRESHOLD } from "../../domain/aml/sanctions.ts";
import { formatDateTimeIST, longDate } from "../../domain/india-date.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { decideMatch, markReported } from "../../server/aml/decide.server.ts";
import { loadList } from "../../server/aml/lists.server.ts";
import { amlOverview } from "../../server/aml/read.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { invalidForm, readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import { receiveUpload, uploadedBytes } from "../../web/uploads.server.ts";
import type { Route } from "./+types/aml";

/**
 * Sanctions screening (docs/product.md "Sanctions screening"): the lists in force and their loading,
 * the possible matches to clear or confirm, the confirmed ones to report to FIU-IND within 24 hours.
 * Compliance and administrators only: no one else, staff or borrower, sees any of it.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("aml.view")];

const HERE = "/admin/aml";

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  return { ...(await amlOverview(services)), now: services.now().toISOString(), mayManage: can(user.role, "aml.manage") };
}

const DECIDED: Record<string, string> = {
  not_found: "There is no such match.",
  decided_already: "A colleague decided this match already: see it below.",
  not_confirmed: "Only a confirmed match is reported.",
  reported_already: "This match was reported already.",
};

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = assertCan(context, "aml.manage");
  const staff = { id: user.id, role: user.role as StaffRole };
  const client = context.get(requestContext);
  if ((request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    const { fields, file } = await receiveUpload(services, request, MAX_LIST_BYTES);
    try {
      const form = new FormData();
      form.set("source", fields.source ?? "");
      if (file?.tooLarge)
        return invalidForm("load", parseWithZod(form, { schema: loadListSchema }).reply({ fieldErrors: { file: [LIST_TOO_LARGE] } }));
      const bytes = file ? await uploadedBytes(services, file.key) : null;
      if (file && bytes) form.set("file", new File([new Uint8Array(bytes)], file.name));
      const s = parseWithZod(form, { schema: loadListSchema });
      if (s.status !== "success" || !bytes) return invalidForm("load", s.reply({ hideFields: ["file"] }));
      let text: string;
      try {
        // Bytes that are not UTF-8 would turn names into replacement marks: refused instead.
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        return invalidForm(
          "load",
          s.reply({ hideFields: ["file"], fieldErrors: { file: ["Nothing was loaded: the file is not UTF-8 text."] } }),
        );
      }
      const done = await loadList(services, {
        source: s.value.source,
        fileName: s.value.file.name,
        text,
        by: { staff, client },
      });
      if (!done.ok && done.reason === "unreadable")
        return invalidForm("load", s.reply({ hideFields: ["file"], fieldErrors: { file: [`Nothing was loaded. ${done.message}`] } }));
      return redirectWithToast(
        services.config,
        request,
        HERE,
        done.ok
          ? {
              type: "success",
              title: `Loaded ${done.persons} entries of the ${LIST_NAME[s.value.source]}: every borrower is being screened again.`,
            }
          : { type: "success", title: "This file was loaded already: nothing changed." },
      );
    } finally {
      if (file) await services.storage.remove(file.key);
    }
  }
  const form = await readForm(request);
  switch (String(form.get("intent") ?? "")) {
    case "decide": {
      const s = parseWithZod(form, { schema: decideMatchSchema });
      if (s.status !== "success") return invalidForm(`decide-${String(form.get("match") ?? "")}`, s.reply());
      const done = await decideMatch(services, { matchId: s.value.match, decision: s.value.decision, note: s.value.note, staff, client });
      return redirectWithToast(
        services.config,
        request,
        HERE,
        done.ok
          ? s.value.decision === "cleared"
            ? { type: "success", title: "Cleared: a different person. The loan may be paid out." }
            : {
                type: "success",
                title: `Confirmed: the borrower's account is frozen. Report it to FIU-IND within ${REPORT_WITHIN_HOURS} hours: its report is drafted.`,
              }
          : { type: "error", title: DECIDED[done.reason] ?? "That could not be done." },
      );
    }
    case "report": {
      const s = parseWithZod(form, { schema: reportMatchSchema });
      if (s.status !== "success") return invalidForm(`report-${String(form.get("match") ?? "")}`, s.reply());
      const done = await markReported(services, { matchId: s.value.match, reference: s.value.reference, staff, client });
      return redirectWithToast(
        services.config,
        request,
        HERE,
        done.ok
          ? { type: "success", title: "Marked reported, with its reference." }
          : { type: "error", title: DECIDED[done.reason] ?? "That could not be done." },
      );
    }
    default:
      throw data({ message: "That is not something this page does." }, { status: 400 });
  }
}

type Data = Route.ComponentProps["loaderData"];
type Match = Data["possible"][number];

function LoadForm({ actionData }: { actionData: KeyedActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "load",
    schema: loadListSchema,
    lastResult: resultFor(actionData, "load"),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <SelectField field={fields.source} label="List" options={LIST_NAME} />
      <FileField
        field={fields.file}
        label="The list's file"
        hint="The UN's consolidated list as XML; a national list as the CSV docs/decisions/0007 names. Up to 20 MB; the same file twice is one version."
        accept=".xml,.csv,text/xml,text/csv"
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        Load the list and screen every borrower again
      </button>
    </Form>
  );
}

function DecideForm({ m, actionData }: { m: Match; actionData: KeyedActionData }) {
  const key = `decide-${m.id}`;
  const lastResult = resultFor(actionData, key);
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: key,
    schema: decideMatchSchema,
    lastResult,
    shouldValidate: "onSubmit",
    defaultValue: { match: m.id },
  });
  return (
    <Form method="post" className="space-y-3" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="decide" />
      <input type="hidden" name="match" value={m.id} />
      <SelectField
        field={fields.decision}
        label="Decision"
        options={{ cleared: "Clear: a different person", confirmed: "Confirm: the listed person (freezes the account)" }}
      />
      <TextAreaField
        field={fields.note}
        label="How you decided"
        hint="Kept with the match and in the audit log; it cannot be changed after."
        rows={2}
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        Record the decision
      </button>
    </Form>
  );
}

function ReportForm({ m, actionData }: { m: Match; actionData: KeyedActionData }) {
  const key = `report-${m.id}`;
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: key,
    schema: reportMatchSchema,
    lastResult: resultFor(actionData, key),
    shouldValidate: "onSubmit",
    defaultValue: { match: m.id },
  });
  return (
    <Form method="post" className="space-y-3" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="report" />
      <input type="hidden" name="match" value={m.id} />
      <TextField field={fields.reference} label="FIU-IND report reference" />
      <button type="submit" className="btn-secondary" disabled={busy}>
        Mark reported
      </button>
    </Form>
  );
}

function MatchItem({ m, d, actionData }: { m: Match; d: Data; actionData: KeyedActionData }) {
  const due = m.decidedAt ? new Date(new Date(m.decidedAt).getTime() + REPORT_WITHIN_HOURS * 3600_000) : null;
  return (
    <li className="card space-y-3" data-testid={`aml-${m.status}`}>
      <h3 className="text-lg">
        <Link className="link" to={`/admin/borrowers/${m.userId}`}>
          {m.borrower}
        </Link>{" "}
        (born {m.dateOfBirth ? longDate(m.dateOfBirth) : "not known"}) and {m.listedName}
      </h3>
      <p>
        Score {(m.scoreMilli / 1000).toFixed(2)} (a possible match from {MATCH_THRESHOLD.toFixed(2)}). {m.why}
      </p>
      <p className="text-sm text-slate-700">Found {formatDateTimeIST(new Date(m.foundAt))}.</p>
      {m.status === "confirmed" ? (
        <p>
          Confirmed by {m.decidedBy} {m.decidedAt ? formatDateTimeIST(new Date(m.decidedAt)) : ""}: {m.note}{" "}
          {m.reportedAt ? (
            <>
              Reported to FIU-IND {formatDateTimeIST(new Date(m.reportedAt))}, reference {m.reportReference}.
            </>
          ) : (
            <strong className={due && due.toISOString() < d.now ? "text-red-800" : ""}>
              Report to FIU-IND by {due ? formatDateTimeIST(due) : "—"}
              {due && due.toISOString() < d.now ? " (late)" : ""}.
            </strong>
          )}
        </p>
      ) : null}
      {m.strReference ? (
        <p>
          Its suspicious-transaction report:{" "}
          <Link className="link font-mono" to={`/admin/aml/reports/${m.strReference}`}>
            {m.strReference}
          </Link>
        </p>
      ) : null}
      {d.mayManage && m.status === "possible" ? <DecideForm m={m} actionData={actionData} /> : null}
      {d.mayManage && m.status === "confirmed" && !m.reportedAt ? <ReportForm m={m} actionData={actionData} /> : null}
    </li>
  );
}

export default function Aml({ loaderData: d, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl sm:text-3xl">Sanctions screening</h1>
        <p className="max-w-3xl text-slate-700">
          Every borrower is screened by name and date of birth against the lists in force when they sign an application, before any
          disbursal when a list changed since, and all of them again whenever a list is loaded. A possible match stops the disbursal until
          you clear or confirm it; a confirmed match freezes the account (no disbursal, no refund out) and is reported to FIU-IND within{" "}
          {REPORT_WITHIN_HOURS} hours. No one outside compliance and administrators sees this page or its results.
        </p>
        <p>
          <Link className="link" to="/admin/aml/reports">
            Suspicious-transaction reports to FIU-IND
          </Link>
        </p>
      </div>
      <section aria-labelledby="lists-title" className="card space-y-3">
        <h2 id="lists-title" className="text-xl">
          Lists in force
        </h2>
        {d.lists.length ? (
          <ul className="space-y-1">
            {d.lists.map((l) => (
              <li key={l.id}>
                {LIST_NAME[l.source as ListSource]}: {l.personCount} entries from {l.fileName}, loaded{" "}
                {formatDateTimeIST(new Date(l.loadedAt))}
              </li>
            ))}
          </ul>
        ) : (
          <p>No list is loaded: nobody can be screened until one is.</p>
        )}
        <p className="text-sm text-slate-700">{d.screened === 1 ? "1 borrower screened." : `${d.screened} borrowers screened.`}</p>
        {d.mayManage ? <LoadForm actionData={actionData} /> : null}
      </section>
      <section aria-labelledby="possible-title" className="space-y-3">
        <h2 id="possible-title" className="text-xl">
          Possible matches to decide: {d.counts.possible}
        </h2>
        {d.possible.length ? (
          <ul className="space-y-3">
            {d.possible.map((m) => (
              <MatchItem key={m.id} m={m} d={d} actionData={actionData} />
            ))}
          </ul>
        ) : (
          <p className="card">No possible match is waiting.</p>
        )}
      </section>
      <section aria-labelledby="confirmed-title" className="space-y-3">
        <h2 id="confirmed-title" className="text-xl">
          Confirmed matches (frozen accounts): {d.counts.confirmed}
        </h2>
        {d.confirmed.length ? (
          <ul className="space-y-3">
            {d.confirmed.map((m) => (
              <MatchItem key={m.id} m={m} d={d} actionData={actionData} />
            ))}
          </ul>
        ) : (
          <p className="card">No confirmed match.</p>
        )}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Sanctions screening");
