import { CheckCircle2, Circle } from "lucide-react";
import { Link } from "react-router";
import type { ChecklistItem } from "../domain/kyc/completeness.ts";

/** A tick for what is done, an empty circle for what is not (the words beside it say which). */
export function DoneIcon({ done, className = "size-5" }: { done: boolean; className?: string }) {
  return done ? (
    <CheckCircle2 aria-hidden="true" className={`mt-0.5 shrink-0 text-money-600 ${className}`} />
  ) : (
    <Circle aria-hidden="true" className={`mt-0.5 shrink-0 text-slate-400 ${className}`} />
  );
}

/** "4 of 7 done" as a bar (a progressbar to assistive technology). */
export function ProgressBar({ done, of, label }: { done: number; of: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={of}
      aria-valuenow={done}
      aria-valuetext={`${done} of ${of}`}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div className="h-full rounded-full bg-money-600" style={{ width: `${of ? (done / of) * 100 : 0}%` }} />
    </div>
  );
}

/**
 * What a loan still needs from the profile, as one list with its progress: each section or
 * document done (ticked) or to do (a link to the place where it is done, and what is missing).
 */
export function KycChecklist({ items, label }: { items: readonly ChecklistItem[]; label: string }) {
  const done = items.filter((i) => i.done).length;
  return (
    <div className="space-y-3" data-testid="kyc-checklist">
      <p className="font-medium text-slate-900" data-testid="kyc-checklist-count">
        {done} of {items.length} done
      </p>
      <ProgressBar done={done} of={items.length} label={label} />
      <ul className="divide-y divide-slate-200" aria-label={label}>
        {items.map((i) => (
          <li key={i.key} className="flex items-start gap-3 py-2.5">
            <DoneIcon done={i.done} />
            <div className="min-w-0 flex-1">
              {i.done ? (
                <p>
                  {i.label}
                  <span className="sr-only"> (done)</span>
                </p>
              ) : (
                <>
                  <Link className="link" to={i.href}>
                    {i.label}
                  </Link>
                  <span className="sr-only"> (to do)</span>
                  {i.detail ? <p className="text-sm text-slate-600">{i.detail}</p> : null}
                </>
              )}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
