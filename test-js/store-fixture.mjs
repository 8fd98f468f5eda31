// What the store's tests share: two memories, three versions of a text, a
// ticking clock, a host that counts its calls, a store over them, and the
// check of a coded rejection.
import assert from "node:assert/strict";

import { MemoryStore, errorCodes } from "memdoc";
import { memoryHost } from "memdoc/adapters/memory";
import { rejection } from "./helpers.mjs";

export const alice = { scope: "user", id: "alice" };
export const team = { scope: "team", id: "acme" };
export const V1 = "## Facts\n- 2025-03-15: Lives in Seattle";
export const V2 = `${V1}\n- 2025-03-16: Works on the search team`;
export const V3 = `${V2}\n\n## Preferences\n- 2025-03-17: Likes dark mode`;

/** A clock that ticks one second per reading. */
export function clock(start = Date.UTC(2025, 5, 1)) {
  let t = start;
  return () => {
    const at = new Date(t).toISOString();
    t += 1000;
    return at;
  };
}

/** `host` with every call counted (and listed) in `calls`. */
export function counted(host) {
  const calls = [];
  return {
    calls,
    get(key) {
      calls.push(["get", key]);
      return host.get(key);
    },
    put(key, value, condition) {
      calls.push(["put", key]);
      return host.put(key, value, condition);
    },
  };
}

export function store(host = memoryHost(), options = {}) {
  return new MemoryStore(host, { now: clock(), ...options });
}


export async function assertRejects(promise, code, what) {
  const error = await rejection(promise);
  assert.ok(error instanceof Error, `${what}: should reject with an Error, got ${error}`);
  assert.equal(error.code, code, `${what}: ${error.message}`);
  assert.ok(errorCodes().includes(error.code), `${what}: ${error.code} should be listed by errorCodes()`);
  assert.ok(error.message.length > 0);
  return error;
}
