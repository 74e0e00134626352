// A small React Router app served by React Router's own request handler, for unit tests of the
// document entry's parts: routes given as specs (id, parent, path, module), a manifest made from
// them, and the test's own document entry.
import { createElement as h, type FunctionComponent } from "react";
import { renderToReadableStream } from "react-dom/server";
import {
  data,
  type EntryContext,
  Outlet,
  ServerRouter,
  type ServerBuild,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "react-router";

export type RouteModule = NonNullable<ServerBuild["routes"][string]>["module"];
export interface RouteSpec {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: RouteModule;
}

const statusOf = (error: unknown) => (error as { status?: number }).status ?? "?";

/** The root route: `Root` (the document), a title, and an error boundary saying "Not found (status)". */
export const rootRoute = (Root: FunctionComponent): RouteSpec => ({
  id: "root",
  path: "",
  module: {
    default: Root,
    meta: () => [{ title: "Test" }],
    ErrorBoundary: () => h("p", { role: "alert" }, `Not found (${statusOf(useRouteError())})`),
  } as unknown as RouteModule,
});

/**
 * A signed-in area under the root: a layout at /account with its own loader ({ unread: 3 }) and
 * error boundary ("No such page (status)"), and a loan page at /account/loans/:number whose loader
 * throws a 404 for "missing" and whose text needs escaping.
 */
export const accountRoutes: RouteSpec[] = [
  {
    id: "account",
    parentId: "root",
    path: "account",
    module: {
      loader: () => ({ unread: 3 }),
      default: () => h("section", null, h(Outlet)),
      ErrorBoundary: () => h("p", { role: "alert" }, `No such page (${statusOf(useRouteError())})`),
    } as unknown as RouteModule,
  },
  {
    id: "loan",
    parentId: "account",
    path: "loans/:number",
    module: {
      loader: ({ params }: { params: { number?: string } }) => {
        if (params.number === "missing") throw data(null, { status: 404 });
        return { number: params.number, text: "<script>alert(1)</script> & “quotes”" };
      },
      meta: () => [{ title: "A loan" }],
      default: () => {
        const { number, text } = useLoaderData() as { number: string; text: string };
        const layout = useRouteLoaderData("account") as { unread: number };
        return h("div", null, h("h1", null, `Loan ${number}, ${layout.unread} unread`), h("p", null, text));
      },
    } as unknown as RouteModule,
  },
];

export function serverBuild(
  specs: readonly RouteSpec[],
  entry: ServerBuild["entry"]["module"],
  { routeDiscovery = "initial" }: { routeDiscovery?: "initial" | "lazy" } = {},
): ServerBuild {
  return {
    entry: { module: entry },
    routes: Object.fromEntries(specs.map((s) => [s.id, { ...s, caseSensitive: false }])),
    assets: {
      entry: { imports: [], module: "/assets/entry.js" },
      url: "/assets/manifest.js",
      version: "1",
      routes: Object.fromEntries(
        specs.map((s) => [
          s.id,
          {
            id: s.id,
            parentId: s.parentId,
            path: s.path,
            index: s.index,
            module: `/assets/${s.id}.js`,
            imports: [`/assets/shared-${s.id.length % 3}.js`],
            css: [`/assets/${s.id}.css`],
            hasAction: false,
            hasLoader: "loader" in s.module,
            hasClientAction: false,
            hasClientLoader: "clientLoader" in s.module,
            hasClientMiddleware: false,
            hasErrorBoundary: "ErrorBoundary" in s.module,
            clientActionModule: undefined,
            clientLoaderModule: undefined,
            clientMiddlewareModule: undefined,
            hydrateFallbackModule: undefined,
          },
        ]),
      ),
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {} as ServerBuild["future"],
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: routeDiscovery, manifestPath: "/__manifest" },
  } as ServerBuild;
}

/** The whole document as React's stock streaming render gives it once all is ready, its loader data streamed into it included. */
export async function stockDocument(context: EntryContext, url: string) {
  const stream = await renderToReadableStream(h(ServerRouter, { context, url }), { onError: () => {} });
  await stream.allReady;
  return new Response(stream).text();
}

/**
 * Two contexts for two renders of one page: each render reads the loader data's stream, keeps what
 * it read (renderMeta) and changes the handler's state (which loaders hydrate), so each gets its own.
 */
export function twoContexts(context: EntryContext): [EntryContext, EntryContext] {
  const [first, second] = context.serverHandoffStream?.tee() ?? [];
  const own = (stream: ReadableStream<Uint8Array> | undefined): EntryContext => ({
    ...context,
    serverHandoffStream: stream,
    renderMeta: {},
    staticHandlerContext: { ...context.staticHandlerContext },
  });
  return [own(first), own(second)];
}
