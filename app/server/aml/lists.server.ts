// The sanctions lists in force (docs/product.md "Sanctions screening"): a list file loaded as a new
// version of its list (the same file twice is one version), audited, and every borrower screened
// again against the new versions by a job; the screening index built once per set of versions.
import { createHash } from "node:crypto";
import { and, desc, eq, inArray } from "drizzle-orm";
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
    const [row] = await tx
      .insert(sanctionsLists)
      .values({ source, fileName, fileSha256: sha, persons, personCount: persons.length, loadedBy: by?.staff.id ?? null, loadedAt: at })
      .onConflictDoNothing()
      .returning({ id: sanctionsLists.id });
    if (!row) {
      const [before] = await tx
        .select({ id: sanctionsLists.id })
        .from(sanctionsLists)
        .where(and(eq(sanctionsLists.source, source), eq(sanctionsLists.fileSha256, sha)));
      return { ok: false, reason: "loaded_already", listId: before?.id ?? 0 } as const;
    }
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
    // Every borrower screened again against the lists now in force (after this commits).
    if (services.jobs) await services.jobs.send("aml-rescreen", { after: null }, { db: tx });
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

let cached: { key: string; index: ScreeningIndex } | null = null;

/** The screening index of the lists in force, and their ids; built once per set of versions in each process. */
export async function indexInForce(services: Pick<AppServices, "db">) {
  const lists = await listsInForce(services);
  const listIds = lists.map((l) => l.id);
  const key = listIds.join(",");
  if (cached?.key !== key) {
    const rows = listIds.length
      ? await services.db
          .select({ id: sanctionsLists.id, persons: sanctionsLists.persons })
          .from(sanctionsLists)
          .where(inArray(sanctionsLists.id, listIds))
      : [];
    cached = { key, index: buildIndex(rows.flatMap((r) => r.persons)) };
  }
  return { listIds, index: cached.index, byRef: new Map(lists.map((l) => [l.source, l.id])) };
}
