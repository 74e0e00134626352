import { useEffect } from "react";
import { Toaster, toast as showToast } from "sonner";
import { useHydrated } from "../lib/use-hydrated.ts";
import type { Toast } from "../lib/toast.ts";

/**
 * The toast area, top-right. A flash toast from the server is rendered in the
 * HTML (so it shows before JavaScript loads) and handed to sonner once hydrated.
 */
export function FlashToasts({ toast }: { toast: Toast | null }) {
  const hydrated = useHydrated();
  useEffect(() => {
    if (!toast) return;
    const show = toast.type === "success" ? showToast.success : toast.type === "error" ? showToast.error : showToast.info;
    show(toast.title, { id: toast.id, description: toast.description });
  }, [toast]);

  return (
    <>
      <Toaster position="top-right" closeButton duration={6000} toastOptions={{ classNames: { description: "!text-slate-700" } }} />
      {!hydrated && toast ? (
        <div role="status" className="fixed top-4 right-4 z-50 max-w-sm rounded-lg border border-slate-200 bg-white p-4 shadow-lg">
          <p className="font-semibold">{toast.title}</p>
          {toast.description ? <p className="text-sm text-slate-700">{toast.description}</p> : null}
        </div>
      ) : null}
    </>
  );
}
