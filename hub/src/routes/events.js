// A memory's change events, `GET {m}/events` (docs/HUB.md, "Events"): a
// WebSocket the runtime accepts (`runtime.subscribe`), sent each revision
// after the one the memory is at now (events.js).
import { Hono } from "hono";

import { MEMORY_PATH as M, memoryRole } from "../access.js";
import { allow } from "../allow.js";
import { socketsRefusal } from "../events.js";
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

/**
 * Accept the socket (`runtime.subscribe`) unless the key or the team holds
 * its most open sockets (429 `events/too-many-sockets`, audited): nothing
 * is awaited between the count and the acceptance, so concurrent upgrades
 * cannot both take the last place.
 * @param {import("../context.js").Context} c
 * @param {object} s the subscription: what `runtime.subscribe` takes besides the caller's
 */
export async function subscribeWithin(c, s) {
  const { caller: who, hub } = c.var;
  const counts = hub.runtime.openSockets?.({ storage: who.storage, keyId: who.keyId }) ?? { key: 0, team: 0 };
  const refusal = socketsRefusal(counts);
  if (refusal) throw await who.refuse(refusal);
  return hub.runtime.subscribe({ request: c.req.raw, storage: who.storage, keyId: who.keyId, member: who.member, expiresAt: who.expiresAt, ...s });
}

/** @type {Hono<import("../context.js").Env>} */
export const events = new Hono();

events.get(`${M}/events`, memoryRole("events", "reader"), async (c) => {
  const { caller: who, memory: { ref, store } } = c.var;
  requireUpgrade(c);
  const loaded = await store.load(ref);
  // The reply names one subprotocol the client offered, never another
  // (RFC 6455; browsers and Node fail a handshake that offered some and
  // got none): `memdoc`, or else the `bearer.<key>` that was offered alone.
  const offered = offeredProtocols(c);
  const protocol = offered.includes("memdoc") ? "memdoc" : (offered.find((p) => p.startsWith("bearer.")) ?? null);
  const response = await subscribeWithin(c, { store, ref, after: loaded.revision, protocol });
  await who.audit({ status: 101, revision: loaded.revision });
  return response;
});
events.all(`${M}/events`, allow("GET"));
