import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { FormErrors, TextField } from "../../components/field.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { holidaySchema } from "../../domain/holidays.ts";
import { longDate } from "../../domain/india-date.ts";
import type { StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { addHoliday, holidayCalendar, removeHoliday } from "../../server/holidays.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import type { Route } from "./+types/holidays";

/** Holidays (docs/product.md "Holidays"): administrators only. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("settings.manage")];

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

export async function loader({ context }: Route.LoaderArgs) {
  const calendar = await holidayCalendar(context.get(servicesContext));
  return {
    source: calendar.source,
    rows: calendar.rows.map((r) => ({
      date: r.date,
      name: r.name,
      weekday: WEEKDAYS[new Date(`${r.date}T00:00:00Z`).getUTCDay()] ?? "",
      addedBy: r.addedBy,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const editor = { staff: { id: user.id, role: user.role as StaffRole }, client: context.get(requestContext) };
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const toast = (title: string, type: "success" | "error" = "success") =>
    redirectWithToast(services.config, request, "/admin/holidays", { type, title });
  if (intent === "add") {
    const submission = parseWithZod(form, { schema: holidaySchema });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    await addHoliday(services, editor, submission.value);
    return toast(
      `${longDate(submission.value.date)} is a holiday now: not a working day for KFS validity, disbursal dates and review ages.`,
    );
  }
  if (intent === "remove") {
    const date = String(form.get("date") ?? "");
    const removed = /^\d{4}-\d{2}-\d{2}$/.test(date) && (await removeHoliday(services, editor, { date }));
    return removed ? toast(`${longDate(date)} is a working day again.`) : toast("That date is not in the calendar.", "error");
  }
  throw data({ message: "Unknown action." }, { status: 400 });
}

export default function Holidays({ loaderData, actionData }: Route.ComponentProps) {
  const { form, fields, formErrors, busy } = useSchemaForm({ id: "holiday", schema: holidaySchema, lastResult: actionData?.result });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">Holidays</h1>
      <p className="text-slate-700" data-testid="holiday-source">
        {loaderData.source === "configuration"
          ? "The calendar comes from HOLIDAYS in the configuration. Your first change copies those dates here; from then on this list is the calendar."
          : "This list is the calendar (HOLIDAYS in the configuration is no longer read)."}{" "}
        Saturdays and Sundays are never working days.
      </p>
      <section className="card space-y-4" aria-labelledby="add-title">
        <h2 id="add-title" className="text-xl">
          Add a holiday
        </h2>
        <Form method="post" className="grid gap-4 sm:grid-cols-[12rem_1fr_auto] sm:items-start" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="add" />
          <div className="sm:col-span-3">
            <FormErrors id={form.errorId} errors={formErrors} />
          </div>
          <TextField field={fields.date} label="Date" type="date" />
          <TextField field={fields.name} label="Name" autoComplete="off" />
          <button className="btn-primary sm:mt-7" disabled={busy}>
            Add
          </button>
        </Form>
      </section>
      {loaderData.rows.length ? (
        <StaffTable label="Holidays, table" minWidth="min-w-[32rem]" columns={["Date", "Name", "Change"]}>
          {loaderData.rows.map((r) => (
            <tr key={r.date} data-testid="holiday-row">
              <td className="px-3 py-2 whitespace-nowrap">
                {longDate(r.date)}
                <span className="block text-slate-600">{r.weekday}</span>
              </td>
              <td className="px-3 py-2">
                {r.name}
                {r.addedBy ? <span className="block text-slate-600">Added by {r.addedBy}</span> : null}
              </td>
              <td className="px-3 py-2">
                <Form method="post">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="date" value={r.date} />
                  <button className="btn-secondary px-3 py-1" aria-label={`Remove ${longDate(r.date)}`}>
                    Remove
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </StaffTable>
      ) : (
        <p className="card">No holidays: every weekday is a working day.</p>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Holidays");
