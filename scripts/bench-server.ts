// What the bench scripts share: a free port, the production server of this
// build started in a data directory of its own (ready when /readyz answers),
// the cookies of a response, and a borrower's sign-in with the code from the
// SMS outbox.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { latestCode } from "../tests/helpers/outbox.ts";

/** Sign-in limits out of the way: a load of sign-ins from one address is the point of these runs. */
export const UNLIMITED_SIGN_IN = { OTP_PER_IP_PER_HOUR: "1000000", OTP_PER_NUMBER_PER_HOUR: "1000000", OTP_RESEND_SECONDS: "0" };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export async function waitUntilUp(url: string, tries = 600) {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

export function spawnNode(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

export interface BenchServer {
  base: string;
  dataDir: string;
  /** The server process's resident memory now, in bytes. */
  rssBytes(): number;
  /** SIGTERM, wait for the exit, remove the data directory. */
  stop(): Promise<void>;
}

/**
 * `server.ts` in production mode on 127.0.0.1 with `env` on top of this
 * process's environment; BENCH_SERVER_ARGS (e.g. `--cpu-prof`) go to its Node.
 */
export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-"));
  const port = await freePort();
  const args = [...(process.env.BENCH_SERVER_ARGS?.split(" ").filter(Boolean) ?? []), "server.ts"];
  const child = spawnNode(args, { NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ...env });
  const exited = new Promise((r) => child.once("exit", r));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(`${base}/readyz`);
  } catch (error) {
    await stop();
    throw error;
  }
  const rssBytes = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  return { base, dataDir, rssBytes, stop };
}

/** The value (`name=…`) of a cookie a response sets, if it sets one that is not empty. */
export const setCookieValue = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1);

type Post = (pathname: string, form: Record<string, string>, cookie: string) => Promise<Response>;

/**
 * A borrower's sign-in through /quickStart/Otp: the mobile number, then the
 * code from the outbox. `post` sends each form (the caller may time or check
 * it); `beforeVerify` runs just before the code is sent. Returns the verify
 * response and its session cookie.
 */
export async function signInByCode(
  server: Pick<BenchServer, "dataDir">,
  post: Post,
  { mobile, deviceId, redirectTo, beforeVerify }: { mobile: string; deviceId: string; redirectTo?: string; beforeVerify?: () => void },
) {
  const sent = await post("/quickStart/Otp", { intent: "send", mobile, ...(redirectTo ? { redirectTo } : {}) }, "");
  const pending = setCookieValue(sent, "otp_pending") ?? "";
  const code = latestCode(server.dataDir, mobile);
  beforeVerify?.();
  const verified = await post("/quickStart/Otp", { intent: "verify", code, deviceId }, pending);
  const token = setCookieValue(verified, "token");
  if (!token) throw new Error(`sign-in failed: ${verified.status}`);
  return { verified, token };
}
