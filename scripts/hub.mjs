// `npm run hub`: set up what is missing (`scripts/setup hub`), build the
// package if pkg/ is not there (and its embedders' files if they are not),
// and serve the hub's Worker in workerd on 127.0.0.1 (port 8787, or $PORT;
// a free port if that one is taken), its Durable Objects persisted in
// $MEMDOC_HUB_STATE (default .hub/). Without MEMDOC_HUB_OPERATOR_TOKEN an
// operator token is generated once, kept in the state folder and printed.
//
// It recalls by meaning with no setting: MEMDOC_HUB_EMBEDDER defaults to
// `static` here, the Worker built with the static table (docs/HUB.md,
// "Recall by meaning"). The table is distilled once, on the first run, and
// that run waits for it (a few minutes; kept in pkg-static/): a hub whose recall turned from
// words to meaning while agents used it would rank the same question two
// ways. MEMDOC_HUB_EMBEDDER=none starts it by words alone.
//
// A setting out of range (docs/HUB.md, "Limits") stops the start before
// anything else, with its name and range; so does a second hub on the same
// state folder. Nothing here imports an npm package before the setup ran.
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));

function run(command, args) {
  const result = spawnSync(command, args, { cwd: repo, stdio: "inherit" });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`\`${[command, ...args].join(" ")}\` failed with exit code ${result.status}`);
}

function operatorToken(state) {
  if (process.env.MEMDOC_HUB_OPERATOR_TOKEN) return { token: process.env.MEMDOC_HUB_OPERATOR_TOKEN, generated: false };
  const file = join(state, "operator-token");
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600 });
  return { token: readFileSync(file, "utf8").trim(), generated: true };
}

/** `port` when it is free on 127.0.0.1, otherwise a free one. */
function freePort(port) {
  const listen = (p) =>
    new Promise((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(p, "127.0.0.1", () => {
        const { port: got } = server.address();
        server.close(() => resolve(got));
      });
    });
  return listen(port).catch(() => listen(0));
}

/** What to do next: a team and its key, then an agent (docs/HUB.md, "Connect an agent"). */
function nextStep(url, token) {
  return [
    "next: make a team and its first admin key, then connect an agent (docs/HUB.md, \"Connect an agent\"):",
    `  export MEMDOC_HUB_URL=${url} MEMDOC_HUB_OPERATOR_TOKEN=${token ?? "<the operator token>"}`,
    "  npx memdoc hub team create my-team",
  ].join("\n");
}

async function main() {
  const { hubConfig, portSetting } = await import("../hub/src/settings.js");
  const port = portSetting(process.env);
  hubConfig(process.env);
  const env = { MEMDOC_HUB_EMBEDDER: "static", ...process.env };
  const byMeaning = env.MEMDOC_HUB_EMBEDDER === "static";
  run("bash", ["scripts/setup", byMeaning ? "hub" : "start"]);
  if (!existsSync(join(repo, "pkg", "memdoc_bg.wasm"))) run("node", ["scripts/build.mjs", ...(byMeaning ? [] : ["--core"])]);
  else if (byMeaning && !existsSync(join(repo, "pkg-static", "all-MiniLM-L6-v2-static-256.i8"))) run("node", ["scripts/build.mjs", "--rest"]);
  const state = resolve(repo, process.env.MEMDOC_HUB_STATE || ".hub");
  mkdirSync(state, { recursive: true });
  const { token, generated } = operatorToken(state);
  const vars = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith("MEMDOC_HUB_") && k !== "MEMDOC_HUB_STATE"));
  vars.MEMDOC_HUB_OPERATOR_TOKEN = token;
  const { startWorkerd } = await import("../hub/run.mjs");
  const free = await freePort(port);
  if (port !== 0 && free !== port) console.log(`hub: port ${port} is taken; using ${free} instead`);
  const hub = await startWorkerd({ port: free, build: join(state, "build"), persist: join(state, "durable-objects"), vars, log: (line) => console.log(line) });
  console.log(`memdoc hub: ${hub.url}`);
  if (generated) console.log(`operator token: ${token}`);
  console.log(`recall: ${byMeaning ? "by meaning (the static table)" : `by words (MEMDOC_HUB_EMBEDDER=${env.MEMDOC_HUB_EMBEDDER})`}`);
  console.log(nextStep(hub.url, generated ? token : null));
  console.log("(Ctrl-C to stop)");
  const stop = () => hub.stop().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(`hub: ${error.message}`);
  process.exit(1);
});
