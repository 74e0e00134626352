import type { RuleOutcome, RuleResult } from "../domain/credit-policy/evaluate.ts";
import { OUTCOME_LABEL, RULE_KIND_LABEL, RULE_LABEL, ruleInputText, ruleThresholdText } from "../domain/credit-policy/words.ts";
import { formatRupees } from "../domain/money.ts";
import { formatDateTimeIST } from "../domain/india-date.ts";
import { StaffTable } from "./staff-table.tsx";

const OUTCOME_TONE: Record<RuleOutcome, string> = {
  pass: "text-money-700",
  fail: "font-semibold text-danger-600",
  deviation: "font-semibold text-amber-900",
  missing: "text-slate-700",
};

/** One credit policy judgement, rule by rule: what it looked at, what it was held against, and the result (staff pages). */
export function PolicyRules({ rules, label }: { rules: readonly RuleResult[]; label: string }) {
  return (
    <StaffTable label={label} minWidth="min-w-[40rem]" framed={false} columns={["Rule", "Input", "Threshold", "Result"]}>
      {rules.map((r) => (
        <tr key={r.code} data-testid={`rule-${r.code}`} data-outcome={r.outcome}>
          <td className="px-3 py-2">
            {RULE_LABEL[r.code]}
            <span className="block text-xs text-slate-600">{RULE_KIND_LABEL[r.kind]}</span>
          </td>
          <td className="px-3 py-2">{ruleInputText(r)}</td>
          <td className="px-3 py-2">{ruleThresholdText(r)}</td>
          <td className={`px-3 py-2 ${OUTCOME_TONE[r.outcome]}`}>{OUTCOME_LABEL[r.outcome]}</td>
        </tr>
      ))}
    </StaffTable>
  );
}

const STAGE_LABEL = {
  quick_start_offer: "Quick start offer",
  offer: "Offer, terms chosen",
  signing: "At signing",
  review: "At review (deviation proposed)",
  decision: "Decision",
  disbursal: "Disbursal",
} as const;

export interface KeptEvaluation {
  id: string;
  stage: keyof typeof STAGE_LABEL;
  version: number;
  result: RuleOutcome;
  amountPaise: number | null;
  tenureMonths: number | null;
  maxAmountPaise: number;
  rules: RuleResult[];
  at: Date | string;
  by: string | null;
}

/** The judgements kept (the offer, the signing, each decision, the disbursal), newest first, each opening its table. */
export function KeptEvaluations({ kept }: { kept: readonly KeptEvaluation[] }) {
  if (!kept.length) return <p>No judgement kept yet.</p>;
  return (
    <ul className="space-y-2" data-testid="kept-evaluations">
      {kept.map((e) => (
        <li key={e.id}>
          <details className="rounded-lg border border-slate-200 p-3">
            <summary className="cursor-pointer">
              {STAGE_LABEL[e.stage]}, {formatDateTimeIST(new Date(e.at))}: policy version {e.version},{" "}
              <span className={OUTCOME_TONE[e.result]}>{OUTCOME_LABEL[e.result]}</span>
              {e.amountPaise !== null ? `, ${formatRupees(e.amountPaise)}` : ""}
              {e.tenureMonths ? ` over ${e.tenureMonths} months` : ""}
              {e.by ? `, by ${e.by}` : ""}
            </summary>
            <div className="mt-3">
              <PolicyRules rules={e.rules} label={`The rules at ${STAGE_LABEL[e.stage].toLowerCase()}, table`} />
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}
