// The signed agreement's own link (docs/product.md "Key Fact Statement, signing and the signed
// agreement"): open to whoever holds it for 30 days after signing, then to its owner signed in.
// What the sign-in page says about it is in the catalogue (signIn.otp.agreementLinkEnded).
/** `/Eagreement/{ref}` opens to whoever holds its link for this many days after signing; then only to its owner, signed in. */
export const AGREEMENT_LINK_DAYS = 30;

/** A signature made after this moment still opens to whoever holds its link. */
export const agreementLinkOpenIfSignedSince = (now: Date) => new Date(now.getTime() - AGREEMENT_LINK_DAYS * 86_400_000);

/** Whether a path is a signed agreement's page or its files (the sign-in page says why it was sent there). */
export const isAgreementPath = (path: string) => /^\/eagreement\//i.test(path);

/** Until when a signature made at `signedAt` opens to whoever holds its link, or null when that has passed at `now`. */
export function linkOpenUntil(signedAt: Date, now: Date): Date | null {
  const until = new Date(signedAt.getTime() + AGREEMENT_LINK_DAYS * 86_400_000);
  return until > now ? until : null;
}
