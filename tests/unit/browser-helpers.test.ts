import { afterEach, describe, expect, it, vi } from "vitest";
import { isChunkLoadError, shouldReloadForChunkError } from "../../app/lib/chunk-reload.ts";
import { createLoadingIndicator, type LoadingState } from "../../app/lib/loading-indicator.ts";
import { normalizeIndianMobile } from "../../app/domain/validators/mobile.ts";

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

describe("chunk-load reload guard", () => {
  it("recognises failed chunk loads", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /assets/x.js"))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
  });

  it("reloads at most once per 10 s for the same path", () => {
    const storage = memoryStorage();
    expect(shouldReloadForChunkError("/About", 1_000, storage)).toBe(true);
    expect(shouldReloadForChunkError("/About", 9_000, storage)).toBe(false);
    expect(shouldReloadForChunkError("/Contact-us", 9_000, storage)).toBe(true);
    expect(shouldReloadForChunkError("/About", 11_001, storage)).toBe(true);
  });
});

describe("top loading bar", () => {
  afterEach(() => vi.useRealTimers());

  it("shows only after the 200 ms throttle, fills, hides after 500 ms and resets after 400 ms", () => {
    vi.useFakeTimers();
    const states: LoadingState[] = [];
    const bar = createLoadingIndicator((s) => states.push(s));
    bar.start();
    vi.advanceTimersByTime(199);
    expect(bar.state.visible).toBe(false);
    vi.advanceTimersByTime(1);
    expect(bar.state.visible).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(bar.state.progress).toBeGreaterThan(40);
    expect(bar.state.progress).toBeLessThan(60);
    vi.advanceTimersByTime(5000);
    expect(bar.state.progress).toBe(95);
    bar.finish();
    expect(bar.state.progress).toBe(100);
    vi.advanceTimersByTime(499);
    expect(bar.state.visible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(bar.state.visible).toBe(false);
    expect(bar.state.progress).toBe(100);
    vi.advanceTimersByTime(400);
    expect(bar.state.progress).toBe(0);
  });

  it("never appears for a navigation shorter than the throttle", () => {
    vi.useFakeTimers();
    const bar = createLoadingIndicator(() => {});
    bar.start();
    vi.advanceTimersByTime(150);
    bar.finish();
    vi.advanceTimersByTime(5000);
    expect(bar.state.visible).toBe(false);
    expect(bar.state.progress).toBe(0);
  });
});

describe("Indian mobile numbers", () => {
  it.each([
    ["9876543210", "9876543210"],
    ["+91 98765 43210", "9876543210"],
    ["09876543210", "9876543210"],
    ["91-9876543210", "9876543210"],
    ["6000000000", "6000000000"],
  ])("accepts %s", (input, expected) => expect(normalizeIndianMobile(input)).toBe(expected));

  it.each(["5876543210", "987654321", "98765432100", "+1 9876543210", "abcdefghij", ""])("refuses %s", (input) =>
    expect(normalizeIndianMobile(input)).toBeNull(),
  );
});
