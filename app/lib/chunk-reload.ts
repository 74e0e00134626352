export const CHUNK_RELOAD_GUARD_MS = 10_000;
const KEY = "chunk-reload-at:";

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** True when an error is a failed load of a code chunk (dynamic import or module script). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}

/**
 * Decides whether to reload for a chunk error on `path`: yes unless the same
 * path was reloaded for this reason less than 10 s ago. Records the reload.
 */
export function shouldReloadForChunkError(path: string, now: number, storage: StorageLike): boolean {
  const last = Number(storage.getItem(KEY + path) ?? 0);
  if (last && now - last < CHUNK_RELOAD_GUARD_MS) return false;
  storage.setItem(KEY + path, String(now));
  return true;
}

/** Browser only: reloads the page if the guard allows; returns whether it did. */
export function reloadOnceForChunkError(path: string): boolean {
  let storage: StorageLike;
  try {
    storage = window.sessionStorage;
  } catch {
    return false;
  }
  if (!shouldReloadForChunkError(path, Date.now(), storage)) return false;
  window.location.reload();
  return true;
}
