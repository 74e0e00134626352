import { Form, redirect, useNavigation } from "react-router";
import { Link } from "../../lib/link.tsx";
import { z } from "zod";
import { PushOptIn } from "../../components/push-opt-in.tsx";
import { servicesContext } from "../../context.ts";
import { formatDateTimeIST } from "../../domain/india-date.ts";
import { pageMeta } from "../../lib/meta.ts";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../i18n/use-translations.ts";
import { pageMessages, pageMetaText } from "../../web/i18n.server.ts";
import { listNotices, markRead, announce } from "../../server/notifications/notify.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { safeRedirect, signedInContext } from "../../web/guards.server.ts";
import type { Language } from "../../i18n/languages.ts";
import type { Route } from "./+types/notifications";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");

const pageParam = z.coerce.number().int().min(0).max(10_000).catch(0);

/** Every notice the borrower has had, newest first (docs/product.md "Notifications"). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const page = pageParam.parse(new URL(request.url).searchParams.get("page") ?? 0);
  const { notices, more } = await listNotices(services, user.id, page);
  return {
    messages: pageMessages(context, ["notifications"]),
    meta: pageMetaText(context, "notifications"),
    page,
    more,
    pushKey: services.push?.publicKey ?? null,
    notices: notices.map((n) => ({
      id: n.id,
      title: n.title,
      body: n.body,
      at: n.availableAt.toISOString(),
      read: Boolean(n.readAt),
    })),
  };
}

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("open"), id: z.uuid() }),
  z.object({ intent: z.literal("read"), id: z.uuid() }),
  z.object({ intent: z.literal("read-all") }),
]);

/** Open a notice (marked read, then its page), mark one read, or all. Only the borrower's own. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const parsed = intentSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return new Response("Bad request", { status: 400 });
  const which = parsed.data.intent === "read-all" ? "all" : { id: parsed.data.id };
  const path = await markRead(services, user.id, which);
  if (which !== "all" && path === null) throw new Response("Not found", { status: 404 });
  await announce(services, user.id);
  // Only a path of this site (never "//elsewhere").
  if (parsed.data.intent === "open" && path) return redirect(safeRedirect(path, "/User/Notifications"));
  return null;
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { notices, page, more, pushKey } = loaderData;
  const busy = useNavigation().state !== "idle";
  const unread = notices.filter((n) => !n.read).length;
  const t = useTranslations("notifications");
  const language = useLocale() as Language;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{t("heading")}</h1>
        {unread > 0 && (
          <Form method="post">
            <button
              type="submit"
              name="intent"
              value="read-all"
              disabled={busy}
              className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              {t("markAllRead")}
            </button>
          </Form>
        )}
      </div>
      {notices.length === 0 ? (
        <p className="rounded-xl border border-slate-200 bg-white p-6 text-slate-700">{t("none")}</p>
      ) : (
        <ul className="space-y-3" aria-label={t("listLabel")}>
          {notices.map((n) => (
            <li
              key={n.id}
              className={`rounded-xl border p-4 ${n.read ? "border-slate-200 bg-white" : "border-brand-200 bg-brand-50"}`}
              data-notice={n.id}
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="text-lg font-semibold text-slate-900">
                  {!n.read && <span className="sr-only">{t("unread")}</span>}
                  {n.title}
                </h2>
                <time dateTime={n.at} className="text-sm text-slate-600">
                  {formatDateTimeIST(new Date(n.at), language)}
                </time>
              </div>
              <p className="mt-1 whitespace-pre-line text-slate-800">{n.body}</p>
              <Form method="post" className="mt-3 flex flex-wrap gap-2">
                <input type="hidden" name="id" value={n.id} />
                <button
                  type="submit"
                  name="intent"
                  value="open"
                  className="rounded-md bg-brand-700 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800"
                >
                  {t("open")}
                </button>
                {!n.read && (
                  <button
                    type="submit"
                    name="intent"
                    value="read"
                    disabled={busy}
                    className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
                  >
                    {t("markRead")}
                  </button>
                )}
              </Form>
            </li>
          ))}
        </ul>
      )}
      <nav aria-label={t("pages")} className="flex justify-between">
        {page > 0 ? (
          <Link to={page === 1 ? "/User/Notifications" : `/User/Notifications?page=${page - 1}`} className="text-brand-800 underline">
            {t("newer")}
          </Link>
        ) : (
          <span />
        )}
        {more && (
          <Link to={`/User/Notifications?page=${page + 1}`} className="text-brand-800 underline">
            {t("older")}
          </Link>
        )}
      </nav>
      <PushOptIn publicKey={pushKey} />
    </div>
  );
}
