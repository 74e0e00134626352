import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { reloadOnceForChunkError } from "./lib/chunk-reload.ts";

// A page's code chunk that fails to load (usually a deploy replaced it) reloads
// the page, at most once per 10 s for the same path.
window.addEventListener("vite:preloadError", (event) => {
  if (reloadOnceForChunkError(window.location.pathname)) event.preventDefault();
});

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
