// A lucide icon drawn with fixed props (the account menu's, the notices bell), whose <svg> element the
// server makes once per process. lucide (1.75) builds an icon's attributes anew on every render (its
// defaults copied through Object.entries, class names split and merged through a Set, three object
// spreads): five icons were 1.5% of a signed-in page's CPU. The <svg> it makes for the same props
// is always the same element, so the server keeps the first one (React elements are immutable) and
// renders it again. In the browser, lucide's component as usual.
import { createElement, type ReactElement } from "react";
import type { LucideIcon } from "lucide-react";

export interface StaticIconProps {
  icon: LucideIcon;
  className?: string;
  "aria-hidden"?: "true";
}

type ForwardRefRender = (props: object, ref: null) => ReactElement;

/**
 * The host element (`<svg>`) `element` renders to: lucide's icons are forwardRef components down to
 * it, each render function called as React calls it (no ref). Called while rendering, so lucide's
 * one hook (its context, of which the app has no provider) reads React's context as it would.
 */
function hostElement(element: ReactElement): ReactElement {
  let current = element;
  for (let depth = 0; typeof current.type !== "string"; depth++) {
    const render = (current.type as { render?: ForwardRefRender } | null)?.render;
    if (typeof render !== "function" || depth > 4) throw new Error("StaticIcon: not a lucide icon");
    current = render(current.props as object, null);
  }
  return current;
}

const made = new WeakMap<LucideIcon, Map<string, ReactElement>>();

export function StaticIcon({ icon, ...props }: StaticIconProps) {
  if (typeof document !== "undefined") return createElement(icon, props);
  let byProps = made.get(icon);
  if (!byProps) {
    byProps = new Map();
    made.set(icon, byProps);
  }
  const key = `${props.className ?? ""}\u0000${props["aria-hidden"] ?? ""}`;
  let svg = byProps.get(key);
  if (!svg) {
    svg = hostElement(createElement(icon, props));
    byProps.set(key, svg);
  }
  return svg;
}
