import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { FormErrors, SelectField, TextField } from "../../components/field.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { ROLE_LABEL, STAFF_ROLES, type StaffRole } from "../../domain/roles.ts";
import { accountState, inviteSchema, roleSchema } from "../../domain/staff-accounts.ts";
import { formatDateIST } from "../../domain/india-date.ts";
import { pageMeta } from "../../lib/meta.ts";
import { messageLink } from "../../../server/config.ts";
import { changeRole, inviteStaff, listStaff, resetAccess, setDisabled } from "../../server/staff/accounts.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/staff";

/** Staff accounts (docs/product.md "Staff accounts"): administrators only. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("settings.manage")];

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const staff = await listStaff(context.get(servicesContext));
  return {
    me: user.id,
    staff: staff.map((s) => ({
      id: s.id,
      name: s.name,
      email: s.email,
      role: s.role,
      state: accountState(s),
      disabled: Boolean(s.disabledAt),
      since: s.createdAt.toISOString(),
    })),
  };
}

const REFUSED: Record<string, string> = {
  not_found: "There is no such staff account.",
  yourself: "You cannot change, disable or reset your own account here: ask another administrator.",
  exists: "A staff account with this e-mail address exists already: give it a new link from the list.",
  borrower_email: "This e-mail address belongs to a borrower's account: staff use their work address.",
};

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const admin = { id: user.id, role: user.role as StaffRole };
  const client = context.get(requestContext);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const userId = String(form.get("userId") ?? "");
  const link = (token: string) => messageLink(services.config, `/admin/enrol/${token}`);
  const done = (title: string) => redirectWithToast(services.config, request, "/admin/staff", { type: "success", title });
  const refused = (reason: string) =>
    redirectWithToast(services.config, request, "/admin/staff", { type: "error", title: REFUSED[reason] ?? "That could not be done." });
  switch (intent) {
    case "invite": {
      const submission = parseWithZod(form, { schema: inviteSchema });
      if (submission.status !== "success") return data({ result: submission.reply(), link: null }, { status: 400 });
      const invited = await inviteStaff(services, { admin, client, ...submission.value });
      if (!invited.ok)
        return data({ result: submission.reply({ formErrors: [REFUSED[invited.reason] ?? ""] }), link: null }, { status: 400 });
      return { result: submission.reply({ resetForm: true }), link: { to: submission.value.email, url: link(invited.token) } };
    }
    case "role": {
      const parsed = roleSchema.safeParse({ role: form.get("role") });
      if (!parsed.success) return refused("not_found");
      const changed = await changeRole(services, { admin, client, userId, role: parsed.data.role });
      return changed.ok ? done("Role saved.") : refused(changed.reason);
    }
    case "disable":
    case "enable": {
      const changed = await setDisabled(services, { admin, client, userId, disabled: intent === "disable" });
      return changed.ok
        ? done(intent === "disable" ? "Account disabled and signed out everywhere." : "Account enabled.")
        : refused(changed.reason);
    }
    case "reset": {
      const reset = await resetAccess(services, { admin, client, userId });
      if (!reset.ok) return refused(reset.reason);
      return { result: null, link: { to: reset.email, url: link(reset.token) } };
    }
    default:
      throw data({ message: "Unknown action." }, { status: 400 });
  }
}

export default function StaffAccounts({ loaderData, actionData }: Route.ComponentProps) {
  const { staff, me } = loaderData;
  const { form, fields, formErrors, busy } = useSchemaForm({ id: "invite", schema: inviteSchema, lastResult: actionData?.result });
  const roles = Object.fromEntries(STAFF_ROLES.map((r) => [r, ROLE_LABEL[r]]));
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">Staff accounts</h1>
      {actionData?.link ? (
        <section className="card space-y-2 border-money-700" aria-labelledby="link-title" role="status">
          <h2 id="link-title" className="text-xl">
            One-time link for {actionData.link.to}
          </h2>
          <p>
            Send it to them yourself. It works once, for 24 hours; they choose a password there and set up an authenticator at their first
            sign-in.
          </p>
          <p className="font-mono break-all" data-testid="enrol-link">
            {actionData.link.url}
          </p>
        </section>
      ) : null}
      <section className="card space-y-4" aria-labelledby="invite-title">
        <h2 id="invite-title" className="text-xl">
          Invite someone
        </h2>
        <Form method="post" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_14rem_auto] lg:items-start" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="invite" />
          <div className="sm:col-span-2 lg:col-span-4">
            <FormErrors id={form.errorId} errors={formErrors} />
          </div>
          <TextField field={fields.name} label="Name" autoComplete="off" />
          <TextField field={fields.email} label="Work e-mail" type="email" autoComplete="off" />
          <SelectField field={fields.role} label="Role" options={roles} />
          <button className="btn-primary lg:mt-7" disabled={busy}>
            Create the link
          </button>
        </Form>
      </section>
      <StaffTable label="Staff accounts" minWidth="min-w-[52rem]" columns={["Person", "Role", "State", "Since", "Access"]}>
        {staff.map((s) => (
          <tr key={s.id} data-testid="staff-row">
            <td className="px-3 py-2">
              {s.name ?? "No name"}
              {s.id === me ? " (you)" : ""}
              <span className="block text-slate-600">{s.email}</span>
            </td>
            <td className="px-3 py-2">
              {s.id === me ? (
                ROLE_LABEL[s.role]
              ) : (
                <Form method="post" className="flex items-center gap-2">
                  <input type="hidden" name="intent" value="role" />
                  <input type="hidden" name="userId" value={s.id} />
                  <label htmlFor={`role-${s.id}`} className="sr-only">
                    Role of {s.name ?? s.email}
                  </label>
                  <select id={`role-${s.id}`} name="role" className="field-input w-auto py-1" defaultValue={s.role}>
                    {STAFF_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_LABEL[r]}
                      </option>
                    ))}
                  </select>
                  <button className="btn-secondary px-3 py-1">Save</button>
                </Form>
              )}
            </td>
            <td className={`px-3 py-2 ${s.disabled ? "font-semibold text-danger-600" : ""}`}>{s.state}</td>
            <td className="px-3 py-2">{formatDateIST(new Date(s.since))}</td>
            <td className="px-3 py-2">
              {s.id === me ? null : (
                <div className="flex flex-wrap gap-2">
                  <Form method="post">
                    <input type="hidden" name="userId" value={s.id} />
                    <button className="btn-secondary px-3 py-1" name="intent" value={s.disabled ? "enable" : "disable"}>
                      {s.disabled ? "Enable" : "Disable"}
                    </button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="userId" value={s.id} />
                    <button className="btn-secondary px-3 py-1" name="intent" value="reset">
                      New link
                    </button>
                  </Form>
                </div>
              )}
            </td>
          </tr>
        ))}
      </StaffTable>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Staff accounts");
