import { lazy, Suspense, useState } from "react";
import { useHydrated } from "../lib/use-hydrated.ts";
import type { Toast } from "../lib/toast.ts";

// sonner (about 9 kB compressed) loads with the first toast, not with every page.
const FlashToaster = lazy(() => import("./flash-toaster.tsx"));

/**
 * The toast area, top-right. A flash toast from the server is rendered in the
 * HTML (so it shows before JavaScript loads) and handed to sonner once hydrated.
 */
export function FlashToasts({ toast }: { toast: Toast | null }) {
  const hydrated = useHydrated();
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
