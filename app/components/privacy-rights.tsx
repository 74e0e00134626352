import { Form } from "react-router";
import { formatDateTimeIST } from "../domain/india-date.ts";
import { CONSENT_TEXT, type ConsentPurpose } from "../domain/privacy/consents.ts";
import {
  type DataRequestKind,
  type DataRequestStatus,
  type ErasurePlanItem,
  keptUntil,
  REQUEST_KIND_LABEL,
  requestState,
} from "../domain/privacy/requests.ts";

interface ConsentState {
  purpose: ConsentPurpose;
  granted: boolean | null;
  at: string | null;
}

/** Each consent: what it allows, its state, what withdrawing does, and one button to change it. */
export function ConsentList({ consents }: { consents: readonly ConsentState[] }) {
  return (
    <ul className="space-y-4">
      {consents.map((c) => {
        const text = CONSENT_TEXT[c.purpose];
        const given = c.granted === true;
        return (
          <li key={c.purpose} className="rounded-xl border border-slate-200 p-4" data-testid={`consent-${c.purpose}`}>
            <h3 className="text-lg font-semibold">{text.title}</h3>
            <p className="mt-1">{text.allows}</p>
            <p className="mt-2 font-medium" data-testid={`consent-${c.purpose}-state`}>
              {c.granted === null
                ? "You have not given this consent."
                : given
                  ? `Given on ${formatDateTimeIST(new Date(c.at ?? 0))}.`
                  : `Withdrawn on ${formatDateTimeIST(new Date(c.at ?? 0))}.`}
            </p>
            {given ? (
              <p className="mt-2 text-sm text-slate-700">
                <span className="font-semibold">If you withdraw it: </span>
                {text.withdrawEffect}
              </p>
            ) : (
              <p className="mt-2 text-sm text-slate-700">{text.giveAgain}</p>
            )}
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="consent" />
              <input type="hidden" name="purpose" value={c.purpose} />
              <input type="hidden" name="granted" value={given ? "no" : "yes"} />
              <button type="submit" className={given ? "btn-secondary" : "btn-primary"}>
                {given ? text.withdrawButton : text.giveButton}
              </button>
            </Form>
          </li>
        );
      })}
    </ul>
  );
}

/** What an erasure erases and keeps, and why and until when. */
export function ErasurePlanList({ plan }: { plan: readonly ErasurePlanItem[] }) {
  return (
    <ul className="space-y-3" data-testid="erasure-plan">
      {plan.map((item) => (
        <li key={item.group} className="rounded-xl border border-slate-200 p-3">
          <p className="font-semibold">{item.action === "erase" ? "Erased" : "Kept"}</p>
          <p>{item.what}</p>
          {item.action === "keep" ? (
            <>
              <p className="mt-1 text-sm text-slate-700">{item.why}</p>
              <p className="mt-1 text-sm font-medium">{keptUntil(item.until)}</p>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

interface RequestRow {
  reference: string;
  kind: DataRequestKind;
  status: DataRequestStatus;
  receivedAt: string;
  dueOn: string;
  answeredAt: string | null;
  answer: string | null;
}

/** The borrower's requests with their answer dates and answers. */
export function RequestList({ requests }: { requests: readonly RequestRow[] }) {
  return (
    <ul className="space-y-3">
      {requests.map((r) => (
        <li key={r.reference} className="rounded-xl border border-slate-200 p-3" data-testid={`request-${r.reference}`}>
          <p className="font-semibold">
            {REQUEST_KIND_LABEL[r.kind]} · {r.reference}
          </p>
          <p className="text-sm text-slate-700">Asked on {formatDateTimeIST(new Date(r.receivedAt))}.</p>
          <p className="text-sm font-medium">{requestState(r.status, r.dueOn)}</p>
          {r.answer ? <p className="mt-2 whitespace-pre-line">{r.answer}</p> : null}
        </li>
      ))}
    </ul>
  );
}
