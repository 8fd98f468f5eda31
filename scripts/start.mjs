// `npm start`: set up the tools, build the package and the editor, and serve
// the editor on 127.0.0.1 (port 5173, or $PORT; a free port if that one is
// taken). Everything is served from this machine: the page works offline.
//
// This file imports nothing but Node's own modules: on a fresh clone the npm
// packages (Vite among them) exist only once scripts/setup has run, so the
// part that needs them is imported after it.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));

function run(command, args) {
  const result = spawnSync(command, args, { cwd: repo, stdio: "inherit" });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`\`${[command, ...args].join(" ")}\` failed with exit code ${result.status}`);
  }
}

async function main() {
  const wanted = process.env.PORT === undefined || process.env.PORT === "" ? 5173 : Number(process.env.PORT);
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535) {
    throw new Error(`PORT must be a port number, not ${JSON.stringify(process.env.PORT)}`);
  }
  run("bash", ["scripts/setup"]);
  run("npm", ["run", "build"]);
  const { buildWww } = await import("./build-www.mjs");
  const { serveEditor } = await import("./serve.mjs");
  await buildWww();
  const served = await serveEditor({ port: wanted });
  if (wanted !== 0 && served.port !== wanted) {
    console.log(`start: port ${wanted} is taken; using ${served.port} instead`);
  }
  console.log(`\nmemdoc editor: ${served.url}\n(Ctrl-C to stop)`);
  const stop = () => served.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(`start: ${error.message}`);
  process.exit(1);
});
