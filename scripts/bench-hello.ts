// React Router's stock server on a hello page, for `npm run bench` to compare signed-in pages
// against in the same run: scripts/bench-hello/ built by `react-router build` into a temporary
// directory and served by `react-router-serve` (@react-router/serve: Express, compression, morgan).
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadPage, type PageLoad } from "./bench-pages.ts";
import { freePort, spawnNode, treeCpuMs, waitUntilUp } from "./bench-server.ts";

const root = path.resolve(import.meta.dirname, "..");

/** The hello page loaded at each number of `connections`, in order: the load's figures by connections. */
export async function helloBench({
  connections,
  seconds,
  warmUp,
}: {
  connections: readonly number[];
  seconds: number;
  warmUp: number;
}): Promise<Record<number, PageLoad>> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-hello-"));
  try {
    cpSync(path.join(root, "scripts/bench-hello"), dir, { recursive: true });
    symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
    const bin = (name: string) => path.join(root, "node_modules/.bin", name);
    execFileSync(process.execPath, [bin("react-router"), "build"], {
      cwd: dir,
      stdio: "ignore",
      env: { ...process.env, NODE_ENV: "production" },
    });
    const port = await freePort();
    const child = spawnNode([bin("react-router-serve"), path.join(dir, "build/server/index.js")], {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
    });
    try {
      const url = `http://127.0.0.1:${port}/`;
      await waitUntilUp(url);
      const loads: Record<number, PageLoad> = {};
      for (const count of connections) {
        await loadPage(url, { connections: count, seconds: warmUp });
        loads[count] = await loadPage(url, { connections: count, seconds, cpuMs: () => treeCpuMs(child.pid ?? 0) });
      }
      return loads;
    } finally {
      child.kill("SIGTERM");
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
