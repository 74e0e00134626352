import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchBrowser, waitForHydration } from "../helpers/browser.ts";
import { TEST_DATABASE_URL } from "../helpers/server.ts";
import { signInWithCode } from "../helpers/sign-in.ts";

const root = path.resolve(import.meta.dirname, "../..");
const schema = `mp_${randomBytes(5).toString("hex")}`;
const processes: { proc: ChildProcess; url: string; dataDir: string }[] = [];
let browser: Browser;

async function startProcess(port: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mp-"));
  const proc = spawn(process.execPath, ["server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      WEB_CONCURRENCY: "1",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  processes.push({ proc, url, dataDir });
  return { url, dataDir };
}

async function signIn(page: Page, base: { url: string; dataDir: string }, mobile: string) {
  await signInWithCode(page, { baseUrl: base.url, dataDir: base.dataDir }, mobile);
  await page.waitForURL(/\/User\/Dashboard$/);
  await waitForHydration(page);
}

describe.skipIf(!TEST_DATABASE_URL)("two server processes sharing one PostgreSQL", () => {
  beforeAll(async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    browser = await launchBrowser();
    const base = 40_000 + Math.floor(Math.random() * 10_000);
    // One after the other: both run the migrations under the advisory lock.
    await startProcess(base);
    await startProcess(base + 1);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    for (const p of processes) {
      p.proc.kill("SIGTERM");
      await new Promise((r) => p.proc.once("exit", r));
      rmSync(p.dataDir, { recursive: true, force: true });
    }
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`drop schema ${schema} cascade`);
    await client.query(`drop schema if exists ${schema}_jobs cascade`); // the job queue's beside it
    await client.end();
  });

  it("a sign-in through process B displaces the page open on process A", async () => {
    const [a, b] = processes;
    if (!a || !b) throw new Error("two processes");
    const mobile = "9800011122";

    const deviceA = await browser.newContext();
    const pageA = await deviceA.newPage();
    await signIn(pageA, a, mobile);
    await pageA.waitForTimeout(500);

    const deviceB = await browser.newContext();
    const pageB = await deviceB.newPage();
    await signIn(pageB, b, mobile);

    await pageA.getByText("Someone else logged in!").waitFor({ timeout: 5000 });
    await pageA.getByRole("button", { name: "OK" }).click();
    await pageA.waitForURL(`${a.url}/?signedOut=elsewhere`, { timeout: 5000 });
    expect((await deviceA.cookies()).find((c) => c.name === "token")).toBeUndefined();
    await deviceA.close();
    await deviceB.close();
  }, 120_000);

  it("a product changed in the database shows on both processes' cached public pages within a second", async () => {
    const [a, b] = processes;
    if (!a || !b) throw new Error("two processes");
    const rates = async (url: string) => (await (await fetch(`${url}/Rate-terms`)).text()).replaceAll("<!-- -->", "");
    for (const p of [a, b]) expect(await rates(p.url)).not.toContain("₹654 for each missed instalment");
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(`update ${schema}.products set penal_charge_paise = 65400 where code = 'emi'`);
    } finally {
      await client.end();
    }
    for (const p of [a, b]) {
      await vi.waitFor(async () => expect(await rates(p.url)).toContain("₹654 for each missed instalment"), {
        timeout: 1_000,
        interval: 50,
      });
    }
  });
});
