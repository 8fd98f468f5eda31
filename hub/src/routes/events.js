// A memory's change events, `GET {m}/events` (docs/HUB.md, "Events"): a
// WebSocket the runtime accepts (`runtime.subscribe`), sent each revision
// after the one the memory is at now (events.js).
import { Hono } from "hono";

import { MEMORY_PATH as M, memoryRole } from "../access.js";
import { allow } from "../allow.js";
import { HubProblem } from "../problem.js";

/**
 * 426 unless the request is a WebSocket upgrade.
 * @param {import("hono").Context} c
 */
export function requireUpgrade(c) {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    throw new HubProblem(426, "http/upgrade-required", "This is a WebSocket: send Upgrade: websocket.", { headers: { upgrade: "websocket" } });
  }
}

/**
 * The subprotocols the client offered.
 * @param {import("hono").Context} c
 */
export const offeredProtocols = (c) => (c.req.header("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());

/** @type {Hono<import("../context.js").Env>} */
export const events = new Hono();

events.get(`${M}/events`, memoryRole("events", "reader"), async (c) => {
  const { caller: who, memory: { ref, store }, hub } = c.var;
  requireUpgrade(c);
  const loaded = await store.load(ref);
  await who.audit({ status: 101, revision: loaded.revision });
  // The reply names one subprotocol the client offered, never another
  // (RFC 6455; browsers and Node fail a handshake that offered some and
  // got none): `memdoc`, or else the `bearer.<key>` that was offered alone.
  const offered = offeredProtocols(c);
  const protocol = offered.includes("memdoc") ? "memdoc" : (offered.find((p) => p.startsWith("bearer.")) ?? null);
  return hub.runtime.subscribe({ request: c.req.raw, storage: who.storage, store, ref, after: loaded.revision, protocol });
});
events.all(`${M}/events`, allow("GET"));
