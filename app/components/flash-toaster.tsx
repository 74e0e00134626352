import { useEffect } from "react";
import { Toaster, toast as showToast } from "sonner";
import type { Toast } from "../lib/toast.ts";

/** sonner's toast area, top-right, showing each flash toast it is given once. */
export default function FlashToaster({ toast }: { toast: Toast | null }) {
  useEffect(() => {
    if (!toast) return;
    const show = toast.type === "success" ? showToast.success : toast.type === "error" ? showToast.error : showToast.info;
    show(toast.title, { id: toast.id, description: toast.description });
  }, [toast]);
  return <Toaster position="top-right" closeButton duration={6000} toastOptions={{ classNames: { description: "!text-slate-700" } }} />;
}
