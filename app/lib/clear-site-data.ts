export interface ClearReport {
  localStorage: number;
  sessionStorage: number;
  cookies: number;
  caches: number;
  serviceWorkers: number;
}

/** Browser only: clears everything this origin keeps that a page can reach. */
export async function clearSiteData(): Promise<ClearReport> {
  const report: ClearReport = { localStorage: 0, sessionStorage: 0, cookies: 0, caches: 0, serviceWorkers: 0 };
  try {
    report.localStorage = window.localStorage.length;
    window.localStorage.clear();
  } catch {
    /* storage blocked */
  }
  try {
    report.sessionStorage = window.sessionStorage.length;
    window.sessionStorage.clear();
  } catch {
    /* storage blocked */
  }
  for (const part of document.cookie.split(";")) {
    const name = part.split("=")[0]?.trim();
    if (!name) continue;
    document.cookie = `${name}=; Max-Age=0; path=/`;
    report.cookies += 1;
  }
  if ("caches" in window) {
    const keys = await window.caches.keys();
    await Promise.all(keys.map((key) => window.caches.delete(key)));
    report.caches = keys.length;
  }
  if ("serviceWorker" in navigator) {
    const registrations = await navigator.serviceWorker.getRegistrations();
    await Promise.all(registrations.map((r) => r.unregister()));
    report.serviceWorkers = registrations.length;
  }
  try {
    // The HttpOnly session cookie is out of a script's reach: the server's
    // Clear-Site-Data answer clears it.
    await fetch("/ClearCache", { method: "POST", redirect: "manual", credentials: "same-origin" });
  } catch {
    /* offline: the rest is cleared already */
  }
  return report;
}
