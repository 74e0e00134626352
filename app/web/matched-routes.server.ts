// What <ServerRouter> is given to render a page: the request's context with only the routes it
// matched (a branch of the route tree, from the root down) in the route manifest.
//
// React Router builds a route tree, and a static router over it, from every route in that manifest
// on every render (with this app's hundred-odd routes, 5-10% of a rendered page's CPU), yet a
// render reads only the matched routes: their modules, loader data, error boundaries, links and
// scripts. The browser is unaffected: with `routeDiscovery: "initial"` it loads the whole manifest
// from its own hashed file. Left whole:
// - with lazy discovery, where the page carries a partial manifest worked out from this one;
// - when a matched route's `links()` names another page to prefetch: its prefetch tags are worked
//   out from that page's routes in the manifest.
// A component rendering <PrefetchPageLinks> itself would lose its server-rendered tags (the browser
// adds them once hydrated); this app has none.
import type { EntryContext } from "react-router";

export function withMatchedRoutesOnly(context: EntryContext): EntryContext {
  if (context.routeDiscovery.mode !== "initial") return context;
  const all = context.manifest.routes;
  const routes: typeof all = {};
  for (const { route } of context.staticHandlerContext.matches) {
    const entry = all[route.id];
    if (!entry) return context; // not in the manifest: leave it all to React Router
    if (context.routeModules[route.id]?.links?.().some((link) => "page" in link)) return context;
    routes[route.id] = entry;
  }
  return { ...context, manifest: { ...context.manifest, routes } };
}
