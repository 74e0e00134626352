// The sanctions lists in force (docs/product.md "Sanctions screening"): a list file loaded as a new
// version of its list (the file in force already is refused as loaded; an earlier one loaded again
// becomes the newest), audited, and every borrower screened again against the new versions by a job;
// the screening index built once per set of versions in each process.
import { createHash } from "node:crypto";
import { desc, eq, inArray, sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import {
  buildIndex,
  LIST_SOURCES,
  type ListedPerson,
  type ListSource,
  parseNationalList,
  parseUnList,
  type ScreeningIndex,
} from "../../domain/aml/sanctions.ts";
import { audit } from "../audit.server.ts";
import { sanctionsLists } from "../db/schema.ts";

/** Without a job queue (the command line), the caller screens every borrower itself after loading. */
type Services = Pick<AppServices, "db" | "now"> & { jobs?: AppServices["jobs"] };

/** The lock a list load takes alone and each disbursal's screening shares: no load commits between a screening and its disbursal. */
export const LISTS_LOCK = 0x53414e43; // "SANC"

/** Reads a list file as its source's format; throws an Error naming what is wrong. */
export function readList(source: ListSource, text: string): ListedPerson[] {
  return source === "un_consolidated" ? parseUnList(text) : parseNationalList(text, source);
}

export type Loaded =
  | { ok: true; listId: number; persons: number }
  | { ok: false; reason: "unreadable"; message: string }
  | { ok: false; reason: "loaded_already"; listId: number };

/** Loads a list file as a new version of its list, and queues every borrower's screening against it. */
export async function loadList(
  services: Services,
  {
    source,
    fileName,
    text,
    by,
  }: { source: ListSource; fileName: string; text: string; by: { staff: { id: string; role: string }; client: Client } | null },
): Promise<Loaded> {
  let persons: ListedPerson[];
  try {
    persons = readList(source, text);
  } catch (error) {
    return { ok: false, reason: "unreadable", message: (error as Error).message };
  }
  if (persons.length === 0) return { ok: false, reason: "unreadable", message: "The file lists no one." };
  const sha = createHash("sha256").update(text).digest("hex");
  const at = services.now();
  return services.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LISTS_LOCK})`);
    const [current] = await tx
      .select({ id: sanctionsLists.id, sha: sanctionsLists.fileSha256 })
      .from(sanctionsLists)
      .where(eq(sanctionsLists.source, source))
      .orderBy(desc(sanctionsLists.id))
      .limit(1);
    if (current?.sha === sha) return { ok: false, reason: "loaded_already", listId: current.id } as const;
    const [row] = await tx
      .insert(sanctionsLists)
      .values({ source, fileName, fileSha256: sha, persons, personCount: persons.length, loadedBy: by?.staff.id ?? null, loadedAt: at })
      .returning({ id: sanctionsLists.id });
    if (!row) throw new Error("the list was not stored");
    await audit(
      { db: tx },
      {
        by: by?.staff ?? "system",
        client: by?.client ?? null,
        at,
        action: "aml.list_load",
        subject: { type: "sanctions_list", id: String(row.id) },
        details: { source, fileName, persons: persons.length },
      },
    );
    // Every borrower screened again against the lists now in force (after this commits); one full pass at a time.
    if (services.jobs) await services.jobs.send("aml-rescreen", { after: null }, { db: tx, singletonKey: "all" });
    return { ok: true, listId: row.id, persons: persons.length } as const;
  });
}

/** The latest version of each list, in source order (a list never loaded is missing). */
export async function listsInForce({ db }: Pick<AppServices, "db">) {
  const rows = await db
    .selectDistinctOn([sanctionsLists.source], {
      id: sanctionsLists.id,
      source: sanctionsLists.source,
      fileName: sanctionsLists.fileName,
      personCount: sanctionsLists.personCount,
      loadedAt: sanctionsLists.loadedAt,
    })
    .from(sanctionsLists)
    .orderBy(sanctionsLists.source, desc(sanctionsLists.id));
  return LIST_SOURCES.flatMap((s) => rows.filter((r) => r.source === s));
}

/** The ids of the lists in force, in source order. */
export const listIdsInForce = async (services: Pick<AppServices, "db">) => (await listsInForce(services)).map((l) => l.id);

let cached: { key: string; index: Promise<ScreeningIndex> } | null = null;

/** The screening index of the lists in force, their ids, and each source's version; built once per set of versions in each process. */
export async function indexInForce(services: Pick<AppServices, "db">) {
  const lists = await listsInForce(services);
  const listIds = lists.map((l) => l.id);
  const key = listIds.join(",");
  if (cached?.key !== key) {
    const building = (async () => {
      const rows = listIds.length
        ? await services.db.select({ persons: sanctionsLists.persons }).from(sanctionsLists).where(inArray(sanctionsLists.id, listIds))
        : [];
      return buildIndex(rows.flatMap((r) => r.persons));
    })();
    cached = { key, index: building };
    // A failed build is not kept: the next caller builds again.
    building.catch(() => {
      if (cached?.index === building) cached = null;
    });
  }
  return { listIds, index: await cached.index, listIdOf: new Map(lists.map((l) => [l.source, l.id])) };
}
