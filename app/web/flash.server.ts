import { createCookieSessionStorage, redirect } from "react-router";
import type { Config } from "../../server/config.ts";
import { COOKIE_NAMES } from "../server/cookie-names.ts";
import type { Toast } from "../lib/toast.ts";

export type { Toast };

type FlashStorage = ReturnType<typeof createCookieSessionStorage<Record<string, never>, { toast: Toast }>>;
const storages = new Map<string, FlashStorage>();

function flashStorage(config: Config): FlashStorage {
  const key = `${config.sessionSecret}:${config.isProduction}`;
  let storage = storages.get(key);
  if (!storage) {
    storage = createCookieSessionStorage<Record<string, never>, { toast: Toast }>({
      cookie: {
        name: COOKIE_NAMES.flash,
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: config.isProduction,
        secrets: [config.sessionSecret],
      },
    });
    storages.set(key, storage);
  }
  return storage;
}

/** Redirects and carries a toast to the next page (a flash message that survives the redirect). */
export async function redirectWithToast(config: Config, request: Request, url: string, toast: Omit<Toast, "id">, init?: ResponseInit) {
  const storage = flashStorage(config);
  const session = await storage.getSession(request.headers.get("Cookie"));
  session.flash("toast", { ...toast, id: crypto.randomUUID() });
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await storage.commitSession(session));
  return redirect(url, { ...init, headers });
}

/** Reads (and consumes) the flash toast; the returned headers clear it. */
export async function readToast(config: Config, request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const storage = flashStorage(config);
  const session = await storage.getSession(request.headers.get("Cookie"));
  const toast = session.get("toast") ?? null;
  const headers = new Headers();
  if (toast) headers.append("Set-Cookie", await storage.commitSession(session));
  return { toast, headers };
}
