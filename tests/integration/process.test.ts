import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
let child: ChildProcess | undefined;
let dataDir: string | undefined;

afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function run(env: Record<string, string>, dir = mkdtempSync(path.join(tmpdir(), "proc-"))) {
  dataDir = dir;
  const proc = spawn(process.execPath, ["server.ts"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  let output = "";
  proc.stdout?.on("data", (d) => (output += d));
  proc.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  return { proc, exited, output: () => output };
}

async function waitFor(check: () => boolean, ms = 30_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the server process", () => {
  it("stops with a message naming a bad configuration value", async () => {
    const { exited, output } = run({ PORT: "not-a-port" });
    expect(await exited).not.toBe(0);
    expect(output()).toContain("PORT");
    expect(output()).toContain("Invalid configuration");
  });

  it("stops with a message naming the embedded database's directory when it cannot be made", async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "proc-"));
    // Where the embedded database's directory goes, a file: the process that makes it fails.
    writeFileSync(path.join(dataDir, "pglite"), "not a directory");
    const { exited, output } = run({ PORT: "0" }, dataDir);
    expect(await exited).not.toBe(0);
    expect(output()).toContain(`could not create the embedded database in ${path.join(dataDir, "pglite")}`);
  });

  // A first start makes the embedded database, its migrations and the demo data: 12–15 s on an idle 2-core
  // machine, about 28 s with a benchmark beside it.
  it("shuts down gracefully on SIGTERM: stops accepting, closes the database, exits 0", { timeout: 90_000 }, async () => {
    const port = String(30_000 + Math.floor(Math.random() * 20_000));
    const { proc, exited, output } = run({ PORT: port });
    await waitFor(() => output().includes("listening on"), 80_000);
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(res.status).toBe(200);
    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output()).toContain("server stopped");
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
