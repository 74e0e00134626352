// First, for its effect: before any module builds a schema (see the file).
// oxlint-disable-next-line import/no-unassigned-import
import "./lib/zod-in-browser.ts";
import { useEffect } from "react";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { ConfirmProvider } from "./components/confirm-dialog.tsx";
import { FlashToasts } from "./components/flash-toasts.tsx";
import { ErrorView } from "./components/error-view.tsx";
import { TopLoadingBar } from "./components/top-loading-bar.tsx";
import { servicesContext } from "./context.ts";
import { useNonce } from "./lib/nonce.tsx";
import { readToast } from "./web/flash.server.ts";
import { ICON_URL } from "./lib/icon.ts";
import { Stylesheet } from "./lib/stylesheet.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext);
  const { toast, headers } = await readToast(config, request);
  return data({ publicConfig: config.public, toast }, { headers });
}

export const links: Route.LinksFunction = () => [
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "icon", href: ICON_URL, type: "image/svg+xml" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce() || undefined;
  return (
    <html lang="en-IN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d5fd1" />
        <Meta />
        <Stylesheet />
        <Links />
      </head>
      <body className="min-h-screen">
        <TopLoadingBar />
        {children}
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
