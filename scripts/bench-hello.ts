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

export interface HelloServer {
  /** The hello page loaded by `connections` at once for `seconds`, with the server's CPU per request. */
  load(connections: number, seconds: number): Promise<PageLoad>;
  stop(): void;
}

/** React Router's stock server on the hello page, built and started; loaded when asked (between other loads, for a paired measure). */
export async function startHello(): Promise<HelloServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-hello-"));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
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
    const stop = () => {
      child.kill("SIGTERM");
      removeDir();
    };
    const url = `http://127.0.0.1:${port}/`;
    try {
      await waitUntilUp(url);
    } catch (error) {
      stop();
      throw error;
    }
    return {
      load: (connections, seconds) => loadPage(url, { connections, seconds, cpuMs: () => treeCpuMs(child.pid ?? 0) }),
      stop,
    };
  } catch (error) {
    removeDir();
    throw error;
  }
}
