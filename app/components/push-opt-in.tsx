import { useEffect, useState } from "react";
import { useTranslations } from "../i18n/use-translations.ts";

/** The original application's names for what can stop push notices on a device. */
export type PushError =
  "unsupported-browser" | "indexed-db-unsupported" | "failed-service-worker-registration" | "permission-blocked" | "subscription-failed";

/** What the browser offers: the first thing missing, or null when push can work here. */
export function pushSupport(env: {
  serviceWorker: boolean;
  pushManager: boolean;
  notification: boolean;
  indexedDb: boolean;
  permission: NotificationPermission | null;
}): PushError | null {
  if (!env.serviceWorker || !env.pushManager || !env.notification) return "unsupported-browser";
  if (!env.indexedDb) return "indexed-db-unsupported";
  if (env.permission === "denied") return "permission-blocked";
  return null;
}

const browserSupport = () =>
  pushSupport({
    serviceWorker: "serviceWorker" in navigator,
    pushManager: "PushManager" in window,
    notification: "Notification" in window,
    indexedDb: "indexedDB" in window && window.indexedDB !== null,
    permission: "Notification" in window ? Notification.permission : null,
  });

/** The VAPID public key (base64url) as the bytes PushManager.subscribe wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url
    .replaceAll("-", "+")
    .replaceAll("_", "/")
    .padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

const SW_PATH = "/firebase-messaging-sw.js";

type State = { kind: "off" } | { kind: "working" } | { kind: "on"; endpoint: string } | { kind: "error"; error: PushError };

/**
 * Push notices on this device: says what will be sent before the browser asks for permission,
 * asks only when the borrower presses the button, then registers the service worker, subscribes
 * and gives the server the subscription. Each failure has the original's name.
 */
export function PushOptIn({ publicKey }: { publicKey: string | null }) {
  const [state, setState] = useState<State>({ kind: "off" });
  const t = useTranslations("notifications.push");

  // Already on for this device (allowed, with a subscription): say so.
  useEffect(() => {
    if (!publicKey || browserSupport() !== null || Notification.permission !== "granted") return;
    let live = true;
    navigator.serviceWorker
      .getRegistration("/")
      .then((r) => r?.pushManager.getSubscription())
      .then((s) => {
        if (live && s) setState({ kind: "on", endpoint: s.endpoint });
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [publicKey]);

  if (!publicKey) return null;

  async function turnOn(key: string) {
    const missing = browserSupport();
    if (missing) return setState({ kind: "error", error: missing });
    setState({ kind: "working" });
    const permission = await Notification.requestPermission();
    if (permission !== "granted") return setState({ kind: "error", error: "permission-blocked" });
    let registration: ServiceWorkerRegistration;
    try {
      await navigator.serviceWorker.register(SW_PATH, { scope: "/" });
      registration = await navigator.serviceWorker.ready;
    } catch {
      return setState({ kind: "error", error: "failed-service-worker-registration" });
    }
    try {
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
      const res = await fetch("/api/push/subscriptions", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(subscription.toJSON()),
      });
      if (!res.ok) throw new Error(`the server answered ${res.status}`);
      setState({ kind: "on", endpoint: subscription.endpoint });
    } catch {
      setState({ kind: "error", error: "subscription-failed" });
    }
  }

  async function turnOff(endpoint: string) {
    setState({ kind: "working" });
    try {
      const registration = await navigator.serviceWorker.getRegistration("/");
      await (await registration?.pushManager.getSubscription())?.unsubscribe();
    } finally {
      await fetch("/api/push/subscriptions", {
        method: "DELETE",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ endpoint }),
      }).catch(() => {});
      setState({ kind: "off" });
    }
  }

  return (
    <section className="rounded-xl border border-slate-200 bg-white p-4" aria-labelledby="push-title" data-push-state={state.kind}>
      <h2 id="push-title" className="text-lg font-semibold text-slate-900">
        {t("heading")}
      </h2>
      {state.kind === "on" ? (
        <>
          <p className="mt-1 text-slate-800" role="status">
            {t("on")}
          </p>
          <button
            type="button"
            onClick={() => void turnOff(state.endpoint)}
            className="mt-3 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            {t("turnOff")}
          </button>
        </>
      ) : (
        <>
          <p className="mt-1 text-slate-800">{t("intro")}</p>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-800">
            <li>{t("due")}</li>
            <li>{t("received")}</li>
            <li>{t("decided")}</li>
            <li>{t("overdue")}</li>
            <li>{t("support")}</li>
          </ul>
          <p className="mt-2 text-sm text-slate-700">{t("quietHours")}</p>
          {state.kind === "error" && (
            <p role="alert" data-error={state.error} className="mt-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
              {t(`errors.${state.error}`)}
            </p>
          )}
          <button
            type="button"
            disabled={state.kind === "working"}
            onClick={() => void turnOn(publicKey)}
            className="mt-3 rounded-md bg-brand-700 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {state.kind === "working" ? t("turningOn") : t("turnOn")}
          </button>
        </>
      )}
    </section>
  );
}
