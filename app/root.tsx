// First, for its effect: before any module builds a schema (see the file).
// oxlint-disable-next-line import/no-unassigned-import
import "./lib/zod-in-browser.ts";
import { useEffect, useMemo } from "react";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import { IntlProvider } from "use-intl/react";
import type { Route } from "./+types/root";
import { ConfirmProvider } from "./components/confirm-dialog.tsx";
import { FlashToasts } from "./components/flash-toasts.tsx";
import { ErrorView } from "./components/error-view.tsx";
import { TopLoadingBar } from "./components/top-loading-bar.tsx";
import { servicesContext } from "./context.ts";
import { DEFAULT_LANGUAGE, HTML_LANG } from "./i18n/languages.ts";
import { TIME_ZONE } from "./i18n/messages.ts";
import { readMessages } from "./i18n/read-messages.ts";
import { languageMiddleware, languageOf, pageMessages } from "./web/i18n.server.ts";
import { useNonce } from "./lib/nonce.tsx";
import { PageLanguageData, usePageLanguageFallback } from "./lib/page-language.tsx";
import { readToast } from "./web/flash.server.ts";
import { ICON_URL } from "./lib/icon.ts";
import { Stylesheet } from "./lib/stylesheet.tsx";

export const middleware: Route.MiddlewareFunction[] = [languageMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext);
  const { toast, headers } = await readToast(config, request);
  const language = languageOf(context);
  // "account": the signed-in frame's words, here because the frame shows also in its own error view,
  // where its layout's loader data is gone (a loader below it threw).
  return data(
    { publicConfig: config.public, toast, language, messages: pageMessages(context, ["common", "validation", "account"]) },
    { headers },
  );
}

export const links: Route.LinksFunction = () => [
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "icon", href: ICON_URL, type: "image/svg+xml" },
];

/**
 * The messages of every matched route (each loader sends its page's namespaces in the page's
 * language), for one provider around the whole document: error views below any route read them too.
 */
function useRouteMessages(fallback: object | undefined) {
  const matches = useMatches();
  const parts = [fallback, ...matches.map((match) => (match.loaderData as { messages?: object } | undefined)?.messages)];
  // oxlint-disable-next-line react-hooks/exhaustive-deps -- the parts are the dependencies
  return useMemo(() => readMessages(parts as (Record<string, unknown> | undefined)[]), parts);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce() || undefined;
  const root = useRouteLoaderData<typeof loader>("root");
  // An error thrown by a middleware renders before any loader ran: the server gives the words.
  const fallback = usePageLanguageFallback(!root);
  const language = root?.language ?? fallback?.language ?? DEFAULT_LANGUAGE;
  const messages = useRouteMessages(fallback?.messages);
  return (
    <html lang={HTML_LANG[language]}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d5fd1" />
        <Meta />
        <Stylesheet />
        <Links />
      </head>
      <body className="min-h-screen">
        {fallback ? <PageLanguageData value={fallback} /> : null}
        <TopLoadingBar />
        <IntlProvider locale={language} messages={messages} timeZone={TIME_ZONE}>
          {children}
        </IntlProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  useEffect(() => {
    // A marker for tests and for styles that need JavaScript.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <ConfirmProvider>
      <FlashToasts toast={loaderData.toast} />
      <Outlet />
    </ConfirmProvider>
  );
}

/** The root's public config, for any component below the root. */
export function usePublicConfig() {
  const rootData = useRouteLoaderData<typeof loader>("root");
  return rootData?.publicConfig;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <main id="main">
      <ErrorView error={error} />
    </main>
  );
}
