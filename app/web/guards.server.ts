// The guards of the signed-in areas and what they share with the routes:
// route middleware that redirects to sign-in or answers 403, the signed-in
// person for the routes below, and which page a request is for.
import { createContext, data, redirect, type RouterContextProvider } from "react-router";
import { servicesContext } from "../context.ts";
import { can, isStaffRole, type Permission, ROLE_LABEL } from "../domain/roles.ts";
import { readSession, type SignedIn } from "../server/auth/session.server.ts";
import { STAFF_NOT_BORROWER } from "../server/auth/sign-in.server.ts";

/** Set by the /User and /admin middleware for the routes below them. */
export const signedInContext = createContext<SignedIn>();

const REDIRECT_BASE = "http://redirect.invalid";

/**
 * Only a path of this site may be redirected to after sign-in. The value is
 * judged after the URL parser's own normalisation (which drops tabs and line
 * breaks and turns "\\" into "/", so "/\t/evil.example" is "//evil.example"),
 * and what is returned is the parser's serialisation: safe in a Location header.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/User/Dashboard") {
  if (typeof to !== "string" || !to.startsWith("/") || to.length > 2000) return fallback;
  let url: URL;
  try {
    url = new URL(to, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE || url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}

type MiddlewareArgs = { request: Request; context: Readonly<RouterContextProvider> };

/** The page a request is for: client navigations fetch "<path>.data" (and "/_root.data" for "/"). */
export function pageOf(request: Request): { path: string; search: string } {
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  return { path: url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/"), search: url.search };
}

/**
 * Shared shape of the area guards: without a live session, off to `signInPath`
 * (which brings the visitor back); `allow` may throw a redirect or a 403; the
 * session is then available to the routes below, and a renewed cookie is sent.
 */
async function guardArea(
  { request, context }: MiddlewareArgs,
  next: () => Promise<Response>,
  signInPath: string,
  allow: (signedIn: SignedIn, page: { path: string; search: string }) => void,
) {
  const signedIn = await readSession(context.get(servicesContext), request);
  const page = pageOf(request);
  if (!signedIn) throw redirect(`${signInPath}?redirectTo=${encodeURIComponent(page.path + page.search)}`);
  allow(signedIn, page);
  (context as RouterContextProvider).set(signedInContext, signedIn);
  const response = await next();
  if (signedIn.setCookie) response.headers.append("Set-Cookie", signedIn.setCookie);
  return response;
}

/** Middleware of the borrower area: sign-in first, and a verified mobile number beyond the dashboard. */
export function requireBorrowerMiddleware(args: MiddlewareArgs, next: () => Promise<Response>) {
  return guardArea(args, next, "/quickStart/Otp", (signedIn, page) => {
    if (signedIn.user.role !== "borrower") throw data({ message: STAFF_NOT_BORROWER }, { status: 403 });
    if (!signedIn.user.mobileVerifiedAt && page.path.toLowerCase() !== "/user/dashboard") {
      // A Facebook account verifies a mobile number before it can go further than the dashboard.
      throw redirect("/User/Dashboard");
    }
  });
}

/** Middleware of the back office: staff only; a borrower gets 403. Each route then names its permission. */
export function requireStaffMiddleware(args: MiddlewareArgs, next: () => Promise<Response>) {
  return guardArea(args, next, "/admin/login", (signedIn) => {
    if (!isStaffRole(signedIn.user.role)) throw data({ message: "This area is for the lender's staff." }, { status: 403 });
  });
}

/** The 403 answer for a staff member whose role does not hold `permission`. */
function refused(signedIn: SignedIn, permission: Permission) {
  const role = signedIn.user.role;
  const label = isStaffRole(role) ? ROLE_LABEL[role] : "borrower";
  return data({ message: `This is not open to your role (${label}).`, permission }, { status: 403 });
}

/** Throws 403 unless the signed-in staff member's role holds `permission` (docs/product.md "Staff roles"). */
export function assertCan(context: Readonly<RouterContextProvider>, permission: Permission): SignedIn {
  const signedIn = context.get(signedInContext);
  if (!can(signedIn.user.role, permission)) throw refused(signedIn, permission);
  return signedIn;
}

/**
 * Route middleware of one staff page (below the back office's layout): its
 * loader and actions need `permission`; an action that changes more asks for
 * its own with `assertCan`. Carries `permission` so a test can find it on every staff route.
 */
export function requirePermission(permission: Permission) {
  const guard = ({ context }: MiddlewareArgs, next: () => Promise<Response>) => {
    assertCan(context, permission);
    return next();
  };
  return Object.assign(guard, { permission });
}
