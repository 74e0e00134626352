import { Star } from "lucide-react";
import { useTranslations } from "../../i18n/use-translations.ts";
import type { HomeData } from "../../domain/home.ts";

export function FeedbackSection({ feedback }: HomeData) {
  const t = useTranslations("home.feedback");
  return (
    <section id="feedback" aria-labelledby="feedback-title" className="mx-auto max-w-6xl scroll-mt-4 px-4 py-12">
      <h2 id="feedback-title">{t("heading")}</h2>
      {feedback.length === 0 ? (
        <p className="mt-4 text-slate-700">{t("none")}</p>
      ) : (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {feedback.map((item) => (
            <li key={item.id} className="card">
              <figure>
                <p className="flex items-center gap-1" aria-label={t("rated", { rating: String(item.rating) })} role="img">
                  {[1, 2, 3, 4, 5].map((n) => (
                    <Star
                      key={n}
                      aria-hidden="true"
                      className={`size-4 ${n <= item.rating ? "fill-amber-500 text-amber-600" : "text-slate-400"}`}
                    />
                  ))}
                </p>
                <blockquote className="mt-3 text-slate-800">
                  <p>“{item.body}”</p>
                </blockquote>
                <figcaption className="mt-3 flex flex-wrap items-center gap-2 text-sm text-slate-600">
                  <span>
                    {item.authorName}, {item.city}
                  </span>
                  {item.isSample ? (
                    <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">{t("sample")}</span>
                  ) : null}
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
