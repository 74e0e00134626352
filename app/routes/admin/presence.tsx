import { useEffect } from "react";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { data, Form, useRevalidator } from "react-router";
import { requestContext, servicesContext } from "../../context.ts";
import { formatTimeIST } from "../../domain/india-date.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requirePermission, signedInContext } from "../../web/guards.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import type { Route } from "./+types/presence";
import { readForm } from "../../web/forms.server.ts";
import { onlineBorrowers, reloadBorrowerDevice } from "../../server/staff/presence.server.ts";

/** Presence and device reload: the roles that work with borrowers (all staff). */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("borrowers.manage")];

export async function loader({ context }: Route.LoaderArgs) {
  const online = await onlineBorrowers(context.get(servicesContext));
  return { online: online.map((r) => ({ id: r.id, mobile: r.mobile, name: r.name, tabs: r.tabs, since: r.connectedAt.toISOString() })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const form = await readForm(request);
  const sent = await reloadBorrowerDevice(services, {
    staff: user,
    borrowerId: String(form.get("userId") ?? ""),
    client: context.get(requestContext),
  });
  if (!sent.ok) throw data({ message: "No such borrower." }, { status: 404 });
  return redirectWithToast(services.config, request, "/admin/presence", {
    type: "success",
    title: `Reload sent to ${sent.mobile ?? "the borrower"}'s open pages.`,
  });
}

export default function Presence({ loaderData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  useEffect(() => {
    const source = new EventSource("/admin/presence/events");
    source.addEventListener("presence", () => void revalidator.revalidate());
    return () => source.close();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div>
      <h1 className="text-2xl sm:text-3xl">Borrowers online now</h1>
      <p className="mt-2 text-slate-700">This list updates by itself as borrowers open and close the site.</p>
      {loaderData.online.length === 0 ? (
        <p className="card mt-6" data-testid="nobody-online">
          No borrower has a page open right now.
        </p>
      ) : (
        <ul className="mt-6 space-y-3" aria-label="Borrowers online">
          {loaderData.online.map((b) => (
            <li key={b.id} className="card flex flex-wrap items-center justify-between gap-3" data-testid="online-borrower">
              <div>
                <p className="font-semibold">
                  {staffBorrowerName({ fullName: b.name, mobile: b.mobile })}
                  {b.name ? ` · +91 ${b.mobile}` : ""}
                </p>
                <p className="text-sm text-slate-600">
                  Online since {formatTimeIST(new Date(b.since))} · {b.tabs} {b.tabs === 1 ? "page" : "pages"} open
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="userId" value={b.id} />
                <button type="submit" className="btn-secondary" aria-label={`Reload device of +91 ${b.mobile}`}>
                  Reload device
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Borrowers online");
