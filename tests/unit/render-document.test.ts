// renderDocument (app/web/render-document.server.ts) gives the document React's streaming renderer
// gives once everything is ready, byte for byte: a small app served by React Router's own request
// handler, whose document entry renders each page with React's stock streaming render and with
// renderDocument, each from a context of its own. Pages whose render does not suspend take the one
// pass (`streamed: false`), their loader data included even when it came in several chunks; a page
// that suspends is rendered again by the streaming renderer and says so.
import { createElement as h, Suspense } from "react";
import {
  Await,
  createRequestHandler,
  type EntryContext,
  Form,
  Links,
  Meta,
  Outlet,
  Scripts,
  ServerRouter,
  useLoaderData,
} from "react-router";
import { describe, expect, it } from "vitest";
import { renderDocument } from "../../app/web/render-document.server.ts";
import {
  accountRoutes,
  type RouteModule,
  type RouteSpec,
  rootRoute,
  serverBuild,
  stockDocument,
  twoContexts,
} from "../helpers/server-build.ts";

const Root = () => h("html", { lang: "en" }, h("head", null, h(Meta), h(Links)), h("body", null, h(Outlet), h(Scripts)));

const later = (value: string, ms = 30) => new Promise<string>((resolve) => setTimeout(() => resolve(value), ms));

const specs: RouteSpec[] = [
  rootRoute(Root),
  {
    id: "home",
    parentId: "root",
    index: true,
    module: { default: () => h(Form, { method: "post" }, h("button", null, "Send")) } as RouteModule,
  },
  ...accountRoutes,
  {
    // Data still coming when the page is rendered: React Router's stream carries it in later chunks.
    id: "deferred",
    parentId: "root",
    path: "deferred",
    module: {
      loader: () => ({ now: "at once", soon: later("a moment later") }),
      default: () => h("p", null, (useLoaderData() as { now: string }).now),
    } as unknown as RouteModule,
  },
  {
    // A component that waits for that data: it suspends.
    id: "awaiting",
    parentId: "root",
    path: "awaiting",
    module: {
      loader: () => ({ soon: later("waited for") }),
      default: () =>
        h(
          Suspense,
          { fallback: h("p", null, "Loading…") },
          h(Await, {
            resolve: (useLoaderData() as { soon: Promise<string> }).soon,
            children: (value: unknown) => h("p", null, String(value)),
          }),
        ),
    } as unknown as RouteModule,
  },
  {
    // A component that throws inside a Suspense boundary: left to the browser, and the page is a 500.
    id: "broken",
    parentId: "root",
    path: "broken",
    module: {
      default: () =>
        h(
          Suspense,
          { fallback: h("p", null, "Loading…") },
          h(() => {
            throw new Error("broken part");
          }),
        ),
    } as unknown as RouteModule,
  },
];

async function renderBothWays(request: Request, status: number, headers: Headers, context: EntryContext) {
  const [first, second] = twoContexts(context);
  const errors: string[] = [];
  const ours = await renderDocument(first, (c) => h(ServerRouter, { context: c, url: request.url }), {
    timeoutMs: 5_000,
    onError: (error) => errors.push(String(error)),
  });
  const stock = await stockDocument(second, request.url);
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify({ stock, ours: ours.html.toString("utf8"), streamed: ours.streamed, failed: ours.failed, errors }), {
    status,
    headers,
  });
}

const build = serverBuild(specs, { default: renderBothWays, handleError: () => {} });

async function page(path: string) {
  const response = await createRequestHandler(build, "production")(new Request(`http://localhost${path}`));
  return {
    status: response.status,
    ...((await response.json()) as { stock: string; ours: string; streamed: boolean; failed: boolean; errors: string[] }),
  };
}

describe("renderDocument", () => {
  it.each([
    ["/", 'action="/?index"'],
    ["/account/loans/SL1", "Loan SL1, 3 unread"],
    ["/deferred", "a moment later"], // in the loader data's later chunk
  ])("%s: the streaming renderer's document in one pass", async (path, text) => {
    const result = await page(path);
    expect(result.status).toBe(200);
    expect(result.streamed).toBe(false);
    expect(result.failed).toBe(false);
    expect(result.ours).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(result.ours).toContain(text);
    expect(result.ours).toContain("streamController.enqueue"); // the loader data
    expect(result.ours).toContain("streamController.close()");
    expect(result.ours).toBe(result.stock);
  });

  it("escapes the loader data as the streaming renderer does", async () => {
    const result = await page("/account/loans/SL1");
    expect(result.ours).not.toContain("<script>alert(1)");
    expect(result.ours).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; “quotes”");
    expect(result.ours).toBe(result.stock);
  });

  it("renders a loader's 404 in the layout's error boundary the same way", async () => {
    const result = await page("/account/loans/missing");
    expect(result.status).toBe(404);
    expect(result.streamed).toBe(false);
    expect(result.ours).toContain("No such page (404)");
    expect(result.ours).toBe(result.stock);
  });

  it("renders a path no route takes the same way", async () => {
    const result = await page("/no/such/page");
    expect(result.status).toBe(404);
    expect(result.ours).toContain("Not found (404)");
    expect(result.ours).toBe(result.stock);
  });

  it("renders a page that suspends by the streaming renderer, with what it waited for", async () => {
    const result = await page("/awaiting");
    expect(result.status).toBe(200);
    expect(result.streamed).toBe(true);
    expect(result.failed).toBe(false);
    expect(result.ours).toContain("<p>waited for</p>");
    expect(result.ours).not.toContain("Loading…");
    expect(result.ours).toBe(result.stock);
  });

  it("says a page failed when a part of it threw inside a Suspense boundary", async () => {
    const result = await page("/broken");
    expect(result.streamed).toBe(true);
    expect(result.failed).toBe(true);
    expect(result.ours).toContain("<!--$!-->"); // left to the browser, as the streaming renderer leaves it
    expect(result.ours).toBe(result.stock);
  });
});
