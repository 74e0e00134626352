import { and, desc, eq, gt, inArray } from "drizzle-orm";
import { useEffect } from "react";
import { data, Form, useRevalidator } from "react-router";
import { requestContext, servicesContext } from "../../context.ts";
import { formatTimeIST } from "../../lib/format.ts";
import { pageMeta } from "../../lib/meta.ts";
import { signedInContext } from "../../web/guards.server.ts";
import { audit } from "../../server/auth/staff.server.ts";
import { presenceConnections, users } from "../../server/db/schema.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { STALE_MS } from "../../server/realtime/hub.server.ts";
import type { Route } from "./+types/presence";
import { readForm } from "../../web/forms.server.ts";
import { isUuid } from "../../domain/validators/ids.ts";

export async function loader({ context }: Route.LoaderArgs) {
  const { db, realtime, now } = context.get(servicesContext);
  const ids = await realtime.onlineUserIds();
  if (ids.length === 0) return { online: [] };
  const rows = await db
    .select({ id: users.id, mobile: users.mobile, name: users.name, connectedAt: presenceConnections.connectedAt })
    .from(users)
    .innerJoin(presenceConnections, eq(presenceConnections.userId, users.id))
    .where(
      and(inArray(users.id, ids), eq(users.role, "borrower"), gt(presenceConnections.heartbeatAt, new Date(now().getTime() - STALE_MS))),
    )
    .orderBy(desc(presenceConnections.connectedAt));
  const seen = new Map<string, (typeof rows)[number] & { tabs: number }>();
  for (const row of rows) {
    const existing = seen.get(row.id);
    if (existing) existing.tabs += 1;
    else seen.set(row.id, { ...row, tabs: 1 });
  }
  return {
    online: [...seen.values()].map((r) => ({ id: r.id, mobile: r.mobile, name: r.name, tabs: r.tabs, since: r.connectedAt.toISOString() })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const { ip, userAgent } = context.get(requestContext);
  const form = await readForm(request);
  const userId = String(form.get("userId") ?? "");
  if (!isUuid(userId)) throw data({ message: "No such borrower." }, { status: 404 });
  const [borrower] = await services.db
    .select({ id: users.id, mobile: users.mobile })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.role, "borrower")));
  if (!borrower) throw data({ message: "No such borrower." }, { status: 404 });
  await services.realtime.publish({ type: "reload", userId: borrower.id });
  await audit(services, {
    actorUserId: user.id,
    actorRole: user.role,
    action: "presence.device_reload",
    subjectType: "user",
    subjectId: borrower.id,
    ip,
    userAgent,
  });
  return redirectWithToast(services.config, request, "/admin/presence", {
    type: "success",
    title: `Reload sent to ${borrower.mobile ?? "the borrower"}'s open pages.`,
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
                  {b.name ?? "Borrower"} · +91 {b.mobile}
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
