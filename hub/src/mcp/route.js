// `POST /mcp`: the hub as a Model Context Protocol server (Streamable HTTP,
// stateless: every POST is answered on its own, as JSON). The key is checked
// first, as every route checks it (caller.js), so a missing, unknown or
// revoked key is refused with the REST API's 401 problem before any MCP
// message is read; then the body is read as every other body of the hub is
// (the MEMDOC_HUB_BODY_LIMIT cap, the deadline, JSON whose strings are
// text), and the tools (./tools.js) act as that caller through the services
// the routes call. Every HTTP-level error is a problem
// (application/problem+json), the MCP transport's own too. A fresh server
// and transport per request: nothing is shared between callers.
import { Hono } from "hono";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { version } from "memdoc";

import { readJsonValue } from "../body.js";
import { authenticate } from "../caller.js";
import { HubProblem, problemResponse } from "../problem.js";
import { memoryTools } from "./tools.js";

/**
 * JSON Schema validation is only used by the SDK for elicitation, which this
 * server never asks for; the SDK's default (Ajv) compiles code at run time,
 * which Workers forbid. So: a validator that refuses instead.
 */
const noElicitation = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "this server does not elicit input" }),
};

/**
 * The SDK's server, whose tool errors of its own (arguments that do not
 * match a tool's schema, an unknown tool) start with a problem code too.
 */
class HubMcpServer extends McpServer {
  createToolError(message) {
    const code = /validation|invalid arguments/i.test(message) ? "request/invalid-arguments" : "request/invalid-tool-call";
    return { isError: true, content: [{ type: "text", text: `${code}: ${message}` }], structuredContent: { code } };
  }
}

/** The MCP transport's own HTTP errors (JSON-RPC bodies), as problems. */
const TRANSPORT_CODES = { 400: "mcp/invalid-message", 404: "mcp/no-session", 406: "http/not-acceptable", 413: "http/payload-too-large", 415: "http/unsupported-media-type" };

async function transportProblem(response) {
  if (response.status < 400 || (response.headers.get("content-type") ?? "").startsWith("application/problem+json")) return response;
  let message = "The MCP transport refused the request.";
  let jsonrpc = null;
  try {
    const body = JSON.parse(await response.text());
    if (typeof body?.error?.message === "string") [message, jsonrpc] = [body.error.message, body.error.code];
  } catch {
    // Not JSON: the generic message.
  }
  const code = TRANSPORT_CODES[response.status] ?? "mcp/invalid-message";
  return problemResponse(response.status, code, message, { extra: jsonrpc === null ? {} : { jsonrpcCode: jsonrpc } });
}

/** An Accept header that a JSON answer satisfies (none, or one naming JSON or any type). */
function acceptsJson(accept) {
  if (accept === null || accept.trim() === "") return true;
  return accept.split(",").some((t) => ["application/json", "application/*", "*/*"].includes(t.split(";")[0].trim().toLowerCase()));
}

/** @type {Hono<import("../context.js").Env>} */
export const mcp = new Hono();

mcp.post("/", async (c) => {
  const request = c.req.raw;
  const { hub } = c.var;
  // The key's caller; its refusals are audited as `mcp` on `key`.
  const me = await authenticate(c, "mcp", "key");

  if (!acceptsJson(request.headers.get("accept"))) {
    throw new HubProblem(406, "http/not-acceptable", "The answer is application/json: accept it (Accept: application/json, text/event-stream).");
  }
  const message = await readJsonValue(request, hub.config);

  const server = new HubMcpServer(
    { name: "memdoc-hub", title: "memdoc hub", version: version() },
    {
      jsonSchemaValidator: noElicitation,
      instructions:
        `You are ${me.member} (role ${me.role}) in team ${me.team}. ` +
        "The memory tools read and change the team's shared memories (scope \"team\") and your own private memory (scope \"user\", id = your member id). " +
        "To change a memory: memory_read, then memory_save the whole new document with the revision you read.",
    },
  );
  for (const [name, config, handler] of memoryTools(hub, me)) server.registerTool(name, config, handler);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  // The body is read; the transport gets it parsed, and an Accept it takes.
  const headers = new Headers(request.headers);
  headers.set("accept", "application/json, text/event-stream");
  return transportProblem(await transport.handleRequest(new Request(request.url, { method: "POST", headers }), { parsedBody: message }));
});
mcp.all("/", () =>
  problemResponse(405, "http/method-not-allowed", "Use POST (the MCP Streamable HTTP transport, stateless: no event stream, no session).", { headers: { allow: "POST" } }),
);
