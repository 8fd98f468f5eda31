// `npm start`: set up what the editor needs (`scripts/setup start`), build
// the package without the embedders' files (`build.mjs --core`) and the
// editor, and serve the editor on 127.0.0.1 (port 5173, or $PORT; a free
// port if that one is taken). Everything is served from this machine: the
// page works offline.
//
// Recall by meaning needs the embedders' files (the static table, distilled
// once from the MiniLM model, a few minutes on the first run): they are
// made after the URL is printed, and the editor is then built again with
// them and served on the same port; until then recall by meaning says it is
// degraded and recall by words works. Once made they are kept (target/models,
// pkg/embedders, pkg-minilm, pkg-static), so a later start serves them at once, and brings them and
// the bin's module up to date after its URL.
//
// This file imports nothing but Node's own modules: on a fresh clone the npm
// packages (Vite among them) exist only once scripts/setup has run, so the
// part that needs them is imported after it.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const began = Date.now();
const seconds = () => `${((Date.now() - began) / 1000).toFixed(0)} s`;

function run(command, args) {
  const result = spawnSync(command, args, { cwd: repo, stdio: "inherit" });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`\`${[command, ...args].join(" ")}\` failed with exit code ${result.status}`);
  }
}

/** `command args` in the background, its output prefixed; resolves when it succeeded. */
function runQuietly(command, args, prefix) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const keep = (chunk) => {
      tail = (tail + chunk).slice(-4000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`\`${[command, ...args].join(" ")}\` failed (${code}):\n${tail}`))));
  }).catch((error) => {
    throw new Error(`${prefix}: ${error.message}`);
  });
}

/** Whether what `build.mjs --rest` makes is there: the bin's module and the embedders' files. */
const restBuilt = () =>
  ["pkg/cli/memdoc_bg.wasm", "pkg/embedders/minilm/minilm_bg.wasm", "pkg-static/all-MiniLM-L6-v2-static-256.i8"].every((f) => existsSync(join(repo, f)));

async function main() {
  const wanted = process.env.PORT === undefined || process.env.PORT === "" ? 5173 : Number(process.env.PORT);
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535) {
    throw new Error(`PORT must be a port number, not ${JSON.stringify(process.env.PORT)}`);
  }
  run("bash", ["scripts/setup", "start"]);
  console.log(`start: building the package (${seconds()})`);
  run("node", ["scripts/build.mjs", "--core"]);
  const { buildWww, wwwCurrent } = await import("./build-www.mjs");
  const { serveEditor } = await import("./serve.mjs");
  console.log(`start: building the editor (${seconds()})`);
  await buildWww({ quiet: true, reuse: true });
  const served = await serveEditor({ port: wanted });
  if (wanted !== 0 && served.port !== wanted) {
    console.log(`start: port ${wanted} is taken; using ${served.port} instead`);
  }
  console.log(`\nmemdoc editor: ${served.url}\n(Ctrl-C to stop; ready in ${seconds()})`);
  // The server being served (refresh swaps it).
  const editor = { served };
  const stop = () => editor.served.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await refresh(editor, { buildWww, wwwCurrent, serveEditor }).catch((error) => {
    console.error(`${error.message}\nstart: the editor is still served, without what that part makes`);
  });
}

/** After the URL: the rest of the package, and the editor again when it changed (see the top). */
async function refresh(editor, { buildWww, wwwCurrent, serveEditor }) {
  // The bin's module and the embedders' files (recall by meaning): made
  // once, kept, and brought up to date after the URL; when the editor's
  // inputs changed, it is built again beside the one being served and
  // swapped in on the same port.
  const tableMissing = !restBuilt();
  if (tableMissing) console.log("start: recall by meaning is not ready yet: making the static table (once, a few minutes); recall by words works meanwhile");
  await runQuietly("bash", ["scripts/setup", "embedders"], "start: the embedders");
  await runQuietly("node", ["scripts/build.mjs", "--rest"], "start: the build of the bin's module and the embedders");
  if (wwwCurrent()) return;
  const next = join(repo, "www", "dist.next");
  await buildWww({ quiet: true, outDir: next });
  const { port } = editor.served;
  await editor.served.close();
  rmSync(join(repo, "www", "dist"), { recursive: true, force: true });
  renameSync(next, join(repo, "www", "dist"));
  editor.served = await serveEditor({ port, strictPort: true });
  console.log(`start: ${tableMissing ? "recall by meaning is ready" : "the editor is up to date"} (${seconds()}); reload ${editor.served.url}`);
}

main().catch((error) => {
  console.error(`start: ${error.message}`);
  process.exit(1);
});
