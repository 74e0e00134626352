// React Router's Link, with the server's render of a link to a whole path ("/User/Loans",
// "/User/Loans/Emi/SL1#pay-title") written directly: the same <a> (its props, then href, target and
// data-discover, in React Router's order) without React Router's twenty-odd hook calls per link (the
// path resolved, a navigate function and a click handler made, prefetch state) that the server's
// render never uses. A signed-in page has about twenty links. In the browser, and for anything else
// (a relative path, a query, a mask, prefetching, another basename), React Router's own Link.
import { forwardRef, useContext } from "react";
import { type LinkProps, Link as RouterLink, UNSAFE_NavigationContext } from "react-router";

/** A whole path of plain segments, perhaps with a fragment: React Router resolves it to itself. */
const PLAIN_PATH = /^\/(?:[\w-]+\/)*[\w-]*(?:#[\w-]+)?$/;

/** Whether React Router's Link would write `to` as it is, with nothing else of `props` changing its markup. */
export function writtenAsIs(props: LinkProps): props is LinkProps & { to: string } {
  return (
    typeof props.to === "string" &&
    PLAIN_PATH.test(props.to) &&
    props.relative === undefined &&
    props.mask === undefined &&
    (props.prefetch === undefined || props.prefetch === "none")
  );
}

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(props, ref) {
  // Outside a router there is none: React Router's Link says what is wrong.
  const basename = useContext(UNSAFE_NavigationContext)?.basename;
  if (typeof document !== "undefined" || basename !== "/" || !writtenAsIs(props)) return <RouterLink {...props} ref={ref} />;
  const {
    onClick: _onClick,
    discover = "render",
    prefetch: _prefetch,
    relative: _relative,
    reloadDocument: _reloadDocument,
    replace: _replace,
    mask: _mask,
    state: _state,
    target,
    to,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    children,
    ...rest
  } = props;
  return (
    <a {...rest} href={to} ref={ref} target={target} data-discover={discover === "render" ? "true" : undefined}>
      {children}
    </a>
  );
});
