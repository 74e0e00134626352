const KEY = "device_id";

/** Browser only: this browser's random device id, created on first use (kept in local storage). */
export function ensureDeviceId(): string {
  try {
    let id = window.localStorage.getItem(KEY);
    if (!id) {
      id = crypto.randomUUID();
      window.localStorage.setItem(KEY, id);
    }
    return id;
  } catch {
    return "";
  }
}
