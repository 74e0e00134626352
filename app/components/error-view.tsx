import { useEffect } from "react";
import { isRouteErrorResponse, useLocation } from "react-router";
import { isChunkLoadError, reloadOnceForChunkError } from "../lib/chunk-reload.ts";
import { useTranslations } from "../i18n/use-translations.ts";
import { NotFound } from "./not-found.tsx";

/**
 * What an error boundary shows: the not-found view for a 404, a chunk-load
 * failure reloads the page (guarded), anything else a plain 500 view whose
 * details appear only in development.
 */
export function ErrorView({ error }: { error: unknown }) {
  const location = useLocation();
  const chunkError = isChunkLoadError(error);
  const t = useTranslations("common");
  useEffect(() => {
    if (chunkError) reloadOnceForChunkError(location.pathname);
  }, [chunkError, location.pathname]);

  if (isRouteErrorResponse(error) && error.status === 404) {
    // Reference and outcome pages say "Page Not Found: {fullPath}" (docs/product.md "The public site"), in the page's language:
    // the server words it (app/web/not-found.server.ts) and sends the path with it.
    const { message, path } = (error.data as { message?: unknown; path?: unknown } | null) ?? {};
    const given = typeof message === "string" && (typeof path === "string" || message.startsWith("Page"));
    return (
      <div className="mx-auto max-w-3xl px-4 py-16">
        <title>{t("notFound.title")}</title>
        <NotFound message={given ? message : t("notFound.heading", { path: location.pathname })} />
      </div>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 403) {
    const message = (error.data as { message?: string } | null)?.message;
    return (
      <div className="mx-auto max-w-3xl px-4 py-16">
        <title>{t("error.forbiddenTitle")}</title>
        <h1>{t("error.forbiddenHeading")}</h1>
        <p className="mt-4 text-slate-700">{message ?? t("error.forbiddenBody")}</p>
        <p className="mt-6">
          <a className="link" href="/">
            {t("error.goHome")}
          </a>
        </p>
      </div>
    );
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error) && status < 500 ? (error.data as { message?: unknown } | null)?.message : null;
  const details = import.meta.env.DEV && error instanceof Error ? error.stack : null;
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <title>{chunkError ? t("error.updatingTitle") : status < 500 ? t("error.refusedTitle") : t("error.failedTitle")}</title>
      <h1>{chunkError ? t("error.updatingHeading") : status < 500 ? t("error.refusedHeading") : t("error.failedTitle")}</h1>
      <p className="mt-4 text-slate-700">
        {chunkError
          ? t("error.updatingBody")
          : status >= 500
            ? t("error.failedBody")
            : typeof message === "string"
              ? message
              : t("error.refusedBody", { status: String(status) })}
      </p>
      {details ? <pre className="mt-6 overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100">{details}</pre> : null}
      <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2">
        {status < 500 && !chunkError ? (
          // A refused form: its page, opened afresh.
          <a className="link" href={location.pathname + location.search}>
            {t("error.backToPage")}
          </a>
        ) : null}
        <a className="link" href="/">
          {t("error.goHome")}
        </a>
      </p>
    </div>
  );
}
