import { useEffect } from "react";
import { Toaster, toast as showToast } from "sonner";
import { useTranslations } from "../i18n/use-translations.ts";
import type { Toast } from "../lib/toast.ts";

/** sonner's toast area, top-right, showing each flash toast it is given once. */
export default function FlashToaster({ toast }: { toast: Toast | null }) {
  const t = useTranslations("common.toasts");
  useEffect(() => {
    if (!toast) return;
    // A new flash message ends the ones before it: what they said belongs to the page they came with
    // (a "Password set" toast, paused while the person was in their authenticator app, must not
    // outlive the sign-in it asked for).
    showToast.dismiss();
    const show = toast.type === "success" ? showToast.success : toast.type === "error" ? showToast.error : showToast.info;
    show(toast.title, { id: toast.id, description: toast.description });
  }, [toast]);
  return (
    <Toaster
      position="top-right"
      closeButton
      duration={6000}
      containerAriaLabel={t("region")}
      toastOptions={{ closeButtonAriaLabel: t("close"), classNames: { description: "!text-slate-700" } }}
    />
  );
}
