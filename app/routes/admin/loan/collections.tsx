import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { StaffTable } from "../../../components/staff-table.tsx";
import { FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { useSchemaForm } from "../../../components/use-schema-form.ts";
import {
  assignSchema,
  PAUSE_KINDS,
  PROMISE_MAX_DAYS,
  PROMISE_STATUS_TEXT,
  pauseSchema,
  promiseSchema,
} from "../../../domain/collections.ts";
import { formatDateTimeIST, longDate } from "../../../domain/india-date.ts";
import { addDays } from "../../../domain/loan-math.ts";
import { formatRupees } from "../../../domain/money.ts";
import type { ActionData, Data } from "../loan.tsx";

// The loan's collections case on the staff loan page (docs/product.md "Collections"): who works it,
// its age and priority, its reminders, promises and call tasks, and the forms that work it.

type Case = NonNullable<Data["collectionCase"]>;

const resultFor = (actionData: ActionData, key: string) =>
  actionData && "key" in actionData && actionData.key === key
    ? (actionData.result as Parameters<typeof useSchemaForm>[0]["lastResult"])
    : undefined;

const CLOSED_TEXT: Record<string, string> = {
  cured: "back to 0 days past due",
  closed: "the loan closed",
  written_off: "the loan was written off",
};
const CHANNEL_TEXT: Record<string, string> = { sms: "SMS", push: "push", email: "e-mail", letter: "letter (PDF)" };

export function CaseSection({ d, c, actionData }: { d: Data; c: Case; actionData: ActionData }) {
  const may = d.may.collections && c.open;
  return (
    <section className="card space-y-4" aria-labelledby="case-title">
      <h2 id="case-title" className="text-xl">
        Collections case
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-600">Status</dt>
        <dd data-testid="case-status">
          {c.open
            ? `Open since ${longDate(c.openedOn)}, ${c.ageDays} days`
            : `Closed on ${longDate(c.closedOn ?? c.openedOn)}: ${CLOSED_TEXT[c.closedReason ?? ""] ?? ""}`}
        </dd>
        <dt className="text-slate-600">Priority</dt>
        <dd data-testid="case-priority">{c.priority === "high" ? "High: a promise was broken" : "Normal"}</dd>
        <dt className="text-slate-600">Worked by</dt>
        <dd data-testid="case-assignee">{c.assignee?.name ?? "Nobody yet"}</dd>
        <dt className="text-slate-600">Reminders</dt>
        <dd data-testid="case-reminders">
          {c.pause
            ? `Paused (${PAUSE_KINDS[c.pause.kind as keyof typeof PAUSE_KINDS] ?? c.pause.kind}) by ${c.pause.by ?? "staff"} on ${formatDateTimeIST(new Date(c.pause.at))}: ${c.pause.reason}`
            : "By the dunning rules"}
        </dd>
      </dl>

      <h3 className="text-base font-semibold">Promises to pay</h3>
      {c.promises.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <StaffTable
          label="Promises to pay, newest first"
          minWidth="min-w-[36rem]"
          columns={["Amount", "By", "Made on", "Made by", "Status"]}
          framed={false}
        >
          {c.promises.map((p) => (
            <tr key={p.id}>
              <td className="px-3 py-2 tabular-nums">{formatRupees(p.amountPaise)}</td>
              <td className="px-3 py-2">{longDate(p.dueOn)}</td>
              <td className="px-3 py-2">{longDate(p.madeOn)}</td>
              <td className="px-3 py-2">{p.by}</td>
              <td className="px-3 py-2" data-testid="promise-status">
                {PROMISE_STATUS_TEXT[p.status]}
              </td>
            </tr>
          ))}
        </StaffTable>
      )}

      <h3 className="text-base font-semibold">Call tasks</h3>
      {c.tasks.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul className="space-y-1" data-testid="case-tasks">
          {c.tasks.map((t) => (
            <li key={t.id}>
              {t.status === "open"
                ? `Call the borrower from ${longDate(t.dueOn)}, ${t.assignee}.`
                : t.status === "done"
                  ? `Called from ${longDate(t.dueOn)}: done, ${t.assignee}.`
                  : `Call from ${longDate(t.dueOn)}: no longer needed, ${t.assignee}.`}
              {t.stepDpd ? <span className="text-sm text-slate-600"> (the day {t.stepDpd} rule)</span> : null}
            </li>
          ))}
        </ul>
      )}

      <h3 className="text-base font-semibold">Reminders sent</h3>
      {c.sends.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <ul className="space-y-1" data-testid="case-sends">
          {c.sends.map((s) => (
            <li key={s.id}>
              {s.channels.length
                ? `Day ${s.stepDpd}, ${longDate(s.sentOn)}: ${s.channels.map((x) => CHANNEL_TEXT[x] ?? x).join(", ")}, for ${formatRupees(s.amountPaise)} overdue with penal charges.`
                : `Day ${s.stepDpd}, ${longDate(s.sentOn)}: a call task only.`}
            </li>
          ))}
        </ul>
      )}

      {may ? (
        <div className="grid gap-6 lg:grid-cols-3">
          {/* Keyed by the newest promise: once one is saved the form starts empty again. */}
          <PromiseForm key={c.promises[0]?.id ?? "none"} d={d} actionData={actionData} />
          <AssignForm d={d} c={c} actionData={actionData} />
          <PauseForm c={c} actionData={actionData} />
        </div>
      ) : null}
    </section>
  );
}

function PromiseForm({ d, actionData }: { d: Data; actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "promise",
    schema: promiseSchema(d.today),
    lastResult: resultFor(actionData, "promise"),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <h4 className="font-semibold">Promise to pay, after a call</h4>
      <input type="hidden" name="intent" value="promise" />
      <FormErrors id={form.errorId} errors={formErrors} />
      <TextField field={fields.amount} label="Amount (₹)" inputMode="decimal" />
      <TextField
        field={fields.dueOn}
        label={`By (up to ${PROMISE_MAX_DAYS} days ahead)`}
        type="date"
        min={d.today}
        max={addDays(d.today, PROMISE_MAX_DAYS)}
      />
      <button className="btn-secondary" disabled={busy}>
        Save the promise
      </button>
    </Form>
  );
}

function AssignForm({ d, c, actionData }: { d: Data; c: Case; actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "assign_case",
    schema: assignSchema,
    lastResult: resultFor(actionData, "assign_case"),
    shouldValidate: "onSubmit",
  });
  const options = Object.fromEntries(d.workers.map((w) => [w.id, `${w.name ?? "Unnamed"}${w.id === d.me ? " (you)" : ""}`]));
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <h4 className="font-semibold">{c.assignee ? "Give the case to someone else" : "Give the case to someone"}</h4>
      <input type="hidden" name="intent" value="assign_case" />
      <FormErrors id={form.errorId} errors={formErrors} />
      <SelectField field={fields.assignee} label="Who works it" options={options} />
      <button className="btn-secondary" disabled={busy}>
        Assign
      </button>
    </Form>
  );
}

function PauseForm({ c, actionData }: { c: Case; actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "pause_dunning",
    schema: pauseSchema,
    lastResult: resultFor(actionData, "pause_dunning"),
    shouldValidate: "onSubmit",
  });
  if (c.pause)
    return (
      <Form method="post" className="space-y-3">
        <h4 className="font-semibold">Reminders are paused</h4>
        <input type="hidden" name="intent" value="resume_dunning" />
        <button className="btn-secondary">Resume reminders</button>
      </Form>
    );
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <h4 className="font-semibold">Pause reminders</h4>
      <input type="hidden" name="intent" value="pause_dunning" />
      <FormErrors id={form.errorId} errors={formErrors} />
      <SelectField field={fields.kind} label="Why" options={PAUSE_KINDS} />
      <TextField field={fields.reason} label="What the borrower said" />
      <button className="btn-secondary" disabled={busy}>
        Pause reminders
      </button>
    </Form>
  );
}
