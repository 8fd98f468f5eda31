// Concurrent writers through MemoryStore, runtime-agnostic like
// ../host-contract.mjs: workerd (Durable Object), Deno (Deno KV) and Chromium
// (localStorage) run the same writer and the same verdict. Each writer appends
// its own entries, one save at a time; a save that comes back `conflict` is
// retried after reading the memory again. Nothing acknowledged may be lost.

/** The entry line writer `w` appends on its `i`th save. */
export function entryLine(w, i) {
  return `- 2025-01-01: writer ${w} save ${i}`;
}

// Large enough for 8 × 200 entries: the test is about lost updates, not size.
export const storeOptions = { limits: { soft: 150_000, hard: 200_000 } };

/**
 * One writer's saves `from` .. `from + count - 1`, each appending one entry
 * and retried on conflict (a writer may run in several parts, one a request).
 * @param {{ load: Function, save: Function }} store a MemoryStore
 * @param {{ scope: "user" | "team", id: string }} ref
 * @returns {Promise<{ acknowledged: { line: string, revision: number }[], conflicts: number }>}
 */
export async function writer(store, ref, w, from, count) {
  const acknowledged = [];
  let conflicts = 0;
  for (let i = from; i < from + count; i += 1) {
    const line = entryLine(w, i);
    for (;;) {
      const { content, revision } = await store.load(ref);
      const updated = revision === 0 ? `## Log\n${line}` : `${content}\n${line}`;
      const outcome = await store.save(ref, updated, { baseRevision: revision, actor: `writer-${w}` });
      if (outcome.status === "saved") {
        acknowledged.push({ line, revision: outcome.revision });
        break;
      }
      if (outcome.status !== "conflict") {
        throw new Error(`writer ${w} save ${i}: unexpected ${outcome.status} ${JSON.stringify(outcome.diagnostics)}`);
      }
      conflicts += 1;
    }
  }
  return { acknowledged, conflicts };
}

/**
 * The verdict over the stored memory: every acknowledged entry is there once,
 * nothing else is, the revisions acknowledged are exactly 1..n, and revision
 * k's entry is the k-th entry.
 * @param {{ content: string, revision: number }} final what `load` returns now
 * @param {{ line: string, revision: number }[]} acknowledged every writer's
 * @returns {string[]} failures
 */
export function verdict(final, acknowledged) {
  const f = [];
  const stored = final.content.split("\n").filter((l) => l.startsWith("- "));
  const counts = new Map();
  for (const l of stored) counts.set(l, (counts.get(l) ?? 0) + 1);
  const missing = acknowledged.filter((a) => !counts.has(a.line));
  if (missing.length) f.push(`${missing.length} acknowledged entries are missing, e.g. ${missing.slice(0, 3).map((a) => a.line)}`);
  const doubled = [...counts].filter(([, n]) => n > 1);
  if (doubled.length) f.push(`${doubled.length} entries are stored more than once`);
  if (stored.length !== acknowledged.length) f.push(`${stored.length} entries stored, ${acknowledged.length} acknowledged`);
  if (final.revision !== acknowledged.length) f.push(`final revision ${final.revision}, ${acknowledged.length} acknowledged saves`);
  const revisions = acknowledged.map((a) => a.revision).sort((a, b) => a - b);
  if (revisions.some((r, i) => r !== i + 1)) f.push("the acknowledged revisions should be exactly 1..n, each once");
  // Each save appends one line to what it read, so revision k's entry is the
  // k-th entry of the document.
  const byRevision = [...acknowledged].sort((a, b) => a.revision - b.revision).map((a) => a.line);
  if (f.length === 0 && byRevision.some((l, i) => stored[i] !== l)) f.push("the entries should be stored in the order of their revisions");
  return f;
}
