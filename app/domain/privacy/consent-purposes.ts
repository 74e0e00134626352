// The purposes a borrower consents to, each on its own (./consents.ts has their words and rules). Apart,
// without zod: the public privacy policy lists them, and a public page does not carry a schema library.
export const CONSENT_PURPOSES = ["kyc", "communications", "bureau_enquiry"] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];
