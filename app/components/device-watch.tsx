import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { ensureDeviceId } from "../lib/device.ts";
import { useTranslations } from "../i18n/use-translations.ts";
import { DISPLACED_LANDING } from "../lib/displaced.ts";
import { NOTICES_EVENT } from "./notification-bell.tsx";

/**
 * Keeps the signed-in page's realtime channel open (presence) and reacts to
 * its events: another device signed in → say so until the person has read it
 * (OK), clear this device's data, then go home, which says it again; staff device reload → renew the session and reload; a notice → the
 * bell's unread count; an application changed → the page's data read again (no reload).
 */
export function DeviceWatch() {
  const [displaced, setDisplaced] = useState(false);
  const [cleared, setCleared] = useState(false);
  const ok = useRef<HTMLButtonElement>(null);
  const revalidate = useRevalidator();
  const t = useTranslations("account.displaced");
  const common = useTranslations("common.displaced");
  const revalidator = useRef(revalidate);
  // An event that came while the page was already reading its data is read once more after that.
  const pending = useRef(false);
  useEffect(() => {
    revalidator.current = revalidate;
    if (revalidate.state === "idle" && pending.current) {
      pending.current = false;
      void revalidate.revalidate();
    }
  }, [revalidate]);
  useEffect(() => {
    if (cleared) ok.current?.focus();
  }, [cleared]);

  useEffect(() => {
    const deviceId = ensureDeviceId();
    const source = new EventSource(`/api/events?device=${encodeURIComponent(deviceId)}`);
    source.addEventListener("displaced", async () => {
      source.close();
      setDisplaced(true);
      try {
        window.localStorage.clear();
        window.sessionStorage.clear();
      } catch {
        /* storage blocked */
      }
      for (const part of document.cookie.split(";")) {
        const name = part.split("=")[0]?.trim();
        if (name) document.cookie = `${name}=; Max-Age=0; path=/`;
      }
      try {
        await fetch("/api/session/clear", { method: "POST", credentials: "same-origin" });
      } catch {
        /* offline: the server ended the session already; the cookie goes with the next answer */
      } finally {
        setCleared(true);
      }
    });
    source.addEventListener("notifications", (event) => {
      try {
        const { unread } = JSON.parse((event as MessageEvent<string>).data) as { unread: number };
        window.dispatchEvent(new CustomEvent(NOTICES_EVENT, { detail: { unread } }));
      } catch {
        /* a malformed event: the next page load brings the count */
      }
    });
    // An application changed (staff took, asked, decided or paid out): the page reads its data again.
    source.addEventListener("application", () => {
      if (revalidator.current.state === "idle") void revalidator.current.revalidate();
      else pending.current = true;
    });
    source.addEventListener("reload", async () => {
      source.close();
      await fetch("/api/session/renew", { method: "POST", credentials: "same-origin" });
      window.location.reload();
    });
    return () => source.close();
  }, []);

  if (!displaced) return null;
  return (
    <div className="fixed inset-0 z-[70] flex items-center justify-center bg-slate-900/60 p-4">
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="displaced-title"
        aria-describedby="displaced-why"
        className="max-w-sm rounded-2xl bg-white p-6 text-center shadow-xl"
      >
        <p id="displaced-title" className="text-lg font-semibold">
          {common("title")}
        </p>
        <p id="displaced-why" className="mt-2 text-slate-700">
          {t("why")}
        </p>
        <p className="mt-2 text-slate-700">{t("ifNotYou")}</p>
        <button
          ref={ok}
          type="button"
          className="btn-primary mt-4 w-full"
          disabled={!cleared}
          onClick={() => window.location.assign(DISPLACED_LANDING)}
        >
          {t("ok")}
        </button>
      </div>
    </div>
  );
}
