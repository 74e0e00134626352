// Our NavLink (app/components/nav-link.tsx) writes what React Router's NavLink writes for the same
// link on the same page.
import { createElement as h, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, NavLink as RouterNavLink, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { NavLink } from "../../app/components/nav-link.tsx";

const byState = ({ isActive, isPending }: { isActive: boolean; isPending: boolean }) =>
  `tab ${isActive ? "on" : "off"} ${isPending ? "wait" : ""}`;

function links(Link: typeof NavLink) {
  return h(
    Fragment,
    null,
    h(Link, { to: "/User/Dashboard", className: "brand" }, "brand"),
    h(Link, { to: "/User/Loans", className: byState }, "loans"),
    h(Link, { to: "/user/loans/emi/SL1", className: byState, end: true }, "this loan"),
    h(Link, { to: "/User/Loans/Emi", end: true, className: "x" }, "emi list"),
    h(Link, { to: "/User/Loans/", className: byState }, "slash"),
    h(Link, { to: "/User/Help", "aria-label": "Help", title: "Help" }, "help"),
    h(Link, { to: "/User", className: byState, end: true }, "user"),
    h(Link, { to: "loans", className: byState }, "relative"),
    h(Link, { to: "/User/Loans?tab=all", className: "q" }, "query"),
  );
}

const page = (Link: typeof NavLink, at: string) => {
  const router = createMemoryRouter([{ path: "*", element: links(Link) }], { initialEntries: [at] });
  return renderToStaticMarkup(h(RouterProvider, { router }));
};

describe("our NavLink", () => {
  it("writes React Router's NavLink's markup on pages at, below and beside its links", () => {
    for (const at of ["/User/Loans", "/User/Loans/Emi/SL1", "/user/LOANS/emi", "/User/Dashboard", "/User", "/about"]) {
      const ours = page(NavLink, at);
      expect(ours, at).toBe(page(RouterNavLink as unknown as typeof NavLink, at));
    }
    expect(page(NavLink, "/User/Loans/Emi/SL1")).toContain('aria-current="page" class="tab on "');
  });
});
