// Our Link (app/lib/link.tsx) writes on the server what React Router's Link writes for the same
// link on the same page, as the server renders a page (a static router).
import { createElement as h, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, Link as RouterLink, type LinkProps, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { Link, writtenAsIs } from "../../app/lib/link.tsx";

const LINKS: LinkProps[] = [
  { to: "/User/Dashboard", className: "brand" },
  { to: "/User/Loans/Emi/SL87756554#pay-title", className: "btn-primary mt-4" },
  { to: "/User/Loans/", "aria-current": "page", className: "tab active" },
  { to: "/", title: "Home" },
  { to: "/User/Help/new", target: "_blank", rel: "noreferrer", id: "help" },
  { to: "/User/Help", discover: "none" },
  { to: "/User/Help", reloadDocument: true, replace: true, state: { from: 1 }, preventScrollReset: true, viewTransition: true },
  { to: "/User/Help", onClick: () => {}, prefetch: "none", "data-testid": "help" } as LinkProps,
  { to: "/User/newLoan/salaryAdvance/3uab5yjfh6jlbi26l7wahpf3nx/Step7", style: { color: "red" } },
  // Left to React Router's Link.
  { to: "loans" },
  { to: "../Loans" },
  { to: "/User/./Loans" },
  { to: "/User//Loans" },
  { to: "/User/Loans?tab=all#x" },
  { to: "/User/Loans#" },
  { to: "/User/Lo ans" },
  { to: "//evil.example/x" },
  { to: "https://example.com/a" },
  { to: { pathname: "/User/Loans", hash: "#x" } },
  { to: "/User/Loans", relative: "path" },
  { to: "/User/Loans", prefetch: "render" },
  { to: "/User/Loans", prefetch: "intent" },
];

async function page(LinkComponent: typeof Link, at: string) {
  const routes = [
    {
      path: "/",
      element: h(
        Fragment,
        null,
        LINKS.map((props, i) => h(LinkComponent, { key: i, ...props }, `link ${i}`)),
      ),
      children: [{ path: "*", element: null }],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${at}`));
  if (context instanceof Response) throw new Error("no context");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(h(StaticRouterProvider, { router, context }));
}

describe("our Link on the server", () => {
  it("writes React Router's Link's markup", async () => {
    for (const at of ["/", "/User/Loans", "/User/Loans/Emi/SL1"]) {
      const ours = await page(Link, at);
      expect(ours, at).toBe(await page(RouterLink as unknown as typeof Link, at));
    }
    expect(await page(Link, "/")).toContain(
      '<a class="btn-primary mt-4" href="/User/Loans/Emi/SL87756554#pay-title" data-discover="true">',
    );
  });

  it("writes whole plain paths itself, and leaves the rest to React Router", () => {
    const own = LINKS.map(writtenAsIs);
    expect(own.slice(0, 9)).toEqual(Array(9).fill(true));
    expect(own.slice(9)).toEqual(Array(LINKS.length - 9).fill(false));
  });
});

describe("our Link outside a router", () => {
  it("fails as React Router's Link fails", () => {
    const render = (LinkComponent: typeof Link) => () => renderToStaticMarkup(h(LinkComponent, { to: "/User/Loans" }, "loans"));
    let theirs = "";
    try {
      render(RouterLink as unknown as typeof Link)();
    } catch (error) {
      theirs = (error as Error).message;
    }
    expect(theirs).not.toBe("");
    expect(render(Link)).toThrow(theirs);
  });
});
