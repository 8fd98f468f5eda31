// `GET /healthz`: the hub answers (no key, nothing of any team).
import { Hono } from "hono";

import { allow } from "../allow.js";

/** @type {Hono<import("../context.js").Env>} */
export const health = new Hono();

health.get("/", (c) => c.json({ ok: true }));
health.all("/", allow("GET"));
