// Every route's own path is taken by that route, whatever the order of the layouts in app/routes.ts
// (which only decides which of two routes of equal rank React Router tries first): no route's
// address is shadowed by another's, in any letter case.
import { createStaticHandler, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "../../app/routes.ts";

const idOf = (entry: RouteConfigEntry) => entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");

function toRoutes(entries: readonly RouteConfigEntry[]): RouteObject[] {
  return entries.map((entry) =>
    entry.index
      ? { id: idOf(entry), index: true }
      : { id: idOf(entry), path: entry.path, children: entry.children ? toRoutes(entry.children) : undefined },
  );
}

/** Each route's whole path (its parents' included), with a sample value for each parameter, and its id. */
function addresses(entries: readonly RouteConfigEntry[], parent = ""): [string, string][] {
  return entries.flatMap((entry) => {
    const path = entry.path === undefined ? parent : `${parent}/${entry.path}`;
    const own: [string, string][] =
      entry.path !== undefined || entry.index ? [[path.replace(/:\w+/g, "x1").replace("*", "no/such/page/here") || "/", idOf(entry)]] : [];
    return [...own, ...addresses(entry.children ?? [], path)];
  });
}

const tree = (entries: readonly RouteConfigEntry[]) => createStaticHandler([{ id: "root", path: "", children: toRoutes(entries) }]);

describe("the routes", () => {
  it.each([
    ["as written", routes],
    ["the layouts in the opposite order", [...routes].reverse()],
  ])("take each route's own path to that route, %s", (_, entries) => {
    const handler = tree(entries);
    const all = addresses(routes);
    expect(all.length).toBeGreaterThan(100);
    for (const [path, id] of all)
      for (const asked of [path, path.toLowerCase(), path.toUpperCase()])
        expect([asked, handler.match(asked)?.at(-1)?.route.id]).toEqual([asked, id]);
  });
});
