import { afterEach, beforeEach, expect, vi } from "vitest";

// Any console.error during a test fails it.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore?.();
  expect(errors, "console.error was called").toEqual([]);
});
