import { generateTOTP } from "@epic-web/totp";
import { eq } from "drizzle-orm";
import type { StaffRole } from "../../app/domain/roles.ts";
import { createStaffInvite, hashPassword, sealTotpSecret } from "../../app/server/auth/staff.server.ts";
import { users } from "../../app/server/db/schema.ts";
import type { TestServer } from "./server.ts";

const PERIOD = 30;
const stepNow = () => Math.floor(Date.now() / 1000 / PERIOD);

/**
 * The current authenticator code for `secret` and its time step. The server
 * accepts a time step once per account: pass the step of the code used last
 * and this waits (up to 30 s) for the next one.
 */
export async function authenticatorCode(secret: string, after = -1): Promise<{ otp: string; step: number }> {
  while (stepNow() <= after) await new Promise((r) => setTimeout(r, 250));
  // Not in the last half second of a step: the code must still be current when it arrives.
  if (Date.now() % (PERIOD * 1000) > PERIOD * 1000 - 500) await new Promise((r) => setTimeout(r, 600));
  const step = stepNow();
  const { otp } = await generateTOTP({ secret, period: PERIOD, digits: 6, algorithm: "SHA-1" });
  return { otp, step };
}

/** A staff account with `password` and an enrolled authenticator, as after its first sign-in: its id and the authenticator's secret. */
export async function enrolledStaff(app: TestServer, { email, role, password }: { email: string; role: StaffRole; password: string }) {
  const { userId } = await createStaffInvite(app.services, { email, role });
  const { secret } = await generateTOTP({ period: PERIOD, digits: 6, algorithm: "SHA-1" });
  await app.services.db
    .update(users)
    .set({ passwordHash: await hashPassword(password), totpSecretEnc: sealTotpSecret(app.services, secret), totpEnrolledAt: new Date() })
    .where(eq(users.id, userId));
  return { userId, secret };
}
