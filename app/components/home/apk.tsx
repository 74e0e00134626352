import { Download } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslations } from "../../i18n/use-translations.ts";
import type { HomeData } from "../../domain/home.ts";

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

/** Install the site as an app (web app manifest), plus the Android app when one is configured. */
export function ApkSection({ brandName, androidAppUrl }: HomeData) {
  const t = useTranslations("home.apk");
  const [installEvent, setInstallEvent] = useState<BeforeInstallPromptEvent | null>(null);
  const [status, setStatus] = useState<"idle" | "installed" | "dismissed">("idle");

  useEffect(() => {
    const onPrompt = (event: Event) => {
      event.preventDefault();
      setInstallEvent(event as BeforeInstallPromptEvent);
    };
    const onInstalled = () => setStatus("installed");
    window.addEventListener("beforeinstallprompt", onPrompt);
    window.addEventListener("appinstalled", onInstalled);
    return () => {
      window.removeEventListener("beforeinstallprompt", onPrompt);
      window.removeEventListener("appinstalled", onInstalled);
    };
  }, []);

  async function install() {
    if (!installEvent) return;
    await installEvent.prompt();
    const choice = await installEvent.userChoice;
    setStatus(choice.outcome === "accepted" ? "installed" : "dismissed");
    setInstallEvent(null);
  }

  return (
    <section id="app" aria-labelledby="app-title" className="bg-brand-900 text-white">
      <div className="mx-auto grid max-w-6xl gap-6 px-4 py-12 md:grid-cols-[1fr_auto] md:items-center">
        <div>
          <h2 id="app-title" className="text-white">
            {t("heading", { brand: brandName })}
          </h2>
          <p className="mt-3 text-brand-100">{t("intro")}</p>
          <p className="mt-3 text-sm text-brand-100">{t("steps")}</p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row md:flex-col">
          {/* Only when the browser offers to install (beforeinstallprompt); otherwise the steps above say how. */}
          {installEvent ? (
            <button type="button" className="btn bg-white text-brand-900 hover:bg-brand-50" onClick={install} data-testid="install-app">
              <Download aria-hidden="true" className="size-5" />
              {t("install")}
            </button>
          ) : null}
          <p className="text-sm text-brand-100" aria-live="polite">
            {status === "idle" ? "" : t(status)}
          </p>
          {androidAppUrl ? (
            <a className="btn border border-white text-white hover:bg-brand-800" href={androidAppUrl} rel="noopener">
              {t("android")}
            </a>
          ) : null}
        </div>
      </div>
    </section>
  );
}
