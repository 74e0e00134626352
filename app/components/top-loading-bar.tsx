import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";
import { createLoadingIndicator, LOADING_BAR, type LoadingState } from "../lib/loading-indicator.ts";

/** A thin bar at the top of the page while a navigation or form submission is under way. */
export function TopLoadingBar() {
  const navigation = useNavigation();
  const [state, setState] = useState<LoadingState>({ visible: false, progress: 0, error: false });
  const indicator = useRef<ReturnType<typeof createLoadingIndicator> | null>(null);

  useEffect(() => {
    indicator.current = createLoadingIndicator(setState);
    return () => indicator.current?.dispose();
  }, []);

  const busy = navigation.state !== "idle";
  useEffect(() => {
    if (busy) indicator.current?.start();
    else indicator.current?.finish();
  }, [busy]);

  return (
    <div
      aria-hidden="true"
      data-testid="loading-bar"
      className="pointer-events-none fixed top-0 left-0 z-[60] transition-[width,opacity] duration-200 ease-out"
      style={{
        height: LOADING_BAR.heightPx,
        width: `${state.progress}%`,
        opacity: state.visible ? 1 : 0,
        background: state.error ? "#b42318" : "linear-gradient(to right, #1d5fd1, #0a7a4f)",
      }}
    />
  );
}
