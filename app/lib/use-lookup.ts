import { useEffect, useState } from "react";
import { http } from "./http.ts";

/**
 * Looks a value up on the server while the user types (PIN code → place, IFSC → bank),
 * once it has the right shape. Returns the answer, or null.
 */
export function useLookup<T>(value: string, shape: RegExp, url: (value: string) => string): T | null | "unknown" {
  const [result, setResult] = useState<T | null | "unknown">(null);
  const ready = shape.test(value);
  useEffect(() => {
    if (!ready) return;
    let cancelled = false;
    http<T>(url(value)).then(
      (answer) => !cancelled && setResult(answer),
      () => !cancelled && setResult("unknown"),
    );
    return () => {
      cancelled = true;
    };
  }, [ready, value, url]);
  return ready ? result : null;
}
