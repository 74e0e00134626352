import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { languageContext, requestContext, servicesContext } from "./context.ts";
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

export default function handleRequest(
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
  const nonce = requestNonce || undefined;
  // The messages the loader data names (app/i18n/messages.server.ts messagesRefs), each written once per process.
  const messages = messagesElements(routerContext.staticHandlerContext.loaderData, requestNonce);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    // The whole document, in one buffer: no route streams (every loader's data is there before the
    // render starts), and one write of the finished page costs far less than a stream of small chunks.
    const chunks: Buffer[] = [];
    const body = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeoutId);
        timeoutId = undefined;
        const html = withMessagesElements(withoutModulePreloads(Buffer.concat(chunks)), messages);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        responseHeaders.set("Content-Length", String(html.byteLength));
        resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });
    body.on("error", reject);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={requestNonce}>
        <PageLanguageProvider value={pageLanguage(routerContext, loadContext)}>
          <InlineStylesheetProvider value={inlineStylesheetFor(request)}>
            <ServerRouter context={withMatchedRoutesOnly(routerContext)} url={request.url} nonce={nonce} />
          </InlineStylesheetProvider>
        </PageLanguageProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.get(servicesContext).log.error({ err: error }, "streaming render error");
        },
      },
    );
  });
}
