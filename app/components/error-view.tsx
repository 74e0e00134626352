import { useEffect } from "react";
import { isRouteErrorResponse, useLocation } from "react-router";
import { isChunkLoadError, reloadOnceForChunkError } from "../lib/chunk-reload.ts";
import { NotFound } from "./not-found.tsx";

/**
 * What an error boundary shows: the not-found view for a 404, a chunk-load
 * failure reloads the page (guarded), anything else a plain 500 view whose
 * details appear only in development.
 */
export function ErrorView({ error }: { error: unknown }) {
  const location = useLocation();
  const chunkError = isChunkLoadError(error);
  useEffect(() => {
    if (chunkError) reloadOnceForChunkError(location.pathname);
  }, [chunkError, location.pathname]);

  if (isRouteErrorResponse(error) && error.status === 404) {
    // Reference and outcome pages say "Page Not Found: {fullPath}" (docs/product.md "The public site"); the server sets it.
    const message = (error.data as { message?: unknown } | null)?.message;
    return (
      <div className="mx-auto max-w-3xl px-4 py-16">
        <title>Page not found</title>
        <NotFound message={typeof message === "string" && message.startsWith("Page") ? message : `Page not found: ${location.pathname}`} />
      </div>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 403) {
    const message = (error.data as { message?: string } | null)?.message;
    return (
      <div className="mx-auto max-w-3xl px-4 py-16">
        <title>Not allowed</title>
        <h1>You cannot open this page</h1>
        <p className="mt-4 text-slate-700">{message ?? "Your account does not have access to this page."}</p>
        <p className="mt-6">
          <a className="link" href="/">
            Go to the home page
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
      <title>{chunkError ? "Updating…" : status < 500 ? "Not accepted" : "Something went wrong"}</title>
      <h1>{chunkError ? "A newer version is available" : status < 500 ? "That could not be accepted" : "Something went wrong"}</h1>
      <p className="mt-4 text-slate-700">
        {chunkError
          ? "This page is reloading to fetch the latest version."
          : status >= 500
            ? "We could not complete your request. Please try again in a moment; if it keeps happening, contact us."
            : typeof message === "string"
              ? message
              : `The request could not be completed (status ${status}).`}
      </p>
      {details ? <pre className="mt-6 overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100">{details}</pre> : null}
      <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2">
        {status < 500 && !chunkError ? (
          // A refused form: its page, opened afresh.
          <a className="link" href={location.pathname + location.search}>
            Back to the page
          </a>
        ) : null}
        <a className="link" href="/">
          Go to the home page
        </a>
      </p>
    </div>
  );
}
