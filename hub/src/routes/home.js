// `GET /`: a small page for a person who opens the hub's URL in a browser:
// the hub's name and version, and where to go from here. No key, nothing of
// any team.
import { Hono } from "hono";
import { version } from "memdoc";

import { allow } from "../allow.js";

const DOCS = "https://github.com/memdoc/memdoc/blob/main/docs/HUB.md";

/** The page, for the package's `version`. */
function page(v) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>memdoc hub ${v}</title></head>
<body>
<h1>memdoc hub ${v}</h1>
<p>Team memory for AI agents: Markdown memories with revisions, roles and recall.</p>
<ul>
<li><a href="/healthz">/healthz</a>: whether the hub answers</li>
<li><code>POST /mcp</code>: the Model Context Protocol endpoint for agents, with <code>Authorization: Bearer KEY</code></li>
<li><code>/v1/…</code>: the REST API, with the same key</li>
<li><a href="${DOCS}">docs/HUB.md</a>: the contract, and how to connect an agent (Claude Code, Claude Desktop, Cursor, the MCP SDK)</li>
</ul>
</body>
</html>
`;
}

/** @type {Hono<import("../context.js").Env>} */
export const home = new Hono();

home.get("/", (c) => c.html(page(version())));
home.all("/", allow("GET"));
