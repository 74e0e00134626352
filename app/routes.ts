import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

/** /User/newLoan/{segment}: start, then Step0, Step1, Step5, Step6, Step7; one module per step serves both kinds. */
function newLoanRoutes(segment: "Emi" | "salaryAdvance", idPrefix: string) {
  const base = `User/newLoan/${segment}`;
  return [
    route(base, "routes/user/new-loan/start.ts", { id: `${idPrefix}-start` }),
    ...(["Step0", "Step1", "Step5", "Step6", "Step7"] as const).map((step) =>
      route(`${base}/:id/${step}`, `routes/user/new-loan/${step.toLowerCase()}.tsx`, { id: `${idPrefix}-${step.toLowerCase()}` }),
    ),
  ];
}

// Paths as in the original application; matching ignores letter case.
export default [
  route("manifest.webmanifest", "routes/resources/manifest.ts"),
  route("api/emi", "routes/api/emi.ts"),
  route("api/pincode/:pin", "routes/api/pincode.ts"),
  route("api/ifsc/:code", "routes/api/ifsc.ts"),
  route("EmiCalculator/schedule.csv", "routes/resources/schedule-csv.ts"),
  route("api/events", "routes/api/events.ts"),
  route("api/session/clear", "routes/api/session-clear.ts"),
  route("api/webhooks/:provider", "routes/api/payout-webhook.ts"),
  route("api/payments/:provider/return", "routes/api/payment-return.ts"),
  route("api/loans/:loanNumber/payoff", "routes/api/payoff.ts"),
  route("api/session/renew", "routes/api/session-renew.ts"),
  route("auth/sign-out", "routes/api/sign-out.ts"),
  route("auth/facebook", "routes/api/facebook.ts"),
  route("auth/facebook/callback", "routes/api/facebook-callback.ts"),
  route("admin/login", "routes/admin/login.tsx"),
  route("admin/enrol/:token", "routes/admin/enrol.tsx"),
  route("admin/presence/events", "routes/admin/presence-events.ts"),
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/home.tsx"),
    route("admin/applications", "routes/admin/applications.tsx"),
    route("admin/applications/:ref", "routes/admin/application.tsx"),
    route("admin/applications/:ref/agreement.pdf", "routes/admin/application-agreement.ts"),
    route("admin/presence", "routes/admin/presence.tsx"),
    route("admin/borrowers", "routes/admin/borrowers.tsx"),
    route("admin/borrowers/:id", "routes/admin/borrower.tsx"),
    route("admin/audit", "routes/admin/audit.tsx"),
    route("admin/audit.csv", "routes/admin/audit-csv.ts"),
    route("admin/reports", "routes/admin/reports.tsx"),
    route("admin/staff", "routes/admin/staff.tsx"),
    route("admin/products", "routes/admin/products.tsx"),
    route("admin/holidays", "routes/admin/holidays.tsx"),
    route("admin/documents/:id", "routes/admin/document-file.ts"),
    route("admin/loans/:loanNumber", "routes/admin/loan.tsx"),
    route("admin/collections", "routes/admin/collections.tsx"),
  ]),
  // The signed-in borrower's pages (and the quick start's steps).
  layout("routes/user/layout.tsx", [
    route("User", "routes/user/index.ts"),
    route("User/Dashboard", "routes/user/dashboard.tsx"),
    route("User/Loans", "routes/user/loans/list.tsx"),
    route("User/Loans/Emi/:loanNumber", "routes/user/loans/loan.tsx", { id: "loan-emi" }),
    route("User/Loans/SalaryAdvance/:loanNumber", "routes/user/loans/loan.tsx", { id: "loan-salary-advance" }),
    route("User/Loans/:loanNumber/revised-kfs.pdf", "routes/user/revised-kfs.ts"),
    route("User/Loans/:loanNumber/:document", "routes/user/loans/document.ts"),
    route("User/Profile", "routes/user/profile/overview.tsx"),
    route("User/Profile/components/Profile", "routes/user/profile/profile-section.tsx"),
    route("User/Profile/components/Address", "routes/user/profile/address-section.tsx"),
    route("User/Profile/components/Employment", "routes/user/profile/employment-section.tsx"),
    route("User/Profile/components/Bank", "routes/user/profile/bank-section.tsx"),
    route("User/Profile/components/Reference", "routes/user/profile/reference-section.tsx"),
    route("User/Profile/components/Documents", "routes/user/profile/documents-section.tsx"),
    route("User/Profile/components/Selfie", "routes/user/profile/selfie-section.tsx"),
    route("User/Profile/documents/:id", "routes/user/profile/document-file.ts"),
    ...newLoanRoutes("Emi", "emi"),
    ...newLoanRoutes("salaryAdvance", "salary-advance"),
    // The quick start's steps follow the mobile code (/quickStart/Otp): a signed-in borrower, resumed at the first step not done.
    route("quickStart/components", "routes/quick-start/components.ts"),
    ...[0, 1, 2, 3, 4, 5, 6].map((n) => route(`quickStart/Step${n}`, `routes/quick-start/step${n}.tsx`)),
  ]),
  layout("routes/site/layout.tsx", [
    route("quickStart", "routes/quick-start/index.tsx"),
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
    // The KFS PDF pages sit outside the /User guard: a phone's PDF viewer has no session (docs/product.md "Key Fact Statement, signing and the signed agreement").
    route("User/newLoan/Emi/:id/Step5/pdfDisplay", "routes/site/application-pdf.tsx", { id: "emi-pdf-display" }),
    route("User/newLoan/Emi/:id/Step5/pdfDownload", "routes/site/application-pdf.tsx", { id: "emi-pdf-download" }),
    route("User/newLoan/salaryAdvance/:id/Step5/pdfDisplay", "routes/site/application-pdf.tsx", { id: "salary-advance-pdf-display" }),
    route("User/newLoan/salaryAdvance/:id/Step5/pdfDownload", "routes/site/application-pdf.tsx", { id: "salary-advance-pdf-download" }),
    route("Eagreement/:id", "routes/site/eagreement.tsx"),
    route("local-checkout/:id", "routes/site/local-checkout.tsx"),
    route("Eagreement/:id/pdf", "routes/site/eagreement-pdf.tsx"),
    route(":state/:id", "routes/site/outcome.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),
] satisfies RouteConfig;
