// `GET /metrics`, the Prometheus text of the hub's metrics, for the
// operator (docs/HUB.md, "Observability"; metrics.js). Not counted against
// the operator's rate: a scraper polls it.
import { Hono } from "hono";

import { allow } from "../allow.js";
import { render } from "../metrics.js";
import { operatorOnly } from "../operator.js";

/** @type {Hono<import("../context.js").Env>} */
export const metrics = new Hono();

metrics.get("/", operatorOnly({ rate: false }), async (c) => {
  const { runtime, metrics: own } = c.var.hub;
  // This application's, and on Workers every team's (runtime.collect).
  const snapshots = await (runtime.collect?.() ?? [own.snapshot(runtime.subscribers?.() ?? 0)]);
  return c.body(render(snapshots), 200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
});
metrics.all("/", allow("GET"));
