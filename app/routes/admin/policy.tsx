import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { FormErrors, TextAreaField, TextField } from "../../components/field.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { formatPolicyValue, POLICY_FIELDS, policyFormValues, policyProposalSchema } from "../../domain/credit-policy/rules.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { formatDateTimeIST } from "../../domain/india-date.ts";
import { pageMeta } from "../../lib/meta.ts";
import { confirmPolicy, proposePolicy, withdrawProposal } from "../../server/credit/policy-admin.server.ts";
import { policyPage } from "../../server/credit/policy.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/policy";

/**
 * The credit policy (docs/product.md "Credit policy"): the rules in force, a proposal with what it
 * changes and why, its confirmation by a second administrator, and the history. Credit officers
 * and compliance read it; administrators propose and confirm.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("policy.view")];

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const page = await policyPage(services);
  return { ...page, me: user.id, mayManage: can(user.role, "policy.manage"), formValues: policyFormValues(page.inForce.rules) };
}

const REFUSED = {
  open_proposal: "A proposal is already waiting for confirmation: confirm or withdraw it first.",
  no_change: "The proposal changes nothing: every rule is as in force.",
  not_open: "This proposal is no longer waiting for confirmation.",
  same_person: "You proposed this change: another administrator confirms it.",
  stale: "Another version came into force since this was proposed, so it was withdrawn. Propose it again against the rules in force.",
} as const;

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = assertCan(context, "policy.manage");
  const staff = { id: user.id, role: user.role as StaffRole };
  const client = context.get(requestContext);
  const form = await readForm(request);
  const toast = (ok: boolean, title: string) =>
    redirectWithToast(services.config, request, "/admin/policy", { type: ok ? "success" : "error", title });
  const proposalId = Number(form.get("proposal"));
  const intent = form.get("intent");
  if ((intent === "confirm" || intent === "withdraw") && !(Number.isSafeInteger(proposalId) && proposalId > 0))
    return toast(false, REFUSED.not_open);
  switch (intent) {
    case "propose": {
      const submission = parseWithZod(form, { schema: policyProposalSchema });
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const proposed = await proposePolicy(services, { staff, ...submission.value, client });
      if (!proposed.ok) return data(submission.reply({ formErrors: [REFUSED[proposed.reason]] }), { status: 409 });
      return toast(true, "Proposed. Another administrator confirms it before it applies.");
    }
    case "confirm": {
      const confirmed = await confirmPolicy(services, { staff, proposalId, client });
      return confirmed.ok
        ? toast(true, `Confirmed: version ${confirmed.version} is in force and judges every offer and decision from now on.`)
        : toast(false, REFUSED[confirmed.reason]);
    }
    case "withdraw": {
      const withdrawn = await withdrawProposal(services, { staff, proposalId, client });
      return withdrawn.ok ? toast(true, "The proposal is withdrawn.") : toast(false, REFUSED.not_open);
    }
    default:
      throw data({ message: "Unknown action." }, { status: 400 });
  }
}

type Data = Route.ComponentProps["loaderData"];

function RulesTable({ rules, label }: { rules: Data["inForce"]["rules"]; label: string }) {
  return (
    <StaffTable label={label} minWidth="min-w-[32rem]" framed={false} columns={["Group", "Rule", "Value"]}>
      {POLICY_FIELDS.map((f) => (
        <tr key={f.key}>
          <td className="px-3 py-2 text-slate-600">{f.group}</td>
          <td className="px-3 py-2">{f.label}</td>
          <td className="px-3 py-2 font-semibold tabular-nums" data-testid={`policy-${f.key}`}>
            {formatPolicyValue(f.key, rules[f.key])}
          </td>
        </tr>
      ))}
    </StaffTable>
  );
}

function Changes({ changes }: { changes: Data["history"][number]["changes"] }) {
  if (!changes.length) return null;
  return (
    <ul className="list-disc space-y-1 pl-5" data-testid="policy-changes">
      {changes.map((c) => (
        <li key={c.key}>
          {c.label}: {c.before} → <strong>{c.after}</strong>
        </li>
      ))}
    </ul>
  );
}

function Proposal({ data: d }: { data: Data }) {
  const p = d.proposal;
  if (!p) return null;
  const mine = p.proposedBy === d.me;
  return (
    <section className="card space-y-3 border-amber-300" aria-labelledby="proposal-title" data-testid="policy-proposal">
      <h2 id="proposal-title" className="text-xl">
        Proposed, waiting for a second administrator
      </h2>
      <p>
        By {p.proposer ?? "an administrator"}, {formatDateTimeIST(new Date(p.proposedAt))}, against version {p.basedOn}. Why:
      </p>
      <blockquote className="border-l-4 border-amber-400 pl-3 whitespace-pre-line">{p.reason}</blockquote>
      <Changes changes={p.changes} />
      {d.mayManage ? (
        <div className="flex flex-wrap gap-3">
          {mine ? (
            <p className="text-sm text-slate-600">You proposed it: another administrator confirms it.</p>
          ) : (
            <Form method="post">
              <input type="hidden" name="proposal" value={p.id} />
              <button className="btn-primary" name="intent" value="confirm">
                Confirm: put it in force
              </button>
            </Form>
          )}
          <Form method="post">
            <input type="hidden" name="proposal" value={p.id} />
            <button className="btn-secondary" name="intent" value="withdraw">
              Withdraw the proposal
            </button>
          </Form>
        </div>
      ) : null}
    </section>
  );
}

const UNIT_HINT = { rupees: "₹", percent: "%", years: "years", days: "days", count: "loans", score: "score" } as const;

function ProposeForm({ data: d, lastResult }: { data: Data; lastResult: Route.ComponentProps["actionData"] }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "propose",
    schema: policyProposalSchema,
    lastResult,
    defaultValue: { ...d.formValues, reason: "" },
  });
  const groups = [...new Set(POLICY_FIELDS.map((f) => f.group))];
  return (
    <section className="card space-y-4" aria-labelledby="propose-title">
      <h2 id="propose-title" className="text-xl">
        Propose a change
      </h2>
      <p className="text-slate-700">
        Nothing changes until another administrator confirms it. It then judges offers and decisions made after it; applications already
        signed for more than it allows go back to the borrower for a fresh KFS at their review.
      </p>
      <Form method="post" className="space-y-5" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="propose" />
        <FormErrors id={form.errorId} errors={formErrors} />
        {groups.map((group) => (
          <fieldset key={group} className="space-y-3">
            <legend className="field-label">{group}</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              {POLICY_FIELDS.filter((f) => f.group === group).map((f) => (
                <TextField
                  key={f.key}
                  field={fields[f.key]}
                  label={`${f.label} (${UNIT_HINT[f.unit]})`}
                  inputMode={f.unit === "rupees" || f.unit === "percent" ? "decimal" : "numeric"}
                />
              ))}
            </div>
          </fieldset>
        ))}
        <TextAreaField
          field={fields.reason}
          label="Why it changes"
          hint="Kept with the version and shown to the confirming administrator."
        />
        <button className="btn-primary" disabled={busy}>
          Propose this version
        </button>
      </Form>
    </section>
  );
}

const STATUS_LABEL = { confirmed: "In force from", proposed: "Proposed", withdrawn: "Withdrawn" } as const;

export default function CreditPolicy({ loaderData: d, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">Credit policy</h1>
      <section className="card space-y-3" aria-labelledby="in-force-title">
        <h2 id="in-force-title" className="text-xl">
          In force: version {d.inForce.version}
        </h2>
        <p className="text-slate-700">
          Since {formatDateTimeIST(new Date(d.inForce.confirmedAt ?? d.inForce.proposedAt))}
          {d.inForce.confirmer ? `, confirmed by ${d.inForce.confirmer}` : ""}. {d.inForce.reason}
        </p>
        <RulesTable rules={d.inForce.rules} label="The rules in force, table" />
      </section>
      <Proposal data={d} />
      {d.mayManage && !d.proposal ? <ProposeForm data={d} lastResult={actionData} /> : null}
      <section className="card space-y-3" aria-labelledby="history-title">
        <h2 id="history-title" className="text-xl">
          History
        </h2>
        <ol className="space-y-4" data-testid="policy-history">
          {d.history.map((h) => (
            <li key={h.id} className="space-y-1 border-t border-slate-200 pt-3 first:border-0 first:pt-0">
              <p className="font-semibold">
                {h.version ? `Version ${h.version}` : "A proposal"}: {STATUS_LABEL[h.status]}{" "}
                {formatDateTimeIST(new Date(h.confirmedAt ?? h.withdrawnAt ?? h.proposedAt))}
              </p>
              <p className="text-sm text-slate-700">
                Proposed by {h.proposer ?? "the installation"}
                {h.confirmer ? `, confirmed by ${h.confirmer}` : ""}
                {h.withdrawer ? `, withdrawn by ${h.withdrawer}` : ""}. {h.reason}
              </p>
              <Changes changes={h.changes} />
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Credit policy");
