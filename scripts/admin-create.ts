// `npm run admin:create -- --email someone@lender.example [--role credit|operations|support|admin] [--name "Full Name"]`
// Creates a staff account (or re-issues its link) and prints a one-time enrolment link, valid 24 hours,
// where the person sets a password; the authenticator is set up at their first sign-in.
// With the embedded PGlite, stop the server first: one process per data directory.
import { parseArgs } from "node:util";

import { createStaffInvite } from "../app/server/auth/staff.server.ts";
import { isStaffRole, STAFF_ROLES } from "../app/domain/roles.ts";
import { migrate, openDatabase } from "../app/server/db/client.ts";
import { loadConfig } from "../server/config.ts";

const { values } = parseArgs({
  options: { email: { type: "string" }, role: { type: "string", default: "admin" }, name: { type: "string" } },
});
if (!values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email)) {
  console.error(
    'Usage: npm run admin:create -- --email someone@lender.example [--role credit|operations|support|admin] [--name "Full Name"]',
  );
  process.exit(64);
}
if (!isStaffRole(values.role)) {
  console.error(`--role must be one of: ${STAFF_ROLES.join(", ")}`);
  process.exit(64);
}
const config = loadConfig(process.env, (m) => console.warn(m));
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(database.db);
  const invite = await createStaffInvite(
    { db: database.db, now: () => new Date() },
    { email: values.email, role: values.role, name: values.name },
  );
  const origin = config.publicUrl ?? `http://localhost:${config.port}`;
  console.log(`${invite.created ? "Created" : "Re-issued a link for"} ${values.role} ${values.email.toLowerCase()}.`);
  console.log(`One-time enrolment link (24 hours): ${origin}/admin/enrol/${invite.token}`);
} finally {
  await database.close();
}
