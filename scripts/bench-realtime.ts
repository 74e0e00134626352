// Realtime figures for `npm run bench`: memory per open event stream, and the
// time from a second sign-in to the displacement notice on the first device.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const CONNECTIONS = Number(process.env.BENCH_SSE_CONNECTIONS ?? 2000);
const TRIALS = Number(process.env.BENCH_DISPLACE_TRIALS ?? 40);

const setCookieValue = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1);

export async function realtimeBench(port: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-rt-"));
  const server: ChildProcess = spawn(process.execPath, ["server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      OTP_PER_IP_PER_HOUR: "1000000",
      OTP_PER_NUMBER_PER_HOUR: "1000000",
      OTP_RESEND_SECONDS: "0",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  const rss = () => {
    const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  };
  try {
    for (let i = 0; i < 300; i++) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {
        /* starting */
      }
      await new Promise((r) => setTimeout(r, 100));
    }

    const form = (fields: Record<string, string>, cookie = "") =>
      fetch(`${base}/quickStart/Otp`, {
        method: "POST",
        redirect: "manual",
        body: new URLSearchParams(fields),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, Cookie: cookie },
      });
    const signIn = async (mobile: string, deviceId: string) => {
      const sent = await form({ intent: "send", mobile, redirectTo: "/User/Dashboard" });
      const pending = setCookieValue(sent, "otp_pending") ?? "";
      const lines = readFileSync(path.join(dataDir, "outbox", "sms.jsonl"), "utf8").trim().split("\n");
      const last = lines.map((l) => JSON.parse(l) as { to: string; text: string }).filter((m) => m.to === mobile).at(-1);
      const code = /\d{6}/.exec(last?.text ?? "")?.[0] ?? "";
      const started = performance.now();
      const verified = await form({ intent: "verify", code, deviceId }, pending);
      const token = setCookieValue(verified, "token");
      if (!token) throw new Error(`sign-in failed: ${verified.status}`);
      return { token, started };
    };
    const openStream = async (token: string, deviceId: string, onEvent: (name: string) => void) => {
      const controller = new AbortController();
      const res = await fetch(`${base}/api/events?device=${deviceId}`, { headers: { Cookie: token }, signal: controller.signal });
      const reader = res.body?.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      const ready = new Promise<void>((resolve) => {
        void (async () => {
          try {
            for (;;) {
              const chunk = await reader?.read();
              if (!chunk || chunk.done) return;
              buffer += decoder.decode(chunk.value, { stream: true });
              let idx = buffer.indexOf("\n\n");
              while (idx >= 0) {
                const block = buffer.slice(0, idx);
                buffer = buffer.slice(idx + 2);
                const name = /^event: (.+)$/m.exec(block)?.[1];
                if (name === "ready") resolve();
                if (name) onEvent(name);
                idx = buffer.indexOf("\n\n");
              }
            }
          } catch {
            /* aborted */
          }
        })();
      });
      await ready;
      return () => controller.abort();
    };

    // 1. Memory per open stream: one borrower with many open pages.
    const { token } = await signIn("9700000001", "bench-device");
    await new Promise((r) => setTimeout(r, 500));
    const before = rss();
    const closers: Array<() => void> = [];
    const t0 = performance.now();
    for (let i = 0; i < CONNECTIONS; i += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, CONNECTIONS - i) }, () => openStream(token, "bench-device", () => {})),
      );
      closers.push(...batch);
    }
    const openMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 1000));
    const after = rss();
    for (const close of closers) close();

    // 2. Displacement: sign in again elsewhere; time until the first device hears it.
    const latencies: number[] = [];
    for (let i = 0; i < TRIALS; i++) {
      const mobile = `96${String(10_000_000 + i)}`;
      const first = await signIn(mobile, `old-${i}`);
      let heard: (() => void) | undefined;
      const displaced = new Promise<void>((resolve) => (heard = resolve));
      const close = await openStream(first.token, `old-${i}`, (name) => name === "displaced" && heard?.());
      const second = await signIn(mobile, `new-${i}`);
      await displaced;
      latencies.push(performance.now() - second.started);
      close();
    }
    latencies.sort((x, y) => x - y);
    const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    return {
      connections: CONNECTIONS,
      openSeconds: openMs / 1000,
      rssBeforeMb: before / 1048576,
      rssAfterMb: after / 1048576,
      bytesPerConnection: (after - before) / CONNECTIONS,
      displacementP50Ms: pick(0.5),
      displacementP99Ms: pick(0.99),
      trials: TRIALS,
    };
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
