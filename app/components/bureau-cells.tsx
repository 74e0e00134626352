import { dueWords } from "../domain/bureau/reporting.ts";
import { longDate } from "../domain/india-date.ts";

// Table cells the bureau pages share: what a bureau said of a rejected record, and a due date with the days left.

export function BureauSaidCell({ r }: { r: { code: string; message: string; segment: string; field: string | null } }) {
  return (
    <td className="px-3 py-2">
      {r.code}: {r.message}
      <span className="block text-slate-600">
        {r.segment}
        {r.field ? ` field ${r.field}` : ""}
      </span>
    </td>
  );
}

/** The due date, and (while it is still to be met) the days left or late. */
export function DueCell({ dueBy, today, open }: { dueBy: string; today: string; open: boolean }) {
  return (
    <td className="px-3 py-2">
      {longDate(dueBy)}
      {open ? <span className="block text-sm text-slate-700">{dueWords(today, dueBy)}</span> : null}
    </td>
  );
}
