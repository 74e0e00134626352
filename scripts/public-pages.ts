// Every public page a visitor reads (the quick start's front and the code page included): the
// Lighthouse test, the bench's page sizes and the Hindi pages test walk this one list.
export const PUBLIC_PAGES = [
  "/",
  "/homeComponents/calculator",
  "/EmiCalculator",
  "/Rate-terms",
  "/About",
  "/Contact-us",
  "/grievance-policy",
  "/privacy-policy",
  "/terms-and-conditions",
  "/ClearCache",
  "/quickStart",
  "/quickStart/Otp",
] as const;
