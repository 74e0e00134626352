/** `work` on each of `items`, at most `at` at once (the night's pages on PostgreSQL: NIGHT_RUN_CONCURRENCY). */
export async function inTurns<T>(items: readonly T[], at: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(at, items.length)) }, worker));
}
