import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { FormErrors, TextAreaField } from "../../components/field.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { closeMonthSchema, monthLabel, nextMonth } from "../../domain/books/reports.ts";
import { formatDateTimeIST, longDate, todayIST } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { closeMonth, periodsOverview } from "../../server/books/periods.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import { BooksHeader, CELL } from "./books/parts.tsx";
import type { Route } from "./+types/books-periods";

/**
 * Accounting periods (docs/product.md "The lender's books"): each month of the books, open or
 * closed (by whom, when, with what note), and the form that closes the next month once it has
 * ended. Finance and administrators close a month; compliance reads.
 */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("books.view")];

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const today = todayIST(services.now());
  const overview = await periodsOverview(services, today);
  return {
    today,
    mayManage: can(user.role, "books.manage"),
    next: overview.next,
    lastClosed: overview.lastClosed,
    months: overview.months.map((m) => ({
      ...m,
      closed: m.closed ? { by: m.closed.by, at: formatDateTimeIST(m.closed.closedAt), note: m.closed.note } : null,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = assertCan(context, "books.manage");
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: closeMonthSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { month, note } = submission.value;
  const closed = await closeMonth(services, {
    month,
    note,
    staff: { id: user.id, role: user.role as StaffRole },
    client: context.get(requestContext),
    today: todayIST(services.now()),
  });
  if (closed.ok)
    return redirectWithToast(services.config, request, "/admin/books/periods", {
      type: "success",
      title: `${monthLabel(month)} is closed.`,
      description: `${closed.provisionedNow ? "It was provisioned first. " : ""}Events dated in it are journalled from ${longDate(`${nextMonth(month)}-01`)}.`,
    });
  // The same form sent twice: the first closed it.
  if (closed.refusal === "closed")
    return redirectWithToast(services.config, request, "/admin/books/periods", { type: "info", title: closed.message });
  return data(submission.reply({ formErrors: [closed.message] }), { status: 409 });
}

type Data = Route.ComponentProps["loaderData"];

function Check({ ok, children }: { ok: boolean; children: React.ReactNode }) {
  return (
    <li className="flex gap-2">
      <span aria-hidden="true" className={ok ? "text-money-700" : "text-danger-600"}>
        {ok ? "✓" : "✗"}
      </span>
      <span>{children}</span>
    </li>
  );
}

function CloseForm({ d, lastResult }: { d: Data; lastResult: Route.ComponentProps["actionData"] }) {
  const label = monthLabel(d.next.month);
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: `close-${d.next.month}`,
    schema: closeMonthSchema,
    lastResult,
    defaultValue: { note: "" },
  });
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <input type="hidden" name="month" value={d.next.month} />
      <FormErrors id={form.errorId} errors={formErrors} />
      <TextAreaField
        field={fields.note!}
        label="Note for the file"
        hint="What was checked before closing (bank reconciled, suspense cleared…). Kept with the month, with your name."
        rows={2}
      />
      <button className="btn-primary" disabled={busy} data-testid="close-month">
        Close {label}
      </button>
    </Form>
  );
}

function NextMonth({ d, actionData }: { d: Data; actionData: Route.ComponentProps["actionData"] }) {
  const n = d.next;
  const label = monthLabel(n.month);
  return (
    <section className="card space-y-4" aria-labelledby="next-title" data-testid="next-close">
      <h2 id="next-title" className="text-xl">
        Next to close: {label}
      </h2>
      <ul className="space-y-1">
        <Check ok={n.ended}>
          {n.ended ? `${label} ended on ${longDate(n.end)}.` : `${label} ends on ${longDate(n.end)}: it can be closed from the day after.`}
        </Check>
        <Check ok>
          {d.lastClosed
            ? `${monthLabel(d.lastClosed)}, the month before it, is closed.`
            : "It is the books' first month: nothing is journalled before it."}
        </Check>
        <Check ok>
          {n.provisioned ? "It was provisioned at its end." : "It has not been provisioned yet: closing it provisions it first."}
        </Check>
        <Check ok={n.suspensePaise === 0}>
          {n.suspensePaise === 0 ? (
            "The suspense account holds nothing at its end."
          ) : (
            <>
              The suspense account holds {formatRupees(Math.abs(n.suspensePaise))} at its end: clear it with a correcting entry first (
              <Link className="link" to={`/admin/books/accounts/books_suspense?to=${n.end}`}>
                its ledger
              </Link>
              ).
            </>
          )}
        </Check>
      </ul>
      {!n.ended ? null : d.mayManage ? (
        <CloseForm key={n.month} d={d} lastResult={actionData} />
      ) : (
        <p className="text-slate-700">Only finance and administrators close a month.</p>
      )}
    </section>
  );
}

export default function Periods({ loaderData: d, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-5">
      <BooksHeader title="Accounting periods">
        <p>
          A closed month takes no new entries: the database refuses any entry dated in it. An event dated in a closed month (a late payment
          answer, a reversal) is journalled on the first open day, the first of the next open month, and keeps its own date in the loan's
          ledger; the closed month's classification and provisioning are not worked out again. Months close in order, each once it has
          ended, been provisioned and left nothing in the suspense account.
        </p>
      </BooksHeader>
      <NextMonth d={d} actionData={actionData} />
      <section className="space-y-3" aria-labelledby="months-title">
        <h2 id="months-title" className="text-xl">
          Months
        </h2>
        <StaffTable
          label="Months of the books, table"
          minWidth="min-w-[48rem]"
          columns={["Month", "State", "Provisioned", "Closed by, when", "Note"]}
        >
          {d.months.map((m) => (
            <tr key={m.month} data-testid="period" data-month={m.month} className="align-top">
              <th scope="row" className={`${CELL} text-left font-medium whitespace-nowrap`}>
                {monthLabel(m.month)}
              </th>
              <td className={CELL} data-testid="period-state">
                {m.closed ? "Closed" : m.ended ? "Open" : "Open (not ended)"}
              </td>
              <td className={CELL}>{m.provisioned ? "Yes" : "No"}</td>
              <td className={CELL}>
                {m.closed ? (
                  <>
                    {m.closed.by ?? "Unknown"}
                    <span className="block text-slate-600">{m.closed.at}</span>
                  </>
                ) : (
                  ""
                )}
              </td>
              <td className={CELL}>{m.closed?.note ?? ""}</td>
            </tr>
          ))}
        </StaffTable>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Accounting periods");
