// POST /language: the switch in the header. Sets the `lang` cookie (a year), and a signed-in
// borrower's language for messages (SMS, e-mail, push, in-app), then goes back to the page the
// switch was on, which is rendered again in the language chosen. A form, so it works before
// JavaScript loads; the same request twice leaves the same state.
import { data, redirect } from "react-router";
import { servicesContext } from "../../context.ts";
import { isLanguage, LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE_S } from "../../i18n/languages.ts";
import { signedInOn } from "../../server/auth/session.server.ts";
import { hasSessionCookie } from "../../server/cookie-names.ts";
import { setBorrowerLanguage } from "../../server/i18n/borrower-language.server.ts";
import { readForm } from "../../web/forms.server.ts";
import type { Route } from "./+types/language";

/** A path of this site to go back to: one starting with a single "/" (never "//host" or "/\host"), else the home page. */
export function localReturnPath(value: unknown): string {
  if (typeof value !== "string" || value.length > 2000) return "/";
  if (!/^\/(?![/\\])/.test(value) || /[\s\\]/.test(value.split("?")[0] ?? "")) return "/";
  return value;
}

export function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const form = await readForm(request);
  const language = form.get("lang");
  if (!isLanguage(language)) throw data({ message: "Choose English or Hindi." }, { status: 400 });
  if (hasSessionCookie(request.headers.get("Cookie"))) {
    const signedIn = await signedInOn(services, request);
    if (signedIn) await setBorrowerLanguage(services.db, signedIn.user.id, language);
  }
  const secure = services.config.isProduction ? "; Secure" : "";
  return redirect(localReturnPath(form.get("returnTo")), {
    headers: {
      "Set-Cookie": `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${LANGUAGE_COOKIE_MAX_AGE_S}; SameSite=Lax; HttpOnly${secure}`,
      "Cache-Control": "no-store",
    },
  });
}
