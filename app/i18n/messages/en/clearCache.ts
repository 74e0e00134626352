// Clearing this site's data on the device (/ClearCache). Hindi in ../hi/clearCache.ts.
export default {
  meta: {
    title: "Clear this site's data",
    description: "Clear what this browser keeps for our site.",
  },
  heading: "Clear this site's data",
  intro:
    "If pages look out of date or something does not work as it should, clearing what this browser keeps for our site usually fixes it. It does not change anything in your account or your loans.",
  confirm: {
    title: "Clear this site's data on this device?",
    description:
      "This removes saved data, cached files and cookies of this site from this browser. If you are signed in, you will be signed out.",
    confirm: "Clear data",
    cancel: "Cancel",
  },
  report: {
    heading: "Done. Here is what was cleared",
    localStorage: "Local storage: {count} item(s)",
    sessionStorage: "Session storage: {count} item(s)",
    cookies: "Cookies readable by the page: {count} cookie(s)",
    caches: "Cache storage: {count} cache(s)",
    serviceWorkers: "Service workers: {count} unregistered",
  },
  byServer: {
    heading: "Done",
    body: "Your browser was asked to clear this site's cache, cookies and storage.",
  },
  goHome: "Go to the home page",
  form: {
    body: "Clears local storage, session storage, cookies, cached files and background workers of this site.",
    submit: "Clear data on this device",
    clearing: "Clearing…",
  },
} as const;
