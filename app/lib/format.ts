const timeFormat = new Intl.DateTimeFormat("en-IN", {
  hour: "numeric",
  minute: "2-digit",
  hour12: true,
  timeZone: "Asia/Kolkata",
});
const dateFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "Asia/Kolkata",
});

/** "3:05 pm", in India time. */
export const formatTimeIST = (date: Date) => timeFormat.format(date);
/** "22 Nov 2026", in India time. */
export const formatDateIST = (date: Date) => dateFormat.format(date);

/** "22 Nov 2026, 3:05 pm", in India time. */
export const formatDateTimeIST = (date: Date) => `${formatDateIST(date)}, ${formatTimeIST(date)}`;

/** Today's date in India ("YYYY-MM-DD"): IST is UTC+5:30 all year. */
export const todayIST = (now: Date) => new Date(now.getTime() + 5.5 * 3600_000).toISOString().slice(0, 10);
