// `npm run bench`: speed and size figures, printed as tables.
//  1. Home page: requests/s and p99 latency of the production server beside a
//     raw Node http server sending the same bytes, in one run, with the ratio.
//  2. Gzip size of the JavaScript and CSS each public page loads.
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
// BENCH_ONLY picks parts, comma-separated: math, pdf, home (home page and asset sizes), realtime,
// quick-start, payouts, backoffice, servicing, notifications (e.g. `BENCH_ONLY=servicing npm run bench`); all by default.
import type { ChildProcess } from "node:child_process";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { irr, pmt } from "financial";
import { emiQuote } from "../app/domain/loan-math.ts";
import { backOfficeBench, reportBackOffice } from "./bench-backoffice.ts";
import { payoutBench, reportPayouts } from "./bench-payouts.ts";
import { pdfBench } from "./bench-pdf.ts";
import { quickStartBench, reportQuickStart } from "./bench-quick-start.ts";
import { realtimeBench } from "./bench-realtime.ts";
import { reportServicing, servicingBench } from "./bench-servicing.ts";
import { notificationBench, reportNotifications } from "./bench-notifications.ts";
import { type BenchServer, freePort, spawnNode, startBenchServer, waitUntilUp } from "./bench-server.ts";

const PARTS = ["math", "pdf", "home", "realtime", "quick-start", "payouts", "backoffice", "servicing", "notifications"] as const;
const ONLY = (process.env.BENCH_ONLY ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = ONLY.filter((p) => !(PARTS as readonly string[]).includes(p));
if (unknown.length) throw new Error(`BENCH_ONLY: no part ${unknown.join(", ")} (parts: ${PARTS.join(", ")})`);
const runs = (part: (typeof PARTS)[number]) => ONLY.length === 0 || ONLY.includes(part);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PUBLIC_PAGES = [
  "/",
  "/About",
  "/Contact-us",
  "/grievance-policy",
  "/privacy-policy",
  "/terms-and-conditions",
  "/ClearCache",
  "/EmiCalculator",
  "/Rate-terms",
  "/quickStart",
  "/quickStart/Otp",
];

async function load(url: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, pipelining: 1 });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

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
  console.table({
    "generate (KFS, schedule, agreement)": {
      "p50 ms": pdf.render.p50.toFixed(1),
      "p95 ms": pdf.render.p95.toFixed(1),
      kB: (pdf.render.bytes / 1024).toFixed(1),
    },
    "append signature page": {
      "p50 ms": pdf.sign.p50.toFixed(1),
      "p95 ms": pdf.sign.p95.toFixed(1),
      kB: (pdf.sign.bytes / 1024).toFixed(1),
    },
  });
}

const rawPort = await freePort();
let server: BenchServer | undefined;
let rawServer: ChildProcess | undefined;
try {
  if (runs("home")) {
    server = await startBenchServer();
    const appUrl = server.base;

    // The raw server sends exactly the bytes and content type of the home page.
    const home = await fetch(`${appUrl}/`);
    const body = Buffer.from(await home.arrayBuffer());
    const rawSource = `
    const http = require("node:http");
    const body = Buffer.from(process.env.BODY_B64, "base64");
    http.createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
      res.end(body);
    }).listen(${rawPort}, "127.0.0.1");
  `;
    rawServer = spawnNode(["-e", rawSource], { BODY_B64: body.toString("base64") });
    const rawUrl = `http://127.0.0.1:${rawPort}`;
    await waitUntilUp(rawUrl);

    console.log(`\nHome page, ${DURATION} s each, ${CONNECTIONS} connections, ${body.length} bytes uncompressed`);
    await load(`${appUrl}/`); // warm-up is part of the first run's first second; run once more for the figure
    const app = await load(`${appUrl}/`);
    const raw = await load(rawUrl);
    console.table({
      "application (SSR + DB)": { "req/s": Math.round(app.rps), "p99 ms": app.p99, errors: app.errors },
      "raw node:http, same bytes": { "req/s": Math.round(raw.rps), "p99 ms": raw.p99, errors: raw.errors },
    });
    console.log(`ratio application/raw: ${(app.rps / raw.rps).toFixed(3)} of the raw throughput`);

    console.log("\nJavaScript and CSS each public page loads (gzip -6 sizes)");
    const sizes: Record<string, { "JS files": number; "JS gzip kB": string; "CSS gzip kB": string }> = {};
    const gz = new Map<string, number>();
    const gzipSize = async (href: string) => {
      if (!gz.has(href)) gz.set(href, gzipSync(Buffer.from(await (await fetch(appUrl + href)).arrayBuffer()), { level: 6 }).length);
      return gz.get(href) ?? 0;
    };
    for (const page of PUBLIC_PAGES) {
      const html = await (await fetch(appUrl + page)).text();
      const js = new Set([
        ...[...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1] as string),
        ...[...html.matchAll(/import\("([^"]+\.js)"\)/g)].map((m) => m[1] as string),
      ]);
      const css = new Set([...html.matchAll(/<link[^>]*rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1] as string));
      let jsBytes = 0;
      let cssBytes = 0;
      for (const href of js) jsBytes += await gzipSize(href);
      for (const href of css) cssBytes += await gzipSize(href);
      sizes[page] = { "JS files": js.size, "JS gzip kB": (jsBytes / 1024).toFixed(1), "CSS gzip kB": (cssBytes / 1024).toFixed(1) };
    }
    console.table(sizes);
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
} finally {
  rawServer?.kill("SIGTERM");
  await server?.stop();
}
