// A small HTTP client for the hub tests: every answer is checked against
// hub/openapi.json (the status is documented for the operation, the body
// matches the documented schema), and problems against RFC 9457.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { checkResponse } from "./openapi-check.mjs";
import { usedContent, usedSecret } from "./used.mjs";

const spec = JSON.parse(readFileSync(new URL("../openapi.json", import.meta.url), "utf8"));

/** The OpenAPI path template a concrete path belongs to, or null. */
function templateOf(path) {
  const pathname = path.split("?")[0];
  for (const template of Object.keys(spec.paths)) {
    const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    if (re.test(pathname)) return template;
  }
  return null;
}

export function client(base) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {{ key?: string, body?: string | object | Uint8Array, type?: string, headers?: Record<string, string>, documented?: boolean }} [o]
   */
  async function call(method, path, o = {}) {
    const headers = { ...(o.headers ?? {}) };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    usedSecret(o.key);
    if (typeof o.body === "string") usedContent(o.body);
    let body;
    if (o.body !== undefined) {
      if (typeof o.body === "string" || o.body instanceof Uint8Array) {
        body = o.body;
        headers["content-type"] ??= o.type ?? "text/markdown";
      } else {
        body = JSON.stringify(o.body);
        headers["content-type"] ??= o.type ?? "application/json";
      }
    }
    const response = await fetch(base + path, { method, headers, body });
    const text = await response.text();
    const type = response.headers.get("content-type") ?? "";
    let json = null;
    if (type.startsWith("application/json") || type.startsWith("application/problem+json")) json = JSON.parse(text);
    if (type.startsWith("application/problem+json")) {
      assert.equal(json.status, response.status, `problem status of ${method} ${path}`);
      for (const field of ["type", "title", "detail", "code"]) assert.equal(typeof json[field], "string", `problem.${field} of ${method} ${path}: ${text}`);
    } else if (response.status >= 400) {
      assert.fail(`${method} ${path} answered ${response.status} without a problem: ${type} ${text}`);
    }
    usedSecret(json?.key);
    const template = templateOf(path);
    if (o.documented !== false && template) {
      const errors = checkResponse(spec, template, method.toLowerCase(), response.status, type, json, text);
      assert.deepEqual(errors, [], `${method} ${path} → ${response.status} against openapi.json: ${text.slice(0, 300)}`);
    }
    return { status: response.status, headers: response.headers, text, json };
  }
  return call;
}

/**
 * A new team `name` made with the operator's token through `call`: its
 * admin's key and key id, and `key(member, role)`, which makes another key.
 */
export async function newTeam(call, operator, name) {
  const made = await call("POST", "/v1/teams", { key: operator, body: { team: name, admin: "root" } });
  assert.equal(made.status, 201, made.text);
  const key = async (member, role) => {
    const r = await call("POST", `/v1/teams/${name}/keys`, { key: made.json.key, body: { member, role } });
    assert.equal(r.status, 201, r.text);
    return r.json;
  };
  return { name, admin: made.json.key, adminId: made.json.keyId, key };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The first truthy value of `check()`, polled every 200 ms for at most `ms`. */
export async function until(what, check, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}
