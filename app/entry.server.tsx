import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { type AppServices, languageContext, requestContext, servicesContext } from "./context.ts";
import { compiledMessages, messagesElements, withMessagesElements } from "./i18n/messages.server.ts";
import { shareTranslators } from "./i18n/shared-translators.server.ts";
import { PageLanguageProvider } from "./lib/page-language.tsx";
import { scrubUrl } from "../server/logger.ts";
import { isDatabaseUnavailable } from "./server/db/unavailable.ts";
import { NonceProvider } from "./lib/nonce.tsx";
import { InlineStylesheetProvider } from "./lib/stylesheet.tsx";
import { withMatchedRoutesOnly } from "./web/matched-routes.server.ts";
import { withoutModulePreloads } from "./web/module-preloads.server.ts";
import { inlineStylesheetFor } from "./web/stylesheet.server.ts";
import { renderDocument } from "./web/render-document.server.ts";

export const streamTimeout = 5_000;

// Every page's translators made once per process and language (the root's provider: use-intl's defaults).
shareTranslators();

/**
 * Errors of loaders, actions and rendering, in the process's JSON log (the
 * logger leaves out the values a failed query carried), never on the console.
 * A request its client abandoned is not an error of ours.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const services = (context as RouterContextProvider).get(servicesContext);
  const info = (context as RouterContextProvider).get(requestContext);
  const { requestId } = info;
  // The database out of reach: the request is answered with the "we'll be back" page (server/app.ts).
  if (isDatabaseUnavailable(error)) info.databaseUnavailable = true;
  services.log.error(
    { err: error, reqId: requestId, method: request.method, path: scrubUrl(new URL(request.url).pathname) },
    "request failed",
  );
};

/** The words every page needs, when the root's loader did not run (an error thrown by a middleware); else null. */
function pageLanguage(routerContext: EntryContext, loadContext: RouterContextProvider) {
  if (routerContext.staticHandlerContext.loaderData.root !== undefined) return null;
  const language = loadContext.get(languageContext);
  return { language, messages: compiledMessages(language, ["common", "validation", "account"]) };
}

let streamedNoted = false;

/**
 * A page that suspended in the one-pass render and was rendered again by the streaming renderer
 * (app/web/render-document.server.ts): right, but at about a third more CPU. Said once per process.
 */
function noteStreamed(log: AppServices["log"], request: Request) {
  if (streamedNoted) return;
  streamedNoted = true;
  log.warn(
    { path: scrubUrl(new URL(request.url).pathname) },
    "a page suspended while rendering and was rendered again by the streaming renderer (slower): see app/web/render-document.server.ts",
  );
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce: requestNonce } = loadContext.get(requestContext);
  const { log } = loadContext.get(servicesContext);
  const nonce = requestNonce || undefined;
  // The messages the loader data names (app/i18n/messages.server.ts messagesRefs), each written once per process.
  const messages = messagesElements(routerContext.staticHandlerContext.loaderData, requestNonce);

  const page = await renderDocument(
    routerContext,
    (context) => (
      <NonceProvider value={requestNonce}>
        <PageLanguageProvider value={pageLanguage(routerContext, loadContext)}>
          <InlineStylesheetProvider value={inlineStylesheetFor(request)}>
            <ServerRouter context={withMatchedRoutesOnly(context)} url={request.url} nonce={nonce} />
          </InlineStylesheetProvider>
        </PageLanguageProvider>
      </NonceProvider>
    ),
    { nonce, timeoutMs: streamTimeout + 1000, onError: (error) => log.error({ err: error }, "streaming render error") },
  );
  if (page.streamed) noteStreamed(log, request);
  const html = withMessagesElements(withoutModulePreloads(page.html), messages);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Content-Length", String(html.byteLength));
  return new Response(html, { headers: responseHeaders, status: page.failed ? 500 : responseStatusCode });
}
