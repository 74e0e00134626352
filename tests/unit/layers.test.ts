import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The layers of docs/ARCHITECTURE.md, held by this test: each layer's files
// may import only what its rule allows; the failure lists every import that breaks one.
const root = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith(".d.ts") ? [rel] : [];
  });
}

/** Every module a file imports (static, re-export, dynamic, type-only alike). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const found = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"|(?:^|\n)\s*import\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g),
  ];
  return found.map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

type Target = { kind: "package"; name: string } | { kind: "file"; path: string };
const resolve = (file: string, spec: string): Target =>
  spec.startsWith(".") ? { kind: "file", path: path.normalize(path.join(path.dirname(file), spec)) } : { kind: "package", name: spec };

const inside = (target: Target, dir: string) => target.kind === "file" && (target.path + "/").startsWith(dir + "/");
const serverOnly = (target: Target) =>
  target.kind === "file" && (inside(target, "app/server") || inside(target, "server") || /\.server\.tsx?$/.test(target.path));

/** What each layer may not import, in words, with the test for it. */
const RULES: { layer: string; rule: string; forbidden: (t: Target) => boolean }[] = [
  {
    layer: "app/domain",
    rule: "domain imports only domain, the message keys of app/i18n and packages (no Node built-ins: it runs in the browser)",
    forbidden: (t) =>
      t.kind === "file" ? !inside(t, "app/domain") && !(inside(t, "app/i18n") && !serverOnly(t)) : t.name.startsWith("node:"),
  },
  {
    layer: "app/i18n",
    rule: "the messages and their helpers import only each other and packages (no Node built-ins)",
    forbidden: (t) => (t.kind === "file" ? !inside(t, "app/i18n") : t.name.startsWith("node:")),
  },
  {
    layer: "app/lib",
    rule: "browser-safe helpers import no server code, routes or components",
    forbidden: (t) =>
      serverOnly(t) || inside(t, "app/routes") || inside(t, "app/components") || (t.kind === "package" && t.name.startsWith("node:")),
  },
  {
    layer: "app/components",
    rule: "components import no server code and no routes",
    forbidden: (t) => serverOnly(t) || inside(t, "app/routes"),
  },
  {
    layer: "app/server",
    rule: "server code imports no routes, no components and no web glue (operations return results; routes answer)",
    forbidden: (t) => inside(t, "app/routes") || inside(t, "app/components") || inside(t, "app/web"),
  },
  // A loan's money has one home: payments, payouts, staff servicing and the daily run each call
  // into the loan account (opening it, applying a ledger event, recomputing after a change,
  // reading its schedule and figures) and never into each other; the account calls none of them.
  {
    layer: "app/server/loan-account",
    rule: "the loan account calls no payments, payouts or servicing code (they call it)",
    forbidden: (t) => ["payments", "payouts", "servicing"].some((d) => inside(t, `app/server/${d}`)),
  },
  ...(["payments", "payouts", "servicing"] as const).map((area) => ({
    layer: `app/server/${area}`,
    rule: `${area} reaches a loan's money through app/server/loan-account, never through the other money areas`,
    forbidden: (t: Target) => ["payments", "payouts", "servicing"].some((d) => d !== area && inside(t, `app/server/${d}`)),
  })),
  {
    layer: "app/routes",
    rule: "routes call server operations; they do not query the database themselves",
    forbidden: (t) => (t.kind === "package" ? t.name === "drizzle-orm" || t.name.startsWith("drizzle-orm/") : inside(t, "app/server/db")),
  },
  {
    layer: "app/web",
    rule: "the routes' shared glue imports no routes and no components",
    forbidden: (t) => inside(t, "app/routes") || inside(t, "app/components"),
  },
  {
    layer: "server",
    rule: "the Node entry imports no routes and no components",
    forbidden: (t) => inside(t, "app/routes") || inside(t, "app/components"),
  },
];

describe("layers", () => {
  it.each(RULES.map((r) => [r.layer, r] as const))("%s: nothing it may not import", (_layer, { layer, rule, forbidden }) => {
    const broken = sourceFiles(layer).flatMap((file) =>
      importsOf(file)
        .filter((spec) => forbidden(resolve(file, spec)))
        .map((spec) => `${file} imports ${spec}`),
    );
    expect(broken, rule).toEqual([]);
  });

  it("app/server: no redirects, no responses, no toasts (those are the route's answer)", () => {
    const answering = sourceFiles("app/server").filter((file) =>
      /import\s*\{[^}]*\b(?:redirect|redirectDocument|replace|data)\b[^}]*\}\s*from\s*"react-router"|\bredirectWithToast\b|new Response\(/.test(
        readFileSync(path.join(root, file), "utf8"),
      ),
    );
    expect(answering).toEqual([]);
  });

  // India time (UTC+05:30) has one home: app/domain/india-date.ts. Elsewhere a day, a time of day or a
  // format in India time comes from it (SQL names the zone, 'Asia/Kolkata'). tests/ is not held to this:
  // a test writes India instants with its own literal, so its expectations do not come from the module.
  it("India's UTC offset is written only in app/domain/india-date.ts", () => {
    const offset = /\+05:30|5\.5 \* 3600|330 \* 60/;
    const files = [...sourceFiles("app"), ...sourceFiles("server"), "server.ts", ...sourceFiles("scripts")];
    const writing = files.filter((file) => offset.test(readFileSync(path.join(root, file), "utf8")));
    expect(writing).toEqual(["app/domain/india-date.ts"]);
  });

  // One way to pass a transaction (docs/ARCHITECTURE.md "The shape of an operation"): `(services, input)`,
  // with services.db the caller's transaction; never a services object and a transaction side by side.
  it("app/server: no function takes services and a transaction beside it", () => {
    const both = /\(\s*(?:services|\{[^}]*\})\s*:\s*[^,()]+(?:<[^>]*>)?,\s*tx\s*:\s*Db\b/;
    const offending = sourceFiles("app/server").filter((file) => both.test(readFileSync(path.join(root, file), "utf8")));
    expect(offending).toEqual([]);
  });

  it("finds the imports it judges (a file of each layer imports something)", () => {
    for (const { layer } of RULES)
      expect(
        sourceFiles(layer).some((f) => importsOf(f).length > 0),
        layer,
      ).toBe(true);
    expect(importsOf("app/domain/loans/kfs.ts")).toContain("../loan-math.ts");
  });
});
