// An agent's recall of what its team saved on a memdoc hub, with the official MCP SDK:
// MEMDOC_HUB_URL=http://127.0.0.1:8787 MEMDOC_HUB_KEY=… node examples/agent.mjs "which relational database do we use"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const transport = new StreamableHTTPClientTransport(new URL("/mcp", process.env.MEMDOC_HUB_URL), {
  requestInit: { headers: { Authorization: `Bearer ${process.env.MEMDOC_HUB_KEY}` } },
});
const agent = new Client({ name: "my-agent", version: "1.0.0" });
await agent.connect(transport);
const recalled = await agent.callTool({ name: "memory_recall", arguments: { query: process.argv[2] } });
console.log(recalled.content[0].text);
await agent.close();
