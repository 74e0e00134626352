import type { MetaDescriptor } from "react-router";

interface MatchLike {
  id: string;
  loaderData?: unknown;
}

/** The brand name from the root loader's data, for `meta` functions. */
export function brandFromMatches(matches: ReadonlyArray<MatchLike | undefined>): string {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { publicConfig?: { brandName?: string } } | undefined;
  return root?.publicConfig?.brandName ?? "";
}

/** Title "Page | Brand" and a description. */
export function pageMeta(matches: ReadonlyArray<MatchLike | undefined>, title: string, description?: string): MetaDescriptor[] {
  const brand = brandFromMatches(matches);
  return [{ title: brand ? `${title} | ${brand}` : title }, ...(description ? [{ name: "description", content: description }] : [])];
}
