import { createUserSession } from "../../app/server/auth/session.server.ts";
import { users } from "../../app/server/db/schema.ts";
import type { TestServer } from "./server.ts";

/** A borrower with a verified mobile and a live session; returns the Cookie header value and the user id. */
export async function signedInBorrower(app: TestServer, mobile: string) {
  const [user] = await app.services.db
    .insert(users)
    .values({ mobile, mobileVerifiedAt: new Date(), role: "borrower" })
    .returning({ id: users.id });
  if (!user) throw new Error("could not create the borrower");
  const { setCookie } = await createUserSession(app.services, {
    userId: user.id,
    deviceId: `test-${mobile}`,
    ip: "127.0.0.1",
    userAgent: "test",
  });
  return { cookie: setCookie.split(";")[0] ?? "", userId: user.id };
}

/** A new session for a borrower (after a test clock moved past the old one's life); returns the Cookie header value. */
export async function borrowerSessionAgain(app: TestServer, userId: string) {
  const { setCookie } = await createUserSession(app.services, {
    userId,
    deviceId: `again-${userId}-${app.services.now().getTime()}`,
    ip: "127.0.0.1",
    userAgent: "test",
  });
  return setCookie.split(";")[0] ?? "";
}
