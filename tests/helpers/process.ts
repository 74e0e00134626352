// Servers in processes of their own, as a user or an operator runs them: a
// free port, waiting for /readyz, the cookies of a response, and a borrower's
// sign-in with the code from the SMS outbox. Shared by tests and the bench.
import { createServer } from "node:net";
import { latestCode } from "./outbox.ts";

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
  server: { dataDir: string },
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
