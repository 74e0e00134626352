import { useLocation } from "react-router";
import { Link } from "../lib/link.tsx";
import { useTranslations } from "../i18n/use-translations.ts";

/** The not-found view shared by the 404 route and the error boundaries. */
export function NotFound({ message }: { message: string }) {
  const t = useTranslations("common.notFound");
  return (
    <section aria-labelledby="not-found-title" className="py-8">
      <h1 id="not-found-title" className="break-words">
        {message}
      </h1>
      <p className="mt-4 text-slate-700">{t("body")}</p>
      <p className="mt-6 flex flex-wrap gap-3">
        <Link className="btn-primary" to="/">
          {t("home")}
        </Link>
        <Link className="btn-secondary" to="/Contact-us">
          {t("contact")}
        </Link>
      </p>
    </section>
  );
}

/** The 404 page of a route that renders it itself: "Page not found: {path}". */
export function NotFoundPage({ path }: { path?: string }) {
  const location = useLocation();
  const t = useTranslations("common.notFound");
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <NotFound message={t("heading", { path: path ?? location.pathname })} />
    </div>
  );
}
