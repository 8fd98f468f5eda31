// `POST /mcp`: the hub as a Model Context Protocol server (Streamable HTTP,
// stateless: every POST is answered on its own, as JSON). The key is checked
// first, by the hub's own `GET /v1/whoami`, so a missing, unknown or revoked
// key is refused with the REST API's 401 problem before any MCP message is
// read; the tools (./tools.js) then act with that key through the REST
// routes. A fresh server and transport per request: nothing is shared
// between callers.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { version } from "memdoc";

import { problemResponse } from "../problem.js";
import { memoryTools } from "./tools.js";

/**
 * JSON Schema validation is only used by the SDK for elicitation, which this
 * server never asks for; the SDK's default (Ajv) compiles code at run time,
 * which Workers forbid. So: a validator that refuses instead.
 */
const noElicitation = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "this server does not elicit input" }),
};

/** Mount `POST /mcp` on the hub application `app` (a Hono app). */
export function mountMcp(app) {
  app.post("/mcp", async (c) => {
    const request = c.req.raw;
    const authorization = request.headers.get("authorization");
    const origin = new URL(request.url).origin;
    const rest = async (method, path, o = {}) => {
      const headers = { ...(o.headers ?? {}) };
      if (authorization !== null) headers.authorization = authorization;
      let body;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers["content-type"] = "application/json";
      }
      const response = await app.fetch(new Request(origin + path, { method, headers, body }));
      const text = await response.text();
      const type = response.headers.get("content-type") ?? "";
      const json = /json/.test(type) ? JSON.parse(text) : null;
      return { status: response.status, json, text, headers: response.headers };
    };
    const me = await rest("GET", "/v1/whoami");
    if (me.status !== 200) return new Response(me.text, { status: me.status, headers: me.headers });

    const server = new McpServer(
      { name: "memdoc-hub", title: "memdoc hub", version: version() },
      {
        jsonSchemaValidator: noElicitation,
        instructions:
          `You are ${me.json.member} (role ${me.json.role}) in team ${me.json.team}. ` +
          "The memory tools read and change the team's shared memories (scope \"team\") and your own private memory (scope \"user\", id = your member id). " +
          "To change a memory: memory_read, then memory_save the whole new document with the revision you read.",
      },
    );
    for (const [name, config, handler] of memoryTools(me.json, rest)) server.registerTool(name, config, handler);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(request);
  });
  app.all("/mcp", () =>
    problemResponse(405, "http/method-not-allowed", "Use POST (the MCP Streamable HTTP transport, stateless: no event stream, no session).", { headers: { allow: "POST" } }),
  );
}
