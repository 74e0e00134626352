/** Timings of the top loading bar (original spec §9). */
export const LOADING_BAR = {
  throttleMs: 200,
  durationMs: 2000,
  hideDelayMs: 500,
  resetDelayMs: 400,
  heightPx: 3,
} as const;

export interface LoadingState {
  visible: boolean;
  /** 0–100 */
  progress: number;
  error: boolean;
}

type Timer = ReturnType<typeof setTimeout>;

/**
 * The bar's state machine: `start()` shows it only if loading lasts longer
 * than the throttle, then creeps towards 100% over `duration`; `finish()`
 * fills it, hides it after the hide delay and resets it after the reset delay.
 */
export function createLoadingIndicator(onChange: (state: LoadingState) => void, timings = LOADING_BAR) {
  let state: LoadingState = { visible: false, progress: 0, error: false };
  let throttle: Timer | undefined;
  let tick: ReturnType<typeof setInterval> | undefined;
  let hide: Timer | undefined;
  let reset: Timer | undefined;
  const set = (next: Partial<LoadingState>) => {
    state = { ...state, ...next };
    onChange(state);
  };
  const clearAll = () => {
    clearTimeout(throttle);
    clearInterval(tick);
    clearTimeout(hide);
    clearTimeout(reset);
    throttle = tick = hide = reset = undefined;
  };
  const step = 100;
  return {
    start() {
      clearAll();
      set({ progress: 0, error: false });
      throttle = setTimeout(() => {
        set({ visible: true, progress: 0 });
        // Reaches ~100% after `duration`, but never completes on its own.
        tick = setInterval(() => {
          set({ progress: Math.min(95, state.progress + (100 * step) / timings.durationMs) });
        }, step);
      }, timings.throttleMs);
    },
    finish(error = false) {
      const wasVisible = state.visible;
      clearAll();
      if (!wasVisible) {
        set({ progress: 0, visible: false, error: false });
        return;
      }
      set({ progress: 100, error });
      hide = setTimeout(() => {
        set({ visible: false });
        reset = setTimeout(() => set({ progress: 0, error: false }), timings.resetDelayMs);
      }, timings.hideDelayMs);
    },
    dispose: clearAll,
    get state() {
      return state;
    },
  };
}
