import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

// Paths as in the original application; matching ignores letter case.
export default [
  route("manifest.webmanifest", "routes/resources/manifest.ts"),
  route("api/emi", "routes/api/emi.ts"),
  route("api/pincode/:pin", "routes/api/pincode.ts"),
  route("api/ifsc/:code", "routes/api/ifsc.ts"),
  route("EmiCalculator/schedule.csv", "routes/resources/schedule-csv.ts"),
  route("api/events", "routes/api/events.ts"),
  route("api/session/clear", "routes/api/session-clear.ts"),
  route("api/session/renew", "routes/api/session-renew.ts"),
  route("auth/sign-out", "routes/api/sign-out.ts"),
  route("auth/facebook", "routes/api/facebook.ts"),
  route("auth/facebook/callback", "routes/api/facebook-callback.ts"),
  route("admin/login", "routes/admin/login.tsx"),
  route("admin/enrol/:token", "routes/admin/enrol.tsx"),
  route("admin/presence/events", "routes/admin/presence-events.ts"),
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/index.ts"),
    route("admin/presence", "routes/admin/presence.tsx"),
  ]),
  layout("routes/user/layout.tsx", [
    route("User", "routes/user/index.ts"),
    route("User/Dashboard", "routes/user/dashboard.tsx"),
    route("User/Profile/components/Profile", "routes/user/profile/profile-section.tsx"),
    route("User/Profile/components/Address", "routes/user/profile/address-section.tsx"),
    route("User/Profile/components/Employment", "routes/user/profile/employment-section.tsx"),
  ]),
  layout("routes/site/layout.tsx", [
    route("quickStart/Otp", "routes/quick-start/otp.tsx"),
    index("routes/site/home.tsx"),
    route("homeComponents/:section", "routes/site/home-section.tsx"),
    route("EmiCalculator", "routes/site/emi-calculator.tsx"),
    route("Rate-terms", "routes/site/rate-terms.tsx"),
    route("About", "routes/site/about.tsx"),
    route("Contact-us", "routes/site/contact.tsx"),
    route("grievance-policy", "routes/site/grievance-policy.tsx"),
    route("privacy-policy", "routes/site/privacy-policy.tsx"),
    route("terms-and-conditions", "routes/site/terms.tsx"),
    route("ClearCache", "routes/site/clear-cache.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),
] satisfies RouteConfig;
