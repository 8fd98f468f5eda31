// The official MCP client (Client + Streamable HTTP client transport) on a
// hub's `POST /mcp`, for the tests that act as an agent.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

import { usedContent, usedSecret } from "./used.mjs";

/** A connected client that presents `key`. */
export async function mcpClient(url, key) {
  usedSecret(key);
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  const mcp = new Client({ name: "memdoc-hub-test", version: "1.0.0" });
  await mcp.connect(transport);
  return mcp;
}

/** A tool call's text, and its error code when it failed. */
export async function callTool(mcp, name, args) {
  usedContent(args?.content);
  const result = await mcp.callTool({ name, arguments: args });
  const text = result.content.map((c) => c.text).join("\n");
  return { ...result, text, code: result.isError ? result.structuredContent?.code : undefined };
}
