import { useState } from "react";
import { Form } from "react-router";
import { Link } from "../../lib/link.tsx";
import { useTranslations } from "../../i18n/use-translations.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { type ClearReport, clearSiteData } from "../../lib/clear-site-data.ts";
import { pageMeta } from "../../lib/meta.ts";
import { pageMessages, pageMetaText } from "../../web/i18n.server.ts";
import type { Route } from "./+types/clear-cache";

/**
 * Without JavaScript the form posts here and the answer's Clear-Site-Data
 * header makes the browser clear this site's cache, cookies and storage.
 */
export async function action() {
  return new Response(null, {
    status: 303,
    headers: { "Clear-Site-Data": '"cache", "cookies", "storage"', Location: "/ClearCache?cleared=1" },
  });
}

export function loader({ request, context }: Route.LoaderArgs) {
  return {
    clearedByServer: new URL(request.url).searchParams.get("cleared") === "1",
    messages: pageMessages(context, ["clearCache"]),
    meta: pageMetaText(context, "clearCache"),
  };
}

export default function ClearCache({ loaderData }: Route.ComponentProps) {
  const confirm = useConfirm();
  const t = useTranslations("clearCache");
  const [report, setReport] = useState<ClearReport | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const ok = await confirm({
      title: t("confirm.title"),
      description: t("confirm.description"),
      confirmLabel: t("confirm.confirm"),
      cancelLabel: t("confirm.cancel"),
      danger: true,
    });
    if (!ok) return;
    setBusy(true);
    setReport(await clearSiteData());
    setBusy(false);
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1>{t("heading")}</h1>
      <p className="mt-3 text-slate-700">{t("intro")}</p>
      {report ? (
        <section aria-labelledby="cleared-title" className="card mt-6" role="status">
          <h2 id="cleared-title" className="text-xl">
            {t("report.heading")}
          </h2>
          <ul className="mt-3 list-disc space-y-1 pl-6">
            <li>{t("report.localStorage", { count: String(report.localStorage) })}</li>
            <li>{t("report.sessionStorage", { count: String(report.sessionStorage) })}</li>
            <li>{t("report.cookies", { count: String(report.cookies) })}</li>
            <li>{t("report.caches", { count: String(report.caches) })}</li>
            <li>{t("report.serviceWorkers", { count: String(report.serviceWorkers) })}</li>
          </ul>
          <p className="mt-4">
            <a className="btn-primary" href="/">
              {t("goHome")}
            </a>
          </p>
        </section>
      ) : loaderData.clearedByServer ? (
        <section className="card mt-6" role="status">
          <h2 className="text-xl">{t("byServer.heading")}</h2>
          <p className="mt-2">{t("byServer.body")}</p>
          <p className="mt-4">
            <Link className="btn-primary" to="/">
              {t("goHome")}
            </Link>
          </p>
        </section>
      ) : (
        <Form method="post" className="card mt-6" onSubmit={onSubmit}>
          <p>{t("form.body")}</p>
          <button type="submit" className="btn-danger mt-4" disabled={busy}>
            {busy ? t("form.clearing") : t("form.submit")}
          </button>
        </Form>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);
