import { getFormProps, getTextareaProps } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import { Field, FormErrors, SelectField, TextAreaField } from "../../../components/field.tsx";
import { ApproveArea, type ApproveState } from "../../../components/review-approve.tsx";
import { useSchemaForm } from "../../../components/use-schema-form.ts";
import { DOCUMENT_KINDS } from "../../../domain/kyc/documents.ts";
import { askSchema, CHECKLIST, CHECKLIST_ITEMS, REJECTION_REASONS, rejectSchema } from "../../../domain/review.ts";
import { formatDateTimeIST } from "../../../domain/india-date.ts";
import type { ActionData, Data } from "../application.tsx";

// The review page's decision column: take the application, tick the checklist, ask the borrower, approve or reject.

export function TakeBar({ data: d }: { data: Data }) {
  const a = d.found.application;
  if (!d.mayDecide) return <p className="text-sm text-slate-600">Your role can read this application; credit officers decide it.</p>;
  if (a.status === "signed") {
    return (
      <Form method="post">
        <button className="btn-primary" name="intent" value="take">
          Take for review
        </button>
      </Form>
    );
  }
  if (a.status === "under_review" && a.assignedTo !== d.me) {
    return (
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <span>{d.found.assigneeName ?? "Another officer"} is reviewing this application.</span>
        <button className="btn-secondary" name="intent" value="take_over">
          Take over
        </button>
      </Form>
    );
  }
  return null;
}

export function Checklist({ data: d, mine }: { data: Data; mine: boolean }) {
  const state = new Map(d.checklist.map((c) => [c.item, c]));
  const navigation = useNavigation();
  return (
    <section className="card space-y-3" aria-labelledby="checklist-title">
      <h2 id="checklist-title" className="text-xl">
        Checklist
      </h2>
      <Form method="post" className="space-y-3">
        <fieldset disabled={!mine || !d.mayDecide} className="space-y-3">
          <legend className="sr-only">Checklist</legend>
          {CHECKLIST_ITEMS.map((item) => {
            const s = state.get(item);
            return (
              <div key={item} className="flex items-start gap-2">
                <input
                  id={`check-${item}`}
                  type="checkbox"
                  name="items"
                  value={item}
                  defaultChecked={s?.checked ?? false}
                  className="mt-1 size-4 shrink-0"
                />
                <label htmlFor={`check-${item}`}>
                  {CHECKLIST[item]}
                  {s?.checked ? <span className="block text-xs text-slate-600">{`${s.by ?? ""}, ${formatDateTimeIST(s.at)}`}</span> : null}
                </label>
              </div>
            );
          })}
        </fieldset>
        {mine && d.mayDecide ? (
          <button className="btn-secondary" name="intent" value="checklist" disabled={navigation.state === "submitting"}>
            Save checklist
          </button>
        ) : (
          <p className="text-sm text-slate-600">Only the officer reviewing the application ticks the checklist.</p>
        )}
      </Form>
    </section>
  );
}

export function AskForm({ data: d, actionData }: { data: Data; actionData: ActionData }) {
  const open = d.requests.find((r) => !r.answeredAt);
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "ask",
    schema: askSchema,
    lastResult: actionData && "intent" in actionData && actionData.intent === "ask" ? actionData.result : undefined,
  });
  return (
    <section className="card space-y-3" aria-labelledby="ask-title">
      <h2 id="ask-title" className="text-xl">
        Ask the borrower
      </h2>
      {open ? (
        <p>Waiting for the borrower to answer your request of {formatDateTimeIST(open.askedAt)}.</p>
      ) : (
        <Form method="post" className="space-y-4" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={formErrors} />
          <SelectField field={fields.documentKind} label="A document to upload again (optional)" options={DOCUMENT_KINDS} />
          <Field
            id={fields.message.id}
            label="What you need, in plain words"
            errors={fields.message.errors}
            errorId={fields.message.errorId}
          >
            <textarea className="field-input min-h-24" rows={3} {...getTextareaProps(fields.message)} />
          </Field>
          <button className="btn-secondary" name="intent" value="ask" disabled={busy}>
            Send to the borrower
          </button>
        </Form>
      )}
    </section>
  );
}

export function Decision({ data: d, mine, actionData }: { data: Data; mine: boolean; actionData: ActionData }) {
  const a = d.found.application;
  const ticked = new Set(d.checklist.filter((c) => c.checked).map((c) => c.item));
  const complete = CHECKLIST_ITEMS.every((i) => ticked.has(i));
  const open = d.requests.some((r) => !r.answeredAt);
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "reject",
    schema: rejectSchema,
    lastResult: actionData && "intent" in actionData && actionData.intent === "reject" ? actionData.result : undefined,
  });
  if (a.status === "approved" || a.status === "rejected" || a.decidedAt) {
    return (
      <section className="card space-y-2" aria-labelledby="decision-title">
        <h2 id="decision-title" className="text-xl">
          Decision
        </h2>
        <p data-testid="decision">
          {a.rejectionReason ? `Rejected: ${REJECTION_REASONS[a.rejectionReason].label}` : "Approved"} by{" "}
          {d.found.deciderName ?? "an officer"}
          {a.decidedAt ? `, ${formatDateTimeIST(a.decidedAt)}` : ""}.
        </p>
        {a.decisionNote ? <p className="whitespace-pre-line text-slate-700">Note: {a.decisionNote}</p> : null}
        {a.statusReason && a.status === "rejected" ? <p className="text-sm text-slate-600">The borrower reads: {a.statusReason}</p> : null}
      </section>
    );
  }
  const mayReject = d.mayDecide && (a.status === "signed" || mine);
  const dev = d.policy.deviation && !d.policy.deviation.confirmedAt && !d.policy.deviation.withdrawnAt ? d.policy.deviation : null;
  const approve: ApproveState = {
    mine: d.mayDecide && mine,
    complete,
    waiting: open,
    verdict: d.policy.now
      ? { result: d.policy.now.verdict.result, deviations: d.policy.now.verdict.deviations, sendsBack: d.policy.now.sendsBack }
      : null,
    deviation: dev
      ? {
          proposerName: dev.proposerName,
          proposedAt: String(dev.proposedAt),
          reason: dev.reason,
          rules: dev.rules,
          mine: dev.proposedBy === d.me,
        }
      : null,
    mayDeviate: d.mayDeviate && a.status === "under_review",
  };
  const confirms = approve.deviation && !approve.deviation.mine && approve.mayDeviate;
  if (!mayReject && !confirms) return null;
  return (
    <section className="card space-y-4" aria-labelledby="decision-title">
      <h2 id="decision-title" className="text-xl">
        Decision
      </h2>
      <ApproveArea
        state={approve}
        lastResult={actionData && "intent" in actionData && actionData.intent === "approve" ? actionData.result : undefined}
      />
      {mayReject ? (
        <RejectArea untaken={a.status === "signed"} openAtFirst={Boolean(formErrors?.length || fields.reason.errors || fields.note.errors)}>
          <Form method="post" className="space-y-4" {...getFormProps(form)}>
            <FormErrors id={form.errorId} errors={formErrors} />
            <SelectField
              field={fields.reason}
              label="Reason the borrower will be told"
              options={Object.fromEntries(Object.entries(REJECTION_REASONS).map(([k, v]) => [k, v.label]))}
            />
            <TextAreaField field={fields.note} label="Note for the file" hint="Staff only: the borrower does not see it." />
            <button className="btn-danger w-full" name="intent" value="reject" disabled={busy}>
              {a.status === "signed" ? "Reject without taking it" : "Reject"}
            </button>
          </Form>
        </RejectArea>
      ) : null}
    </section>
  );
}

/**
 * Reject. Before anyone has taken the application (`signed`) it is allowed (a plain case: a duplicate, a
 * hard stop of the policy) but it is not the page's first action: Take for review is. So it waits
 * behind a closed disclosure; once taken, the officer's reject form is open under Approve.
 */
function RejectArea({ untaken, openAtFirst, children }: { untaken: boolean; openAtFirst: boolean; children: React.ReactNode }) {
  if (!untaken) return <div className="border-t border-slate-200 pt-4">{children}</div>;
  return (
    <details className="group border-t border-slate-200 pt-4" open={openAtFirst || undefined} data-testid="reject-untaken">
      <summary className="cursor-pointer font-medium text-slate-800">Reject without reviewing</summary>
      <p className="mt-2 text-sm text-slate-700">
        For a case that needs no review (a duplicate, a hard stop of the credit policy). Otherwise take the application first.
      </p>
      <div className="mt-4">{children}</div>
    </details>
  );
}
