import { useState } from "react";
import { Form, Link } from "react-router";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { type ClearReport, clearSiteData } from "../../lib/clear-site-data.ts";
import { pageMeta } from "../../lib/meta.ts";
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

export function loader({ request }: Route.LoaderArgs) {
  return { clearedByServer: new URL(request.url).searchParams.get("cleared") === "1" };
}

export default function ClearCache({ loaderData }: Route.ComponentProps) {
  const confirm = useConfirm();
  const [report, setReport] = useState<ClearReport | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const ok = await confirm({
      title: "Clear this site's data on this device?",
      description:
        "This removes saved data, cached files and cookies of this site from this browser. If you are signed in, you will be signed out.",
      confirmLabel: "Clear data",
      danger: true,
    });
    if (!ok) return;
    setBusy(true);
    setReport(await clearSiteData());
    setBusy(false);
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1>Clear this site's data</h1>
      <p className="mt-3 text-slate-700">
        If pages look out of date or something does not work as it should, clearing what this browser keeps for our site usually fixes it.
        It does not change anything in your account or your loans.
      </p>
      {report ? (
        <section aria-labelledby="cleared-title" className="card mt-6" role="status">
          <h2 id="cleared-title" className="text-xl">
            Done. Here is what was cleared
          </h2>
          <ul className="mt-3 list-disc space-y-1 pl-6">
            <li>Local storage: {report.localStorage} item(s)</li>
            <li>Session storage: {report.sessionStorage} item(s)</li>
            <li>Cookies readable by the page: {report.cookies} cookie(s)</li>
            <li>Cache storage: {report.caches} cache(s)</li>
            <li>Service workers: {report.serviceWorkers} unregistered</li>
          </ul>
          <p className="mt-4">
            <a className="btn-primary" href="/">
              Go to the home page
            </a>
          </p>
        </section>
      ) : loaderData.clearedByServer ? (
        <section className="card mt-6" role="status">
          <h2 className="text-xl">Done</h2>
          <p className="mt-2">Your browser was asked to clear this site's cache, cookies and storage.</p>
          <p className="mt-4">
            <Link className="btn-primary" to="/">
              Go to the home page
            </Link>
          </p>
        </section>
      ) : (
        <Form method="post" className="card mt-6" onSubmit={onSubmit}>
          <p>Clears local storage, session storage, cookies, cached files and background workers of this site.</p>
          <button type="submit" className="btn-danger mt-4" disabled={busy}>
            {busy ? "Clearing…" : "Clear data on this device"}
          </button>
        </Form>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Clear this site's data", "Clear what this browser keeps for our site.");
