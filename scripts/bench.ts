// `npm run bench`: speed and size figures, printed as tables.
//  1. Public pages: requests/s and p99 of the anonymous pages the page cache answers, beside a raw
//     Node http server sending the same bytes, in one run, with the ratio; the same home page
//     rendered per request; the gzip size of the JavaScript and CSS each public page loads.
//  2. Signed-in pages (bench-pages.ts): the dashboard, a loan page and a profile section, on
//     PostgreSQL with 1 and 2 worker processes and on PGlite, beside React Router's stock server
//     on a hello page; the server's memory after start and after the load.
//  3. Loan math: a 360-month schedule with its APR, µs per call, beside the
//     same computation with the `financial` package (Excel-compatible PMT/IRR).
//  4. KFS PDF generation; realtime streams; 200 quick-start journeys at once
//     against PostgreSQL (bench-quick-start.ts), checked in the database.
//  5. 50 approved loans disbursed at once through the payout stand-in, each by two
//     staff at the same moment (bench-payouts.ts): no loan paid twice.
//  6. The back office over 100,000 applications and 50,000 borrowers on PostgreSQL
//     (bench-backoffice.ts): queue, searches and the borrower page, p95.
//  7. Servicing on PostgreSQL (bench-servicing.ts): the daily run over 100,000 active loans
//     (time, rows written, idempotent) and 100 concurrent Pay now round trips, none applied twice.
//  8. Notifications on PostgreSQL (bench-notifications.ts): 10,000 due reminders queued and sent through
//     the SMS and e-mail stand-ins: time, rate, none sent twice.
//  9. Autopay on PostgreSQL (bench-autopay.ts): the pre-debit notices and the presentations of 100,000
//     loans due on one day through the mandate stand-in: time, rate, none presented twice.
// 10. Dunning on PostgreSQL (bench-dunning.ts): the daily dunning pass over 100,000 loans with 15% in
//     arrears: cases opened, the steps sent, the same day again (nothing), the next day: time, rate, checked.
// 11. The books on PostgreSQL (bench-books.ts): the daily accrual, NPA flagging and month-end provisioning over
//     100,000 loans, each again (nothing), and the booking of unbooked ledgers: time, rows written, checked.
// 12. The credit bureau files on PostgreSQL (bench-bureau.ts): a reporting date's four files over 100,000 loans,
//     again (nothing): time, peak memory, rows written, each file read back and checked.
// 13. Files (bench-storage.ts): KYC upload and download latency, p50/p95, the data directory beside an S3 bucket on
//     the local S3 server (s3rver).
// 14. Lighthouse's performance score of four public pages, as a phone and as a desktop, in English and Hindi.
// BENCH_ONLY picks parts, comma-separated: math, pdf, public, signed-in, realtime, quick-start,
// payouts, backoffice, servicing, notifications, autopay, dunning, books, bureau, storage, lighthouse (e.g. `BENCH_ONLY=servicing npm run bench`);
// all by default. BENCH_PROFILE=ci is the small report CI prints after the tests (about 2 minutes): math,
// public and signed-in pages (the signed-in pages beside the stock hello page), memory, 5 s per load.
import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { irr, pmt } from "financial";
import { emiQuote } from "../app/domain/loan-math.ts";
import { CACHED_PAGES } from "../server/page-cache.ts";
import { backOfficeBench, reportBackOffice } from "./bench-backoffice.ts";
import { COOKIE_NAMES } from "../app/server/cookie-names.ts";
import { loadPage } from "./bench-pages.ts";
import { signedInReport } from "./bench-signed-in.ts";
import { payoutBench, reportPayouts } from "./bench-payouts.ts";
import { pdfBench } from "./bench-pdf.ts";
import { quickStartBench, reportQuickStart } from "./bench-quick-start.ts";
import { realtimeBench } from "./bench-realtime.ts";
import { reportServicing, servicingBench } from "./bench-servicing.ts";
import { notificationBench, reportNotifications } from "./bench-notifications.ts";
import { autopayBench, reportAutopay } from "./bench-autopay.ts";
import { dunningBench, reportDunning } from "./bench-dunning.ts";
import { booksBench, reportBooks } from "./bench-books.ts";
import { bureauBench, reportBureau } from "./bench-bureau.ts";
import { reportStorage, storageBench } from "./bench-storage.ts";
import { lighthousePages } from "./lighthouse.ts";
import { PUBLIC_PAGES } from "./public-pages.ts";
import { type BenchServer, freePort, type MemoryAfterGc, spawnNode, startBenchServer, waitUntilUp } from "./bench-server.ts";

const PARTS = [
  "math",
  "pdf",
  "public",
  "signed-in",
  "realtime",
  "quick-start",
  "payouts",
  "backoffice",
  "servicing",
  "notifications",
  "autopay",
  "dunning",
  "books",
  "bureau",
  "storage",
  "lighthouse",
] as const;
const CI_PROFILE = process.env.BENCH_PROFILE === "ci";
const ONLY = (process.env.BENCH_ONLY ?? (CI_PROFILE ? "math,public,signed-in" : ""))
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = ONLY.filter((p) => !(PARTS as readonly string[]).includes(p));
if (unknown.length) throw new Error(`BENCH_ONLY: no part ${unknown.join(", ")} (parts: ${PARTS.join(", ")})`);
const runs = (part: (typeof PARTS)[number]) => ONLY.length === 0 || ONLY.includes(part);
const DURATION = Number(process.env.BENCH_SECONDS ?? (CI_PROFILE ? 5 : 10));
const WARM_UP = CI_PROFILE ? 2 : 3;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** The connections of the signed-in pages' cost figures (their p99 beside the hello page's at as many). */
const COST_CONNECTIONS = 10;
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
/** The cached pages measured against raw Node (the four; every cached page in the full run). */
const CACHED_PUBLIC_PAGES = CI_PROFILE ? ["/", "/EmiCalculator"] : CACHED_PAGES;
/** The public pages whose JavaScript and CSS are weighed, and the staff sign-in. */
const WEIGHED_PAGES = [...PUBLIC_PAGES, "/admin/login"];

const load = (url: string, seconds = DURATION, cookie?: string) => loadPage(url, { connections: CONNECTIONS, seconds, cookie });

function microsPerCall(fn: () => unknown, minMs = 1500): number {
  for (let i = 0; i < 200; i++) fn(); // warm up the JIT
  let calls = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < minMs * 1e6) {
    for (let i = 0; i < 50; i++) fn();
    calls += 50;
    elapsed = Number(process.hrtime.bigint() - start);
  }
  return elapsed / 1e3 / calls;
}

if (runs("math")) {
  const principalPaise = 50_000_000;
  const annualRateBps = 1800;
  const months = 360;
  const upfrontPaise = 1_180_000;
  const ours = () => emiQuote({ principalPaise, annualRateBps, months, upfrontPaise });
  const viaFinancial = () => {
    const r = annualRateBps / 120_000;
    const emi = Math.round(-pmt(r, months, principalPaise));
    const flows = [-(principalPaise - upfrontPaise)];
    let balance = principalPaise;
    for (let i = 1; i <= months; i++) {
      const interest = Math.round(balance * r);
      const principal = i === months ? balance : emi - interest;
      balance -= principal;
      flows.push(principal + interest);
    }
    return irr(flows, r) * 1200;
  };
  const a = ours();
  const b = viaFinancial();
  const usOurs = microsPerCall(ours);
  const usFinancial = microsPerCall(viaFinancial);
  console.log("\nLoan math: 360-month schedule with APR (₹5,00,000 at 18%, ₹11,800 upfront)");
  console.table({
    "app/domain/loan-math": { "µs/call": usOurs.toFixed(1), APR: a.aprPercent.toFixed(2) },
    "financial (pmt + irr)": { "µs/call": usFinancial.toFixed(1), APR: b.toFixed(2) },
  });
  console.log(`ratio ours/financial: ${(usOurs / usFinancial).toFixed(2)} (below 1 is faster)`);
}

if (runs("pdf")) {
  const pdf = await pdfBench();
  console.log(`\nKFS + agreement PDF, 36-month EMI loan (${pdf.runs} runs)`);
  const row = (f: { p50: number; p95: number; bytes: number }) => ({
    "p50 ms": f.p50.toFixed(1),
    "p95 ms": f.p95.toFixed(1),
    kB: (f.bytes / 1024).toFixed(1),
  });
  console.table({
    "generate (KFS, schedule, agreement)": row(pdf.render),
    "append signature page": row(pdf.sign),
    "store (sealed, data directory)": row(pdf.store),
    "read back (opened, hash checked)": row(pdf.read),
  });
}

const rawPort = await freePort();
let server: BenchServer | undefined;
let rawServer: ChildProcess | undefined;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const memory: Record<string, Record<string, string>> = {};
/** The memory table's row: RSS after start and as the load ends; then what a full collection leaves. */
const memoryRow = (afterStartBytes: number, atLoadEndBytes: number, afterGc: MemoryAfterGc) => ({
  "after start MB": mb(afterStartBytes),
  "at the load's end MB": mb(atLoadEndBytes),
  "V8 young generation MB": mb(afterGc.youngGenerationBytes),
  "after a full GC MB": mb(afterGc.rssBytes),
  "JS heap in use MB": mb(afterGc.heapUsedBytes),
});
try {
  if (runs("public")) {
    server = await startBenchServer();
    const appUrl = server.base;
    const rssAfterStart = await server.settledRssBytes();

    // The raw server sends exactly the bytes and content type of each page, by path.
    const bodies: Record<string, string> = {};
    for (const page of CACHED_PUBLIC_PAGES) bodies[page] = Buffer.from(await (await fetch(appUrl + page)).arrayBuffer()).toString("base64");
    const rawSource = `
    const http = require("node:http");
    const bodies = Object.fromEntries(Object.entries(JSON.parse(require("node:fs").readFileSync(process.env.BODIES, "utf8"))).map(([k, v]) => [k, Buffer.from(v, "base64")]));
    http.createServer((req, res) => {
      const body = bodies[req.url];
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
      res.end(body);
    }).listen(${rawPort}, "127.0.0.1");
  `;
    // Through a file: pages with their stylesheet inline are more than an environment variable holds.
    const bodiesFile = path.join(server.dataDir, "raw-bodies.json");
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    rawServer = spawnNode(["-e", rawSource], { BODIES: bodiesFile });
    const rawUrl = `http://127.0.0.1:${rawPort}`;
    await waitUntilUp(`${rawUrl}/`);

    console.log(`\nAnonymous public pages (from the page cache), ${DURATION} s each, ${CONNECTIONS} connections, PGlite`);
    const rows: Record<string, Record<string, string | number>> = {};
    for (const page of CACHED_PUBLIC_PAGES) {
      await load(`${appUrl}${page}`, WARM_UP);
      const app = await load(`${appUrl}${page}`);
      const raw = await load(`${rawUrl}${page}`);
      rows[page] = {
        kB: (Buffer.from(bodies[page] ?? "", "base64").length / 1024).toFixed(1),
        "app req/s": Math.round(app.rps),
        "app p99 ms": app.p99,
        "raw req/s": Math.round(raw.rps),
        "raw p99 ms": raw.p99,
        "ratio app/raw": (app.rps / raw.rps).toFixed(3),
        errors: app.errors,
      };
    }
    // The same page rendered by React Router for each request: one of the application's cookies
    // skips the cache (a session cookie whose signature fails: the page a visitor without one sees).
    const rendered = await load(`${appUrl}/`, DURATION, `${COOKIE_NAMES.session}=bench`);
    rows["/ rendered (a session cookie sent)"] = {
      "app req/s": Math.round(rendered.rps),
      "app p99 ms": rendered.p99,
      errors: rendered.errors,
    };
    console.table(rows);
    memory["PGlite, public pages"] = memoryRow(rssAfterStart, server.rssBytes(), await server.afterFullGc());

    console.log("\nJavaScript and CSS each public page loads (gzip -6 sizes)");
    const sizes: Record<string, { "JS files": number; "JS gzip kB": string; "CSS gzip kB": string }> = {};
    // Each built file fetched once: its gzip size, and the modules it imports.
    const files = new Map<string, Promise<Buffer>>();
    const fileOf = (href: string) => {
      if (!files.has(href))
        files.set(
          href,
          fetch(appUrl + href).then(async (r) => Buffer.from(await r.arrayBuffer())),
        );
      return files.get(href) as Promise<Buffer>;
    };
    const gzipSize = async (href: string) => gzipSync(await fileOf(href), { level: 6 }).length;
    // What a page loads before it is interactive: the modules its own script imports, and every module
    // they import in turn (static imports; a dynamic import() is loaded when used, not counted).
    const importsOf = async (href: string) =>
      [
        ...(await fileOf(href))
          .toString()
          .matchAll(/(?:\bimport|\bexport)\s*(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*\s*as\s*[\w$]+|\*)?\s*(?:from)?\s*"([^"]+\.js)"/g),
      ].map((m) => new URL(m[1] as string, appUrl + href).pathname);
    for (const page of WEIGHED_PAGES) {
      const html = await (await fetch(appUrl + page)).text();
      const js = new Set([...html.matchAll(/import(?:\(| [^"]*?)"([^"]+\.js)"/g)].map((m) => m[1] as string));
      for (const href of js) for (const imported of await importsOf(href)) js.add(imported);
      const css = new Set([...html.matchAll(/<link[^>]*rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1] as string));
      let jsBytes = 0;
      // A first visit has the stylesheet inline in the page (counted as CSS here too).
      let cssBytes = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].reduce(
        (sum, m) => sum + gzipSync(Buffer.from(m[1] ?? ""), { level: 6 }).length,
        0,
      );
      for (const href of js) jsBytes += await gzipSize(href);
      for (const href of css) cssBytes += await gzipSize(href);
      sizes[page] = { "JS files": js.size, "JS gzip kB": (jsBytes / 1024).toFixed(1), "CSS gzip kB": (cssBytes / 1024).toFixed(1) };
    }
    console.table(sizes);
    rawServer.kill("SIGTERM");
    rawServer = undefined;
    await server.stop();
    server = undefined;
  }

  if (runs("lighthouse")) {
    // Lighthouse's performance score of the most visited public pages, as a phone (its default
    // throttling) and as a desktop, in both languages (accessibility, best practices and SEO are
    // tested: tests/e2e/lighthouse.test.ts).
    server = await startBenchServer();
    const pages = ["/", "/EmiCalculator", "/Rate-terms", "/quickStart"];
    console.log("\nLighthouse performance score (PGlite, one run each)");
    const rows: Record<string, Record<string, number>> = {};
    for (const language of ["en", "hi"] as const)
      for (const performance of ["mobile", "desktop"] as const)
        for (const page of await lighthousePages({ base: server.base, language, pages, performance }))
          (rows[`${page.path} ${language}`] ??= {})[performance] = page.scores.performance ?? 0;
    console.table(rows);
    await server.stop();
    server = undefined;
  }

  if (runs("signed-in")) {
    const runsMemory = await signedInReport({
      ciProfile: CI_PROFILE,
      seconds: DURATION,
      warmUp: WARM_UP,
      connections: CONNECTIONS,
      costConnections: COST_CONNECTIONS,
      pgUrl: PG_URL,
    });
    for (const [name, figures] of Object.entries(runsMemory))
      memory[`${name}, signed-in pages`] = memoryRow(figures.rssAfterStartBytes, figures.rssAtLoadEndBytes, figures.afterGc);
  }
  if (Object.keys(memory).length) {
    console.log(
      "\nServer memory, its worker processes' included: RSS once settled after start and as the load ends, with what V8's young generation holds then; RSS after a full garbage collection in each process, and the JS heap still in use (V8 gives its young generation and a load's garbage back by itself only once it judges the process idle: seconds later, or much later)",
    );
    console.table(memory);
  }

  if (runs("realtime")) {
    const rt = await realtimeBench();
    console.log(`\nRealtime: ${rt.connections} open event streams to one process (opened in ${rt.openSeconds.toFixed(1)} s)`);
    console.table({
      "server RSS (MB)": { before: rt.rssBeforeMb.toFixed(1), after: rt.rssAfterMb.toFixed(1) },
    });
    console.log(`memory per connection: ${(rt.bytesPerConnection / 1024).toFixed(1)} kB`);
    console.log(
      `second sign-in → displacement notice on the first device (${rt.trials} trials): p50 ${rt.displacementP50Ms.toFixed(1)} ms, p99 ${rt.displacementP99Ms.toFixed(1)} ms`,
    );
  }

  if (runs("quick-start")) reportQuickStart(await quickStartBench());
  if (runs("payouts")) reportPayouts(await payoutBench());
  if (runs("backoffice")) reportBackOffice(await backOfficeBench());
  if (runs("servicing")) reportServicing(await servicingBench());
  if (runs("notifications")) reportNotifications(await notificationBench());
  if (runs("autopay")) reportAutopay(await autopayBench());
  if (runs("dunning")) reportDunning(await dunningBench());
  if (runs("books")) reportBooks(await booksBench());
  if (runs("bureau")) reportBureau(await bureauBench());
  if (runs("storage")) reportStorage(await storageBench());
} finally {
  rawServer?.kill("SIGTERM");
  await server?.stop();
}
