import { Bell } from "lucide-react";
import { useEffect, useState } from "react";
import { NavLink } from "./nav-link.tsx";
import { StaticIcon } from "./static-icon.tsx";
import { useTranslations } from "../i18n/use-translations.ts";

/** The window event DeviceWatch raises when the realtime channel tells the unread count. */
export const NOTICES_EVENT = "app:notices";

/** The bell in the signed-in header: the unread count, kept live by the realtime channel. */
export function NotificationBell({ unread: initial }: { unread: number }) {
  const t = useTranslations("account.bell");
  const [unread, setUnread] = useState(initial);
  const [fromServer, setFromServer] = useState(initial);
  // A page load or revalidation brings the server's count.
  if (fromServer !== initial) {
    setFromServer(initial);
    setUnread(initial);
  }
  useEffect(() => {
    const onCount = (event: Event) => setUnread((event as CustomEvent<{ unread: number }>).detail.unread);
    window.addEventListener(NOTICES_EVENT, onCount);
    return () => window.removeEventListener(NOTICES_EVENT, onCount);
  }, []);
  const label = t("label", { unread });
  return (
    <NavLink
      to="/User/Notifications"
      aria-label={label}
      title={label}
      className={({ isActive }) =>
        `relative inline-flex shrink-0 items-center rounded-md px-2 py-2 whitespace-nowrap sm:px-3 text-sm font-medium ${isActive ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100"}`
      }
    >
      <StaticIcon icon={Bell} aria-hidden="true" className="h-5 w-5" />
      <span
        aria-hidden="true"
        data-unread={unread}
        className={unread ? "ml-1 rounded-full bg-red-700 px-1.5 text-xs font-bold text-white" : "sr-only"}
      >
        {unread > 99 ? "99+" : unread || ""}
      </span>
    </NavLink>
  );
}
