// What /Eagreement/{ref} and its files answer (docs/product.md "Key Fact Statement, signing and
// the signed agreement"): the agreement to whoever holds the link for 30 days after signing, then
// to its owner signed in; someone not signed in is sent to sign in (the page says why), anyone
// else gets the not-found page. The document is never sent to anyone the query did not find it for.
import { data, redirect } from "react-router";
import type { AppServices } from "../context.ts";
import { signedInOn } from "../server/auth/session.server.ts";
import { type AgreementViewer, agreementExists } from "../server/loans/read.server.ts";
import { pageOf } from "./guards.server.ts";
import { translator } from "../i18n/messages.server.ts";
import { languageOfRequest } from "./i18n.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;

/** Who is looking: the signed-in person's id (the query compares it with the agreement's owner), and when. */
export async function agreementViewer(services: Services, request: Request): Promise<AgreementViewer> {
  const signedIn = await signedInOn(services, request);
  return { userId: signedIn?.user.id ?? null, at: services.now() };
}

/**
 * The answer when the agreement was not found for `viewer`: someone not signed in, holding the
 * link of an agreement that exists, is sent to sign in and brought back here; otherwise (unknown,
 * or another person's) the not-found page.
 */
export async function agreementRefused(services: Services, request: Request, ref: string | null, viewer: AgreementViewer): Promise<never> {
  const { path } = pageOf(request);
  if (ref && !viewer.userId && (await agreementExists(services, ref)))
    throw redirect(`/quickStart/Otp?redirectTo=${encodeURIComponent(path)}`);
  throw data({ message: translator(languageOfRequest(request), "common")("notFound.heading", { path }), path }, { status: 404 });
}
