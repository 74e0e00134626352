import { lazy, Suspense, useMemo, useState } from "react";
import { useHydrated } from "../lib/use-hydrated.ts";
import { useMessageText } from "../lib/use-message-text.ts";
import type { Toast } from "../lib/toast.ts";

// sonner (about 9 kB compressed) loads with the first toast, not with every page.
const FlashToaster = lazy(() => import("./flash-toaster.tsx"));

/**
 * The toast area, top-right. A flash toast from the server is rendered in the
 * HTML (so it shows before JavaScript loads) and handed to sonner once hydrated. Its words are
 * English, or message keys said in the page's language.
 */
export function FlashToasts({ toast: given }: { toast: Toast | null }) {
  const hydrated = useHydrated();
  // A toast's words may be a message key (app/i18n/form-message.ts): said in the page's language.
  const say = useMessageText();
  const toast = useMemo(
    () =>
      given ? { ...given, title: say(given.title), description: given.description ? say(given.description) : given.description } : null,
    [given, say],
  );
  // Once sonner is there it stays, so a toast it shows is not cut short by the next page.
  const [used, setUsed] = useState(false);
  if (toast && !used) setUsed(true);

  const inHtml = toast ? (
    <div role="status" className="fixed top-4 right-4 z-50 max-w-sm rounded-lg border border-slate-200 bg-white p-4 shadow-lg">
      <p className="font-semibold">{toast.title}</p>
      {toast.description ? <p className="text-sm text-slate-700">{toast.description}</p> : null}
    </div>
  ) : null;
  if (!hydrated || !(used || toast)) return inHtml;
  return (
    <Suspense fallback={inHtml}>
      <FlashToaster toast={toast} />
    </Suspense>
  );
}
