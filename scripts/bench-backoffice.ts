// Back office at volume for `npm run bench`: 50,000 borrowers with 100,000 applications (every
// status, spread over a year) in a schema of their own on PostgreSQL; then the queue (default view,
// a search by mobile, by name), borrower search (name, PAN's last 4, loan number) and a borrower
// page, each asked 300 times by one staff member (BENCH_BACKOFFICE_CLIENTS for more at once).
// Target: p95 under 100 ms.
import { sql } from "drizzle-orm";

const BORROWERS = Number(process.env.BENCH_BORROWERS ?? 50_000);
const APPLICATIONS = Number(process.env.BENCH_APPLICATIONS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_BACKOFFICE_REQUESTS ?? 300);
const CLIENTS = Number(process.env.BENCH_BACKOFFICE_CLIENTS ?? 1);
process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { startTestServer } = await import("../tests/helpers/server.ts");
const { signedInStaff } = await import("../tests/helpers/applications.ts");

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export interface BackOfficeFigures {
  borrowers: number;
  applications: number;
  seedSeconds: number;
  pages: Record<string, { p50: number; p95: number; max: number; errors: number }>;
}

export async function backOfficeBench(): Promise<BackOfficeFigures> {
  const app = await startTestServer({ LOG_LEVEL: "silent" });
  try {
    const db = app.services.db;
    const seeded = performance.now();
    // Borrowers: mobiles 7000000000 + n; names from a small list with a serial; PAN ABCP + letter + 4 digits + letter.
    await db.execute(sql`
      insert into users (mobile, mobile_verified_at, role, created_at)
      select (7000000000 + n)::text, now(), 'borrower', now() - (n % 365) * interval '1 day'
      from generate_series(1, ${BORROWERS}) n`);
    await db.execute(sql`
      insert into borrower_profiles (user_id, full_name, date_of_birth, pan_enc, pan_hmac, pan_masked)
      select u.id,
        (array['Asha','Ravi','Neha','Kavya','Rohan','Imran','Meera','Arjun','Sana','Vikram'])[1 + (u.mobile::bigint % 10)] || ' ' ||
        (array['Gupta','Rao','Menon','Verma','Shaikh','Iyer','Das','Nair','Khan','Patel'])[1 + ((u.mobile::bigint / 10) % 10)] || ' ' || (u.mobile::bigint % 100000),
        '1990-01-01', 'sealed', md5(u.mobile), 'XXXXXX' || lpad(((u.mobile::bigint % 9000) + 1000)::text, 3, '0') || 'K'
      from users u where u.role = 'borrower' and u.mobile like '7%'`);
    const statuses = ["draft", "signed", "under_review", "approved", "active", "closed", "rejected", "cancelled"];
    await db.execute(sql`
      insert into loan_applications (reference, user_id, product, status, amount_paise, tenure_months, created_at, signed_at, decided_at, loan_number)
      select substr(md5(random()::text || n::text), 1, 26), u.id,
        case when n % 3 = 0 then 'salary_advance' else 'emi' end,
        s.status,
        (50000 + (n % 200) * 1000) * 100,
        case when n % 3 = 0 then null else 12 end,
        now() - (n % 365) * interval '1 day',
        case when s.status <> 'draft' then now() - (n % 365) * interval '1 day' + interval '1 hour' end,
        case when s.status in ('approved','active','closed','rejected') then now() - (n % 365) * interval '1 day' + interval '5 hours' end,
        case when s.status in ('active','closed') then 'SL' || lpad(n::text, 8, '0') end
      from generate_series(1, ${APPLICATIONS}) n
      join lateral (select (${sql.raw(`array[${statuses.map((s) => `'${s}'`).join(",")}]`)})[
        -- One application in progress per borrower and product: after the first round, only finished ones.
        case when n <= ${BORROWERS} then 1 + (n % 8) else 5 + (n % 4) end] as status) s on true
      join lateral (select id from users where mobile = (7000000000 + 1 + (n % ${BORROWERS}))::text) u on true`);
    await db.execute(sql`analyze`);
    const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const [{ n: applications } = { n: 0 }] = await rows<{ n: number }>(sql`select count(*)::int as n from loan_applications`);
    const seedSeconds = (performance.now() - seeded) / 1000;

    const staff = await signedInStaff(app, "credit", "Bench Officer");
    const [borrower] = await rows<{ id: string }>(sql`select id from users where mobile = '7000012345'`);
    const pages: Record<string, string> = {
      "queue, to review": "/admin/applications",
      "queue, approved, page 40": "/admin/applications?view=approved&page=40",
      "queue, search by mobile": "/admin/applications?view=rejected&q=7000012345",
      "queue, search by name": "/admin/applications?q=Kavya%20Menon",
      "borrower search, name": "/admin/borrowers?q=Meera",
      "borrower search, PAN last 4": "/admin/borrowers?q=345K",
      "borrower search, loan number": "/admin/borrowers?q=SL00012344",
      "borrower page": `/admin/borrowers/${borrower?.id}`,
    };
    const figures: BackOfficeFigures["pages"] = {};
    for (const [label, path] of Object.entries(pages)) {
      for (let i = 0; i < 10; i++) await app.get(path, { headers: { Cookie: staff.cookie } }); // warm
      const times: number[] = [];
      let errors = 0;
      let next = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next++ < REQUESTS) {
            const t = performance.now();
            const res = await app.get(path, { headers: { Cookie: staff.cookie } });
            await res.arrayBuffer();
            times.push(performance.now() - t);
            if (res.status !== 200) errors++;
          }
        }),
      );
      times.sort((a, b) => a - b);
      figures[label] = { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1) ?? 0, errors };
    }
    return { borrowers: BORROWERS, applications, seedSeconds, pages: figures };
  } finally {
    await app.stop();
  }
}

export function reportBackOffice(f: BackOfficeFigures) {
  console.log(
    `\nBack office on PostgreSQL: ${f.borrowers} borrowers, ${f.applications} applications (seeded in ${f.seedSeconds.toFixed(1)} s); ${REQUESTS} requests each, ${CLIENTS} at once`,
  );
  console.table(
    Object.fromEntries(
      Object.entries(f.pages).map(([k, v]) => [
        k,
        { "p50 ms": v.p50.toFixed(1), "p95 ms": v.p95.toFixed(1), "max ms": v.max.toFixed(1), errors: v.errors },
      ]),
    ),
  );
  const slow = Object.entries(f.pages).filter(([, v]) => v.p95 >= 100 || v.errors);
  console.log(slow.length ? `OVER TARGET (p95 ≥ 100 ms or errors): ${slow.map(([k]) => k).join(", ")}` : "every page p95 under 100 ms");
}

if (import.meta.url === `file://${process.argv[1]}`) reportBackOffice(await backOfficeBench());
