// The request's language for React Router: the root's middleware chooses it (the `lang` cookie, else
// Accept-Language, else English; staff pages always English), and says it in Content-Language and
// Vary. Loaders take their page's messages in it from here.
import type { MiddlewareFunction, RouterContextProvider } from "react-router";
import { documentRequestContext, languageContext, requestContext } from "../context.ts";
import { chooseLanguage, DEFAULT_LANGUAGE, HTML_LANG, type Language } from "../i18n/languages.ts";
import type { Namespace } from "../i18n/messages.ts";
import { messagesRefs, serializedMessages, translator } from "../i18n/messages.server.ts";

type Context = Readonly<RouterContextProvider>;

/** Staff pages (and the staff sign-in) are English only (docs/product.md "Languages"). */
const isStaffPath = (pathname: string) => /^\/admin(?:\/|$)/i.test(pathname);

/** The language `request` is answered in. */
export function languageOfRequest(request: Request): Language {
  if (isStaffPath(new URL(request.url).pathname)) return DEFAULT_LANGUAGE;
  return chooseLanguage(request.headers.get("Cookie"), request.headers.get("Accept-Language"));
}

export const languageMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const language = languageOfRequest(request);
  context.set(languageContext, language);
  // Said on the request's information too: a message sent for it (the sign-in code's SMS) is written in it.
  try {
    context.get(requestContext).language = language;
  } catch {
    // No request information (a request not made through server/app.ts).
  }
  const response = await next();
  try {
    response.headers.set("Content-Language", HTML_LANG[language]);
    const vary = response.headers.get("Vary");
    if (!vary || !/accept-language/i.test(vary)) response.headers.set("Vary", vary ? `${vary}, Accept-Language` : "Accept-Language");
  } catch {
    // A response whose headers cannot change (a redirect made by Response.redirect): it has no text.
  }
  return response;
};

export const languageOf = (context: Context): Language => context.get(languageContext);

/**
 * A page's messages, in its language, for its loader data (`messages`): the root's provider joins
 * them. A document's data names them (the document carries them, app/entry.server.tsx); a client
 * navigation's data carries them.
 */
export function pageMessages(context: Context, namespaces: readonly Namespace[]) {
  return (context.get(documentRequestContext) ? messagesRefs : serializedMessages)(languageOf(context), namespaces);
}

/** A translator in the request's language, for words made in a loader or action (a page title). */
export function translatorFor<N extends Namespace>(context: Context, namespace: N) {
  return translator(languageOf(context), namespace);
}

// A namespace's title and description depend on nothing else (use-intl's `has` of a missing key
// throws and catches an error: made once per process and language, not on every request).
const metaTexts = new Map<string, { title: string; description?: string }>();

/**
 * A page's title and description for its `meta`, from its namespace's `meta.title` and
 * `meta.description`, in the request's language (the loader returns them as `meta`).
 */
export function pageMetaText(context: Context, namespace: Namespace): { title: string; description?: string } {
  const language = languageOf(context);
  const key = `${language}:${namespace}`;
  let text = metaTexts.get(key);
  if (text === undefined) {
    const t = translator(language, namespace) as unknown as ((key: string) => string) & { has(key: string): boolean };
    text = { title: t("meta.title"), description: t.has("meta.description") ? t("meta.description") : undefined };
    metaTexts.set(key, text);
  }
  return { ...text };
}
