import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { Link } from "../../lib/link.tsx";
import { FactRows } from "../../components/loan-flow.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { strAcknowledgeSchema, strEditSchema, strReviewSchema } from "../../domain/aml/forms.ts";
import { dueStanding, dueText, STR_STAGE_LABEL, strStage } from "../../domain/aml/str.ts";
import { LIST_NAME } from "../../domain/aml/types.ts";
import { formatDateTimeIST, fromIstDateTimeInput, istDateTimeInput, longDate, todayIST } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { acknowledgeReport, editReport, exportReport, reviewReport, type StrRefusal } from "../../server/aml/str.server.ts";
import { strByReference, strMovements, strVersion } from "../../server/aml/str-read.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { invalidForm, readForm } from "../../web/forms.server.ts";
import type { KeyedActionData } from "../../components/use-schema-form.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import { AcknowledgeForm, EditForm, ExportForm, ReportsLink, ReviewForm } from "./aml-report/forms.tsx";
import type { Route } from "./+types/aml-report";

/**
 * One suspicious-transaction report (docs/product.md "Suspicious-transaction reports"): the borrower,
 * the grounds, the money movements it covers, and what can be done with it now (changed while a
 * draft, reviewed by someone who did not write it, exported, FIU-IND's acknowledgement recorded).
 * Compliance and administrators only.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("aml.view")];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const found = await strByReference(services, params.reference);
  if (!found) notFoundFullPath(request);
  const r = found.report;
  const movements = await strMovements(services, r.userId, r.periodFrom, r.periodTo);
  const standing = dueStanding(todayIST(services.now()), r.dueOn, services.config.holidays);
  return {
    report: {
      reference: r.reference,
      status: r.status,
      stage: strStage(r),
      suspectedAt: r.suspectedAt.toISOString(),
      dueOn: r.dueOn,
      due: r.status === "exported" ? null : dueText(standing),
      late: standing.late && r.status !== "exported",
      periodFrom: r.periodFrom,
      periodTo: r.periodTo,
      grounds: r.grounds,
      draftedBy: found.draftedBy,
      draftedAt: r.draftedAt.toISOString(),
      reviewedBy: found.reviewedBy,
      reviewedAt: r.reviewedAt?.toISOString() ?? null,
      reviewNote: r.reviewNote,
      exportedBy: found.exportedBy,
      exportedAt: r.exportedAt?.toISOString() ?? null,
      fileSha256: r.fileSha256,
      fiuReference: r.fiuReference,
      match: found.match?.ref ? `${LIST_NAME[found.match.source]}, entry ${found.match.ref} (${found.match.listedName})` : null,
    },
    edit: {
      version: strVersion(r),
      suspectedAt: istDateTimeInput(r.suspectedAt),
      periodFrom: r.periodFrom,
      periodTo: r.periodTo,
      grounds: r.grounds,
      fromMatch: r.matchId !== null,
    },
    borrower: found.borrower,
    movements,
    mayManage: can(user.role, "aml.manage"),
    drafter: r.draftedBy === user.id,
  };
}

const REFUSED: Record<StrRefusal, string> = {
  not_found: "There is no such report.",
  future_suspicion: "The suspicion cannot arise later than now.",
  not_draft: "This report is no longer a draft: see where it stands below.",
  changed_since: "A colleague changed this draft since you opened it: read it again, then make your change.",
  own_report: "You drafted or changed this report: a colleague who did not reviews it.",
  not_reviewed: "Only a reviewed report is exported.",
  not_exported: "Export the report before recording FIU-IND's acknowledgement.",
  acknowledged_otherwise: "FIU-IND's acknowledgement number is recorded already: see it below.",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = assertCan(context, "aml.manage");
  const by = { staff: { id: user.id, role: user.role as StaffRole }, client: context.get(requestContext) };
  const reference = params.reference;
  const here = `/admin/aml/reports/${reference}`;
  const form = await readForm(request);
  const answer = async (
    result: Awaited<ReturnType<typeof editReport>>,
    said: { done: string; already: string },
    refusedInForm?: (reason: StrRefusal) => Response | ReturnType<typeof invalidForm> | null,
  ) => {
    if (!result.ok && result.reason === "not_found") notFoundFullPath(request);
    if (!result.ok) {
      const inForm = refusedInForm?.(result.reason);
      if (inForm) return inForm;
    }
    return redirectWithToast(
      services.config,
      request,
      here,
      result.ok ? { type: "success", title: result.already ? said.already : said.done } : { type: "error", title: REFUSED[result.reason] },
    );
  };
  switch (String(form.get("intent") ?? "")) {
    case "edit": {
      const s = parseWithZod(form, { schema: strEditSchema });
      if (s.status !== "success") return invalidForm("edit", s.reply());
      const { version, suspectedAt, ...rest } = s.value;
      const result = await editReport(services, {
        reference,
        version,
        content: { ...rest, suspectedAt: fromIstDateTimeInput(suspectedAt) ?? new Date(Number.NaN) },
        by,
      });
      return answer(result, { done: "Draft changed: it awaits review again.", already: "Nothing changed." }, (reason) =>
        reason === "future_suspicion" ? invalidForm("edit", s.reply({ fieldErrors: { suspectedAt: [REFUSED.future_suspicion] } })) : null,
      );
    }
    case "review": {
      const s = parseWithZod(form, { schema: strReviewSchema });
      if (s.status !== "success") return invalidForm("review", s.reply());
      const result = await reviewReport(services, { reference, decision: s.value.decision, note: s.value.note, by });
      return answer(
        result,
        s.value.decision === "approve"
          ? { done: "Approved: it can be exported for FIU-IND.", already: "You approved this report already." }
          : { done: "Sent back to the drafter with your note.", already: "You sent this back already." },
      );
    }
    case "export": {
      const result = await exportReport(services, { reference, by });
      return answer(result, {
        done: "Exported: download the file and upload it on FINnet.",
        already: "This report was exported already: download the file again below.",
      });
    }
    case "acknowledge": {
      const s = parseWithZod(form, { schema: strAcknowledgeSchema });
      if (s.status !== "success") return invalidForm("acknowledge", s.reply());
      const result = await acknowledgeReport(services, { reference, fiuReference: s.value.fiuReference, by });
      return answer(result, { done: "FIU-IND's acknowledgement recorded.", already: "This acknowledgement was recorded already." });
    }
    default:
      throw data({ message: "That is not something this page does." }, { status: 400 });
  }
}

export default function Report({ loaderData: d, actionData }: Route.ComponentProps) {
  const r = d.report;
  const b = d.borrower;
  const act = actionData as KeyedActionData;
  return (
    <div className="space-y-6">
      <ReportsLink />
      <div className="space-y-1">
        <h1 className="text-2xl sm:text-3xl">Suspicious-transaction report {r.reference}</h1>
        <p className={r.late ? "font-semibold text-red-800" : "text-slate-700"}>
          {STR_STAGE_LABEL[r.stage]}. {r.due ? `Due ${longDate(r.dueOn)}: ${r.due}.` : ""}
        </p>
      </div>
      <section aria-labelledby="borrower-title" className="card space-y-3">
        <h2 id="borrower-title" className="text-xl">
          Borrower
        </h2>
        <FactRows
          rows={[
            ["Name", b.name ?? "No KYC profile"],
            ["Date of birth", b.dateOfBirth ? longDate(b.dateOfBirth) : "—"],
            ["PAN", b.panMasked ?? "—"],
            ["Mobile", b.mobile ? `+91 ${b.mobile}` : "—"],
          ]}
        />
        <p>
          <Link className="link" to={`/admin/borrowers/${b.id}`}>
            The borrower's page
          </Link>
        </p>
      </section>
      <section aria-labelledby="report-title" className="card space-y-3">
        <h2 id="report-title" className="text-xl">
          The report
        </h2>
        <FactRows
          rows={[
            ["Suspicion arose", formatDateTimeIST(new Date(r.suspectedAt))],
            ["Transactions", `${longDate(r.periodFrom)} to ${longDate(r.periodTo)}`],
            ...(r.match ? [["From a confirmed sanctions match", r.match] as const] : []),
            ["Drafted", `${r.draftedBy ?? "The system"}, ${formatDateTimeIST(new Date(r.draftedAt))}`],
            ...(r.reviewedAt
              ? [
                  [
                    r.status === "draft" ? "Sent back" : "Reviewed",
                    `${r.reviewedBy ?? "—"}, ${formatDateTimeIST(new Date(r.reviewedAt))}${r.reviewNote ? `: ${r.reviewNote}` : ""}`,
                  ] as const,
                ]
              : []),
            ...(r.exportedAt
              ? [
                  [
                    "Exported",
                    `${r.exportedBy ?? "—"}, ${formatDateTimeIST(new Date(r.exportedAt))}; SHA-256 ${r.fileSha256 ?? "—"}`,
                  ] as const,
                ]
              : []),
            ...(r.status === "exported" ? [["FIU-IND acknowledgement", r.fiuReference ?? "not recorded yet"] as const] : []),
          ]}
        />
        <h3 className="text-lg">Grounds of suspicion</h3>
        <p className="whitespace-pre-wrap wrap-anywhere" data-testid="str-grounds">
          {r.grounds}
        </p>
      </section>
      <section aria-labelledby="movements-title" className="space-y-3">
        <h2 id="movements-title" className="text-xl">
          Money movements in the period: {d.movements.length}
        </h2>
        {d.movements.length ? (
          <StaffTable label="Money movements" minWidth="min-w-[36rem]" columns={["Date", "Account", "What", "In or out", "Amount"]}>
            {d.movements.map((m) => (
              <tr key={m.id}>
                <td className="px-3 py-2">{longDate(m.date)}</td>
                <td className="px-3 py-2 font-mono">{m.account}</td>
                <td className="px-3 py-2">{m.remarks}</td>
                <td className="px-3 py-2">{m.debitCredit === "C" ? "In" : "Out"}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatRupees(m.amountPaise)}</td>
              </tr>
            ))}
          </StaffTable>
        ) : (
          <p className="card">No money moved on the borrower's loans in the period.</p>
        )}
      </section>
      {d.mayManage ? (
        <section aria-labelledby="actions-title" className="card space-y-4">
          <h2 id="actions-title" className="text-xl">
            {r.status === "draft" ? "Review or change the draft" : r.status === "reviewed" ? "Export" : "The file"}
          </h2>
          {r.status === "draft" ? (
            <>
              {d.drafter ? <p>You drafted this report: a colleague who did not write it reviews it.</p> : <ReviewForm actionData={act} />}
              <h3 className="text-lg">Change the draft</h3>
              <EditForm report={d.edit} actionData={act} />
            </>
          ) : null}
          {r.status === "reviewed" ? <ExportForm /> : null}
          {r.status === "exported" ? (
            <>
              <p>
                <a className="btn-primary inline-block" href={`/admin/aml/reports/${r.reference}/file`} download>
                  Download the file ({r.reference}.xml)
                </a>
              </p>
              {r.fiuReference ? null : <AcknowledgeForm actionData={act} />}
            </>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Suspicious-transaction report ${params.reference}`);
