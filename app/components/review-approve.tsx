import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import type { RuleCode, RuleOutcome } from "../domain/credit-policy/evaluate.ts";
import { RULE_LABEL, STAFF_VERDICT } from "../domain/credit-policy/words.ts";
import { deviationSchema } from "../domain/review.ts";
import { formatDateTimeIST } from "../domain/india-date.ts";
import { FormErrors, TextAreaField } from "./field.tsx";
import { useSchemaForm } from "./use-schema-form.ts";

export interface ApproveState {
  /** The officer's own application under review. */
  mine: boolean;
  /** Every checklist item ticked and saved. */
  complete: boolean;
  /** Something asked of the borrower is still unanswered. */
  waiting: boolean;
  /** The credit policy on the amount signed, now; null when it cannot be judged. */
  verdict: { result: RuleOutcome; deviations: RuleCode[]; sendsBack: boolean } | null;
  /** The open deviation approval, if any. */
  deviation: { proposerName: string | null; proposedAt: string; reason: string; rules: RuleCode[]; mine: boolean } | null;
  /** May approve a deviation as the second approver. */
  mayDeviate: boolean;
}

/**
 * Approval on the review page (docs/product.md "Credit policy"): plain when the policy passes; with
 * a written reason when it needs a deviation, then confirmed by a second approver who is not the
 * first; refused when the policy refuses; a send-back when it now allows less than was signed.
 */
export function ApproveArea({ state: s, lastResult }: { state: ApproveState; lastResult: SubmissionResult<string[]> | undefined }) {
  const submitting = useNavigation().state === "submitting";
  const { form, fields, formErrors, busy } = useSchemaForm({ id: "deviation", schema: deviationSchema, lastResult });
  const notReady = !s.complete || s.waiting;
  const hint = s.waiting
    ? "Wait for the borrower's answer before approving."
    : s.complete
      ? "All five checks are ticked and saved."
      : "Approval needs every checklist item ticked and saved.";
  if (s.deviation) {
    return (
      <div className="space-y-2" data-testid="deviation-open">
        <p>
          Approved with a deviation ({s.deviation.rules.map((r) => RULE_LABEL[r]).join("; ")}) by {s.deviation.proposerName ?? "an officer"}
          , {formatDateTimeIST(new Date(s.deviation.proposedAt))}:
        </p>
        <blockquote className="border-l-4 border-amber-400 pl-3 whitespace-pre-line">{s.deviation.reason}</blockquote>
        {s.deviation.mine ? (
          <p className="text-sm text-slate-600">A second approver (a credit officer or an administrator, not you) confirms it.</p>
        ) : s.mayDeviate ? (
          <Form method="post">
            <button className="btn-primary w-full" name="intent" value="confirm_deviation" disabled={submitting}>
              Confirm the deviation and approve
            </button>
          </Form>
        ) : (
          <p className="text-sm text-slate-600">Waiting for a second approver.</p>
        )}
      </div>
    );
  }
  if (!s.mine) return null;
  if (s.verdict?.result === "deviation" && !s.verdict.sendsBack) {
    return (
      <Form method="post" className="space-y-3" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <p className="text-sm text-amber-900">{STAFF_VERDICT.deviation}</p>
        <TextAreaField
          field={fields.deviationReason}
          label="Why this deviation is acceptable"
          hint="Kept with the decision and shown to the second approver."
        />
        <button className="btn-primary w-full" name="intent" value="approve" disabled={notReady || busy}>
          Approve with a deviation
        </button>
        <p className="text-sm text-slate-600">{hint}</p>
      </Form>
    );
  }
  const refused = s.verdict === null || s.verdict.result === "fail" || s.verdict.result === "missing";
  const sendsBack = Boolean(s.verdict?.sendsBack);
  return (
    <Form method="post" className="space-y-2">
      <button
        className="btn-primary w-full"
        name="intent"
        value="approve"
        disabled={submitting || (!sendsBack && (notReady || refused))}
        aria-describedby="approve-hint"
      >
        {sendsBack ? "Send back to the borrower" : "Approve"}
      </button>
      <p id="approve-hint" className="text-sm text-slate-600">
        {sendsBack ? STAFF_VERDICT.sends_back : refused ? STAFF_VERDICT[s.verdict?.result ?? "missing"] : hint}
      </p>
    </Form>
  );
}
