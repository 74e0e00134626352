import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { FormErrors, TextField } from "../../../components/field.tsx";
import { useSchemaForm } from "../../../components/use-schema-form.ts";
import { BUREAU_NAME, type Bureau } from "../../../domain/bureau/format.ts";
import { settleWrittenOffSchema } from "../../../domain/bureau/reporting.ts";
import { formatDateTimeIST, longDate } from "../../../domain/india-date.ts";
import { formatRupees } from "../../../domain/money.ts";
import type { ActionData, Data } from "../loan.tsx";

// The staff loan page's credit-bureau part: what the last files reported, and settling a written-off loan.

const resultFor = (actionData: ActionData, key: string) =>
  actionData && "key" in actionData && actionData.key === key
    ? (actionData.result as Parameters<typeof useSchemaForm>[0]["lastResult"])
    : undefined;

function SettleForm({ actionData }: { actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "settle_written_off",
    schema: settleWrittenOffSchema,
    lastResult: resultFor(actionData, "settle_written_off"),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <input type="hidden" name="intent" value="settle_written_off" />
      <FormErrors id={form.errorId} errors={formErrors} />
      <TextField field={fields.reason} label="Why the recoveries are accepted as full and final" />
      <button className="btn-secondary" disabled={busy}>
        Settle: accept the recoveries as full and final
      </button>
    </Form>
  );
}

export function BureauSection({ d, actionData }: { d: Data; actionData: ActionData }) {
  const b = d.bureau;
  const settlement = d.settlement;
  const writtenOff = d.application.status === "written_off";
  if (!b && !writtenOff) return null;
  return (
    <section className="card space-y-3" aria-labelledby="bureau-title">
      <h2 id="bureau-title" className="text-xl">
        Credit bureaus
      </h2>
      {b ? (
        b.last.length ? (
          <ul className="space-y-1">
            {b.last.map((r) => (
              <li key={r.runId}>
                <Link className="link" to={`/admin/bureau/runs/${r.runId}`}>
                  {BUREAU_NAME[r.bureau as Bureau]}, {r.kind === "regular" ? "file" : "correction"} as at {longDate(r.asOf)}
                </Link>
                : {r.heldBack ? "held back (see the file)" : `${r.dpd} days past due`}
              </li>
            ))}
          </ul>
        ) : (
          <p>Not reported yet.</p>
        )
      ) : null}
      {b?.rejectionsOpen ? <p className="font-medium text-red-800">{b.rejectionsOpen} rejection(s) waiting to be sent again.</p> : null}
      {settlement ? (
        <p>
          Settled after write-off on {longDate(settlement.settledOn)}: {formatRupees(settlement.amountPaise)} recovered accepted as full and
          final ({settlement.reason}), recorded {formatDateTimeIST(new Date(settlement.recordedAt))}.
        </p>
      ) : writtenOff && d.may.writeOff ? (
        <SettleForm actionData={actionData} />
      ) : null}
    </section>
  );
}
