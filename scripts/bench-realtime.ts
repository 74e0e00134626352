// Realtime figures for `npm run bench`: memory per open event stream, and the
// time from a second sign-in to the displacement notice on the first device.
import { signInByCode, startBenchServer, UNLIMITED_SIGN_IN } from "./bench-server.ts";

const CONNECTIONS = Number(process.env.BENCH_SSE_CONNECTIONS ?? 2000);
const TRIALS = Number(process.env.BENCH_DISPLACE_TRIALS ?? 40);

export async function realtimeBench() {
  const server = await startBenchServer({ LOG_LEVEL: "warn", ...UNLIMITED_SIGN_IN });
  const { base } = server;
  const rss = server.rssBytes;
  try {
    const post = (pathname: string, fields: Record<string, string>, cookie: string) =>
      fetch(base + pathname, {
        method: "POST",
        redirect: "manual",
        body: new URLSearchParams(fields),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, Cookie: cookie },
      });
    const signIn = async (mobile: string, deviceId: string) => {
      let started = 0;
      const { token } = await signInByCode(server, post, {
        mobile,
        deviceId,
        redirectTo: "/User/Dashboard",
        beforeVerify: () => (started = performance.now()),
      });
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
    await server.stop();
  }
}
