// React Router's NavLink for the links of our menus, which always name a whole path ("/User/Loans"):
// the same element (its Link, aria-current, the "active" and "pending" classes or the className
// function's), without resolving the path twice more per render as React Router's does (its
// view-transition check resolves the resolved path again, building three error messages on the
// way). A signed-in page has a dozen of these.
import { forwardRef } from "react";
import { type LinkProps, NavLink as RouterNavLink, useLocation, useNavigation } from "react-router";
import { Link } from "../lib/link.tsx";

interface NavLinkState {
  isActive: boolean;
  isPending: boolean;
  isTransitioning: boolean;
}

export interface NavLinkProps extends Omit<LinkProps, "className" | "to" | "viewTransition"> {
  /** A path ("/User/Loans"; anything else, a relative one or with a query, goes to React Router's NavLink). */
  to: string;
  end?: boolean;
  className?: string | ((state: NavLinkState) => string | undefined);
  "aria-current"?: "page" | "step" | "location" | "date" | "time" | "true" | "false";
}

/** Whether `pathname` is `to`'s page or (unless `end`) one below it, as React Router's NavLink says it, letter case ignored. */
function isAt(pathname: string | null | undefined, to: string, end: boolean): boolean {
  if (pathname == null) return false;
  const here = pathname.toLowerCase();
  const target = to.toLowerCase();
  const endSlash = target !== "/" && target.endsWith("/") ? target.length - 1 : target.length;
  return here === target || (!end && here.startsWith(target) && here.charAt(endSlash) === "/");
}

const isWholePath = (to: string) => to.startsWith("/") && !/[?#]|\/\.\.?(?:\/|$)/.test(to);

export const NavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink(props, ref) {
  return isWholePath(props.to) ? <PathNavLink {...props} ref={ref} /> : <RouterNavLink {...props} ref={ref} />;
});

const PathNavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function PathNavLink(
  { "aria-current": ariaCurrent = "page", className = "", end = false, to, children, ...rest },
  ref,
) {
  const location = useLocation();
  const navigation = useNavigation();
  const isActive = isAt(location.pathname, to, end);
  const isPending = isAt(navigation.location?.pathname, to, end);
  const classes =
    typeof className === "function"
      ? className({ isActive, isPending, isTransitioning: false })
      : [className, isActive ? "active" : null, isPending ? "pending" : null].filter(Boolean).join(" ");
  return (
    <Link {...rest} aria-current={isActive ? ariaCurrent : undefined} className={classes} ref={ref} to={to}>
      {children}
    </Link>
  );
});
