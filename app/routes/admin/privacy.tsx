import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { FormErrors, SelectField, TextAreaField } from "../../components/field.tsx";
import { ErasurePlanList } from "../../components/privacy-rights.tsx";
import { type KeyedActionData, resultFor, useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { daysBetween } from "../../domain/loan-math.ts";
import { formatDateTimeIST, longDate, todayIST } from "../../domain/india-date.ts";
import { answerSchema, CORRECTION_AREAS, type ErasurePlanItem, REQUEST_KIND_LABEL } from "../../domain/privacy/requests.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { answerRequest, requestQueue } from "../../server/privacy/queue.server.ts";
import { erasurePlanNow } from "../../server/privacy/rights.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { invalidForm, readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/privacy";

/**
 * Data rights (docs/product.md "Data rights"): the borrowers' corrections and erasures, each
 * answered within 30 days, late ones first; the breach register. Compliance and administrators only.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("privacy.view")];

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Data rights", "Borrowers' data-rights requests.");

const HERE = "/admin/privacy";

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const queue = await requestQueue(services);
  // An open erasure shows what it would do today beside what the borrower read when asking.
  const open = await Promise.all(
    queue.open.map(async (r) => ({
      ...r,
      planNow: r.kind === "erasure" ? await erasurePlanNow(services, r.userId) : null,
    })),
  );
  return { ...queue, open, today: todayIST(services.now()), mayManage: can(user.role, "privacy.manage") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = assertCan(context, "privacy.manage");
  const form = await readForm(request);
  const reference = String(form.get("reference") ?? "");
  const s = parseWithZod(form, { schema: answerSchema });
  if (s.status !== "success") return invalidForm(reference, s.reply());
  const done = await answerRequest(services, {
    reference,
    outcome: s.value.outcome,
    answer: s.value.answer,
    staff: { id: user.id, role: user.role as StaffRole },
    client: context.get(requestContext),
  });
  if (!done.ok)
    return redirectWithToast(services.config, request, HERE, {
      type: "error",
      title: done.reason === "answered_already" ? "A colleague answered this request already: see it below." : "There is no such request.",
    });
  return redirectWithToast(services.config, request, HERE, {
    type: "success",
    title: done.erased
      ? `Answered, and erased: ${done.erased.rows} records and ${done.erased.files} files.`
      : `Answered ${reference}: the borrower is told.`,
  });
}

type Data = Route.ComponentProps["loaderData"];

/** A plan's gist, to tell whether the one the borrower read is still today's (stored JSON keeps no key order). */
const planKey = (plan: readonly ErasurePlanItem[] | undefined) =>
  (plan ?? []).map((i) => `${i.group}:${i.action}:${i.until ?? ""}`).join(",");
type Open = Data["open"][number];

const dueWords = (dueOn: string, today: string) => {
  const left = daysBetween(today, dueOn);
  return left < 0 ? `Late by ${-left} days (due ${longDate(dueOn)})` : `Due ${longDate(dueOn)} (${left} days left)`;
};

export default function PrivacyQueue({ loaderData, actionData }: Route.ComponentProps) {
  const { open, answered, counts, today, mayManage } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl">Data rights</h1>
        <p className="mt-1 text-slate-700">
          {counts.open} requests waiting for an answer; {counts.downloads} downloads of data made by borrowers themselves. Each request is
          answered within 30 days. See also the{" "}
          <Link className="link" to="/admin/privacy/breaches">
            breach register
          </Link>
          .
        </p>
      </div>
      <section aria-labelledby="open-title" className="space-y-3">
        <h2 id="open-title" className="text-xl">
          Waiting for an answer
        </h2>
        {open.length === 0 ? <p>No request is waiting.</p> : null}
        {open.map((r) => (
          <OpenRequest key={r.reference} r={r} today={today} mayManage={mayManage} actionData={actionData} />
        ))}
      </section>
      <section aria-labelledby="answered-title" className="space-y-3">
        <h2 id="answered-title" className="text-xl">
          Answered lately
        </h2>
        {answered.length === 0 ? <p>None yet.</p> : null}
        <ul className="space-y-2">
          {answered.map((r) => (
            <li key={r.reference} className="card">
              <p className="font-semibold">
                {r.reference} · {REQUEST_KIND_LABEL[r.kind]} · {r.status === "done" ? "done" : "refused"}
              </p>
              <p className="text-sm text-slate-700">
                Answered {r.answeredAt ? formatDateTimeIST(new Date(r.answeredAt)) : ""} by {r.answeredBy ?? "a staff member"}.
              </p>
              <p className="mt-1 whitespace-pre-line">{r.answer}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function OpenRequest({ r, today, mayManage, actionData }: { r: Open; today: string; mayManage: boolean; actionData: KeyedActionData }) {
  const details = r.details as Record<string, unknown>;
  const late = r.dueOn < today;
  return (
    <article className="card space-y-3" data-testid={`data-request-${r.reference}`}>
      <h3 className="text-lg font-semibold">
        {r.reference} · {REQUEST_KIND_LABEL[r.kind]}
      </h3>
      <p>
        <Link className="link" to={`/admin/borrowers/${r.userId}`}>
          {r.borrower ?? "A borrower without a profile"}
        </Link>{" "}
        · asked {formatDateTimeIST(new Date(r.receivedAt))} ·{" "}
        <span className={late ? "font-semibold text-red-700" : ""}>{dueWords(r.dueOn, today)}</span>
      </p>
      {r.kind === "correction" ? (
        <dl className="grid gap-2 sm:grid-cols-[12rem_1fr]">
          <dt className="font-medium">What</dt>
          <dd>{CORRECTION_AREAS[details.area as keyof typeof CORRECTION_AREAS] ?? String(details.area)}</dd>
          <dt className="font-medium">It says now</dt>
          <dd className="whitespace-pre-line">{String(details.wrong ?? "")}</dd>
          <dt className="font-medium">It should say</dt>
          <dd className="whitespace-pre-line">{String(details.correct ?? "")}</dd>
        </dl>
      ) : (
        <div className="space-y-2">
          <p className="font-medium">Carried out today, the erasure does this:</p>
          <ErasurePlanList plan={r.planNow ?? []} />
          {planKey(details.plan as ErasurePlanItem[] | undefined) !== planKey(r.planNow ?? undefined) ? (
            <p className="text-sm text-amber-800">
              The borrower's loans changed since they asked: the plan they read differed. Say so in the answer.
            </p>
          ) : null}
        </div>
      )}
      {mayManage ? <AnswerForm r={r} actionData={actionData} /> : null}
    </article>
  );
}

function AnswerForm({ r, actionData }: { r: Open; actionData: KeyedActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: `answer-${r.reference}`,
    schema: answerSchema,
    lastResult: resultFor(actionData, r.reference),
    shouldValidate: "onSubmit",
  });
  const keeps = (r.planNow as ErasurePlanItem[] | null)?.some((i) => i.action === "keep");
  return (
    <Form method="post" className="space-y-3 border-t border-slate-200 pt-3" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="reference" value={r.reference} />
      <SelectField
        field={fields.outcome}
        label="Answer"
        options={
          r.kind === "erasure"
            ? {
                done: keeps ? "Erase now what is not kept (cannot be undone)" : "Erase everything and the account (cannot be undone)",
                refused: "Refuse, with the reason",
              }
            : { done: "Corrected", refused: "Not corrected, with the reason" }
        }
      />
      <TextAreaField field={fields.answer} label="The answer the borrower reads" rows={3} />
      <button type="submit" className="btn-primary" disabled={busy}>
        Send the answer
      </button>
    </Form>
  );
}
