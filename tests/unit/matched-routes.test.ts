// <ServerRouter> given only the matched routes renders the same document as given them all: a small
// app (root, a pathless layout, an index with a form, a signed-in layout with its own loader and
// error boundary, a page that throws a 404, a page hydrated by its client loader, a page whose links
// name another page to prefetch, and a hundred other routes) served by React Router's own request
// handler, whose document entry renders each page both ways, each from a context of its own.
import { createElement as h } from "react";
import { createRequestHandler, type EntryContext, Form, Links, Meta, Outlet, Scripts, useMatches } from "react-router";
import { describe, expect, it } from "vitest";
import { withMatchedRoutesOnly } from "../../app/web/matched-routes.server.ts";
import {
  accountRoutes,
  type RouteModule,
  type RouteSpec,
  rootRoute,
  serverBuild,
  stockDocument,
  twoContexts,
} from "../helpers/server-build.ts";

const Root = () =>
  h(
    "html",
    { lang: "en" },
    h("head", null, h(Meta), h(Links)),
    h(
      "body",
      null,
      h(
        "p",
        { id: "matched" },
        useMatches()
          .map((m) => m.id)
          .join(" "),
      ),
      h(Outlet),
      h(Scripts),
    ),
  );

const filler: RouteSpec[] = Array.from({ length: 100 }, (_, n) => ({
  id: `filler-${n}`,
  parentId: n % 2 ? "site" : "account",
  path: `filler/${n}/:param`,
  module: { default: () => h("p", null, `filler ${n}`) } as RouteModule,
}));

const specs: RouteSpec[] = [
  rootRoute(Root),
  { id: "site", parentId: "root", module: { default: () => h("div", { className: "site" }, h(Outlet)) } as RouteModule },
  {
    id: "home",
    parentId: "site",
    index: true,
    module: { default: () => h(Form, { method: "post" }, h("button", null, "Send")) } as RouteModule,
  },
  {
    id: "later",
    parentId: "site",
    path: "later",
    module: {
      loader: () => ({ from: "server" }),
      clientLoader: Object.assign(() => ({ from: "browser" }), { hydrate: true }),
      HydrateFallback: () => h("p", null, "Loading…"),
      default: () => h("p", null, "Later"),
    } as unknown as RouteModule,
  },
  {
    id: "prefetching",
    parentId: "site",
    path: "prefetching",
    module: { links: () => [{ page: "/about" }], default: () => h("p", null, "Prefetching") } as unknown as RouteModule,
  },
  { id: "about", parentId: "site", path: "about", module: { default: () => h("h1", null, "About") } as RouteModule },
  ...accountRoutes,
  ...filler,
];

/** Each page rendered with every route in the manifest, then with only the matched ones. */
async function renderBothWays(request: Request, status: number, headers: Headers, context: EntryContext) {
  const [first, second] = twoContexts(context);
  const all = await stockDocument(first, request.url);
  const pruned = withMatchedRoutesOnly(second);
  const matched = await stockDocument(pruned, request.url);
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify({ all, matched, routes: Object.keys(pruned.manifest.routes).sort() }), { status, headers });
}

const buildWith = (mode: "initial" | "lazy") =>
  // React Router logs a route's error unless the entry handles it; these are expected.
  serverBuild(specs, { default: renderBothWays, handleError: () => {} }, { routeDiscovery: mode });

async function page(path: string, mode: "initial" | "lazy" = "initial") {
  const response = await createRequestHandler(buildWith(mode), "production")(new Request(`http://localhost${path}`));
  return { status: response.status, ...((await response.json()) as { all: string; matched: string; routes: string[] }) };
}

describe("withMatchedRoutesOnly", () => {
  it.each([
    ["/", ["home", "root", "site"], 'action="/?index"'],
    ["/later", ["later", "root", "site"], "Loading…"],
    ["/about", ["about", "root", "site"], "About"],
    ["/account/loans/SL1", ["account", "loan", "root"], "Loan SL1, 3 unread"],
    ["/filler/7/x", ["filler-7", "root", "site"], "filler 7"],
  ])("%s: the same document from the matched routes alone", async (path, routes, text) => {
    const result = await page(path);
    expect(result.status).toBe(200);
    expect(result.routes).toEqual(routes);
    expect(result.matched).toContain(text);
    expect(result.matched).toContain("streamController.enqueue"); // the loader data, streamed in
    expect(result.matched).toBe(result.all);
  });

  it("renders a loader's 404 in the layout's error boundary the same way", async () => {
    const result = await page("/account/loans/missing");
    expect(result.status).toBe(404);
    expect(result.routes).toEqual(["account", "loan", "root"]);
    expect(result.matched).toContain("No such page (404)");
    expect(result.matched).toBe(result.all);
  });

  it("renders a path no route takes (the root's 404) the same way", async () => {
    const result = await page("/no/such/page");
    expect(result.status).toBe(404);
    expect(result.routes).toEqual(["root"]);
    expect(result.matched).toContain("Not found (404)");
    expect(result.matched).toBe(result.all);
  });

  it("leaves the manifest whole for a page whose links name another page to prefetch", async () => {
    const result = await page("/prefetching");
    expect(result.routes).toHaveLength(specs.length);
    expect(result.matched).toContain('href="/assets/about.js"'); // the prefetched page's module
    expect(result.matched).toBe(result.all);
  });

  it("leaves the manifest whole with lazy route discovery (the page carries a manifest made from it)", async () => {
    const result = await page("/about", "lazy");
    expect(result.routes).toHaveLength(specs.length);
    expect(result.matched).toBe(result.all);
  });
});
