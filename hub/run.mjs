// Start the hub from Node, for real: the Worker bundled by wrangler exactly
// as `wrangler deploy` would upload it, run in workerd through Miniflare;
// or the Deno server in the `deno` binary of node_modules. Used by
// `npm run hub`, the tests and the load script.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const hubDir = join(root, "hub");

function compatibilityDate() {
  return /compatibility_date\s*=\s*"([^"]+)"/.exec(readFileSync(join(hubDir, "wrangler.toml"), "utf8"))[1];
}

/** Bundle hub/worker.js with wrangler into `outdir`. */
export function bundleWorker(outdir) {
  mkdirSync(outdir, { recursive: true });
  const built = spawnSync(
    join(root, "node_modules", ".bin", "wrangler"),
    ["deploy", "--dry-run", "--outdir", outdir, "--config", join(hubDir, "wrangler.toml")],
    { cwd: hubDir, encoding: "utf8", env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG_PATH: join(outdir, "logs") } },
  );
  if (built.status !== 0) throw new Error(`wrangler could not bundle the hub (${built.error?.message ?? built.status}):\n${built.stdout}\n${built.stderr}`);
  return join(outdir, "worker.js");
}

/**
 * The hub's Worker in workerd on 127.0.0.1.
 * @param {{ port?: number, build: string, persist?: string | false, vars?: Record<string, string> }} o
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startWorkerd(o) {
  const { Miniflare } = await import("miniflare");
  const scriptPath = bundleWorker(o.build);
  const mf = new Miniflare({
    modules: true,
    scriptPath,
    modulesRoot: o.build,
    modulesRules: [
      { type: "ESModule", include: ["**/*.js"] },
      { type: "CompiledWasm", include: ["**/*.wasm"] },
    ],
    compatibilityDate: compatibilityDate(),
    durableObjects: { TEAMS: { className: "Team", useSQLite: true } },
    durableObjectsPersist: o.persist ?? false,
    bindings: o.vars ?? {},
    host: "127.0.0.1",
    port: o.port ?? 0,
  });
  const url = (await mf.ready).toString().replace(/\/$/, "");
  return { url, stop: () => mf.dispose() };
}

/**
 * The hub's Deno server on 127.0.0.1, with Deno KV at `kvPath`.
 * @param {{ port?: number, kvPath: string, vars?: Record<string, string> }} o
 */
export function startDeno(o) {
  const deno = join(root, "node_modules", ".bin", "deno");
  const args = [
    "run",
    "--no-prompt",
    "--no-lock",
    "--unstable-kv",
    "--allow-net=127.0.0.1",
    "--allow-env",
    `--allow-read=${root},${o.kvPath}`,
    `--allow-write=${o.kvPath}`,
    join(hubDir, "deno.js"),
  ];
  const child = spawn(deno, args, {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", ...(o.vars ?? {}), PORT: String(o.port ?? 0), HOST: "127.0.0.1", MEMDOC_HUB_KV: join(o.kvPath, "hub.sqlite") },
  });
  return new Promise((resolveStart, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the Deno hub did not start in 60 s:\n${out}\n${err}`));
    }, 60_000);
    child.stderr.on("data", (d) => (err += d));
    child.stdout.on("data", (d) => {
      out += d;
      const m = /memdoc hub: (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        const url = m[1].replace(/\/$/, "");
        const stop = () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          });
        resolveStart({ url, stop, output: () => err });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the Deno hub exited with ${code}:\n${out}\n${err}`));
    });
  });
}
