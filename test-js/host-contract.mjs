// The KvHost contract (docs/API.md), checked against any host in any runtime:
// Node, workerd, Deno and Chromium import this same module. It returns the
// list of failed checks, so each runtime's harness only has to report them.

function check(failures, ok, what) {
  if (!ok) failures.push(what);
}

/**
 * @param {() => KvHost} makeHost a fresh, empty host
 * @param {{ cas?: boolean, delete?: boolean }} [options] cas: false for
 *   best-effort hosts (Workers KV), whose concurrent writes are not checked;
 *   delete: false for a host without the optional `delete` (then it must not
 *   have one)
 * @returns {Promise<string[]>} failed checks (empty when the host conforms)
 */
export async function checkHost(makeHost, options = {}) {
  const cas = options.cas !== false;
  const deletes = options.delete !== false;
  const f = [];
  const host = makeHost();
  const key = "memdoc/team/contract";

  check(f, (await host.get(key)) === null, "get of an absent key should be null");
  check(f, (await host.put(key, "x", { expectedVersion: "1" })).ok === false, "put expecting a version of an absent key should fail");
  check(f, (await host.get(key)) === null, "a failed put should write nothing");

  const first = await host.put(key, "one", { expectedVersion: null });
  check(f, first.ok === true && typeof first.version === "string", "put of an absent key with expectedVersion null should succeed with a version");
  const got = await host.get(key);
  check(f, got && got.value === "one" && got.version === first.version, "get should return the value and version just written");

  check(f, (await host.put(key, "again", { expectedVersion: null })).ok === false, "put expecting absence of a present key should fail");
  check(f, (await host.put(key, "stale", { expectedVersion: "not-the-version" })).ok === false, "put with a stale version should fail");
  check(f, (await host.get(key))?.value === "one", "failed puts should leave the value alone");

  const second = await host.put(key, "two", { expectedVersion: first.version });
  check(f, second.ok === true && second.version !== first.version, "put with the current version should succeed with a new version");
  check(f, (await host.put(key, "late", { expectedVersion: first.version })).ok === false, "the replaced version should no longer be accepted");

  // A 25,000-character memory in CJK and emoji is 75-100 KB of UTF-8: more
  // than one Deno KV value can hold.
  const big = "## 記憶\n" + "- 2025-01-01: " + "記😀".repeat(12_000);
  const bigPut = await host.put(key, big, { expectedVersion: second.version });
  check(f, bigPut.ok === true, "a 100 KB value should be stored");
  check(f, (await host.get(key))?.value === big, "a 100 KB value should read back exactly");
  const small = await host.put(key, "small again", { expectedVersion: bigPut.version });
  check(f, small.ok === true && (await host.get(key))?.value === "small again", "a value should shrink back after a large one");

  check(f, (await host.get("memdoc/team/other")) === null, "keys should be independent");

  if (cas) {
    const base = (await host.get(key)).version;
    const racers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => host.put(key, `racer ${i}`, { expectedVersion: base })),
    );
    const winners = racers.filter((r) => r.ok);
    check(f, winners.length === 1, `exactly one of 8 racing puts should win, ${winners.length} did`);
    const after = await host.get(key);
    check(f, winners.length === 1 && after.version === winners[0].version, "the winner's version should be current");
  }
  if (deletes) {
    check(f, typeof host.delete === "function", "the host should have a delete method");
    if (typeof host.delete === "function") await checkDelete(f, host, key);
  } else {
    check(f, host.delete === undefined, "a host without delete should not have a delete property");
  }
  return f;
}

async function checkDelete(f, host, key) {
  const before = await host.get(key);
  const other = "memdoc/team/contract-neighbour";
  const neighbour = await host.put(other, "neighbour", { expectedVersion: null });
  check(f, before !== null && neighbour.ok === true, "delete checks need two present keys");

  check(f, (await host.delete(key)) === undefined, "delete of a present key should resolve to undefined");
  check(f, (await host.get(key)) === null, "a deleted key should read null");
  check(f, (await host.get(other))?.value === "neighbour", "delete should remove only its key");
  check(f, (await host.put(key, "stale", { expectedVersion: before?.version ?? "x" })).ok === false, "put expecting the deleted version should fail");
  check(f, (await host.get(key)) === null, "that failed put should write nothing");

  let absent = "resolved";
  try {
    await host.delete("memdoc/team/never-written");
    await host.delete(key);
  } catch (error) {
    absent = String(error);
  }
  check(f, absent === "resolved", `delete of an absent key should resolve, not fail (${absent})`);

  const reborn = await host.put(key, "reborn", { expectedVersion: null });
  check(f, reborn.ok === true && typeof reborn.version === "string", "put with expectedVersion null should succeed after a delete");
  check(f, reborn.version !== before?.version, "a version should not repeat after a delete");
  check(f, (await host.get(key))?.value === "reborn", "the key should read its new value after a delete");

  // A large (chunked, in Deno KV) value leaves nothing behind when deleted.
  const big = "## 記憶\n" + "- 2025-01-01: " + "記😀".repeat(12_000);
  const bigPut = await host.put(key, big, { expectedVersion: reborn.version });
  await host.delete(key);
  check(f, bigPut.ok === true && (await host.get(key)) === null, "a deleted 100 KB value should read null");
  const small = await host.put(key, "small", { expectedVersion: null });
  check(f, small.ok === true && (await host.get(key))?.value === "small", "a small value should be stored after a large one was deleted");
  await host.delete(other);
}
