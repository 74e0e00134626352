import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

// Paths as in the original application; matching ignores letter case.
export default [
  route("manifest.webmanifest", "routes/resources/manifest.ts"),
  layout("routes/site/layout.tsx", [
    index("routes/site/home.tsx"),
    route("homeComponents/:section", "routes/site/home-section.tsx"),
    route("About", "routes/site/about.tsx"),
    route("Contact-us", "routes/site/contact.tsx"),
    route("grievance-policy", "routes/site/grievance-policy.tsx"),
    route("privacy-policy", "routes/site/privacy-policy.tsx"),
    route("terms-and-conditions", "routes/site/terms.tsx"),
    route("ClearCache", "routes/site/clear-cache.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),
] satisfies RouteConfig;
