import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  // The whole route manifest as one hashed file, cached by the browser for a year, instead of a
  // partial manifest worked out for every page rendered (route matching per ancestor path: about
  // 8% of a signed-in page's server time) and fetched again as the user moves on.
  routeDiscovery: { mode: "initial" },
} satisfies Config;
