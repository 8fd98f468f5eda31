// Start the hub from Node, for real: the Worker bundled by wrangler exactly
// as `wrangler deploy` would upload it, run in workerd through Miniflare;
// or the Deno server in the `deno` binary of node_modules. Used by
// `npm run hub`, the tests and the load script.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const hubDir = join(root, "hub");

function compatibilityDate() {
  return /compatibility_date\s*=\s*"([^"]+)"/.exec(readFileSync(join(hubDir, "wrangler.toml"), "utf8"))[1];
}

/** Bundle hub/worker.js (or, `withStatic`, hub/worker-static.js) with wrangler into `outdir`. */
export function bundleWorker(outdir, { withStatic = false } = {}) {
  mkdirSync(outdir, { recursive: true });
  const built = spawnSync(
    join(root, "node_modules", ".bin", "wrangler"),
    ["deploy", "--dry-run", "--outdir", outdir, "--config", join(hubDir, "wrangler.toml"), ...(withStatic ? ["--env", "static"] : [])],
    { cwd: hubDir, encoding: "utf8", env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG_PATH: join(outdir, "logs") } },
  );
  if (built.status !== 0) throw new Error(`wrangler could not bundle the hub (${built.error?.message ?? built.status}):\n${built.stdout}\n${built.stderr}`);
  return join(outdir, withStatic ? "worker-static.js" : "worker.js");
}

/**
 * Hold `dir` for this process: a second hub on the same state would run a
 * second instance of every team's Durable Object on the same files. The
 * lock is a file naming this process; one left by a process that is gone
 * is taken over. Returns the release.
 */
export function lockState(dir) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "hub.lock");
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if (error.code !== "EEXIST" || attempt > 0) throw error.code === "EEXIST" ? inUse(dir, file) : error;
      const pid = Number(readFileSync(file, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw inUse(dir, file, pid);
      rmSync(file, { force: true });
    }
  }
  let held = true;
  const release = () => {
    if (held) rmSync(file, { force: true });
    held = false;
  };
  process.once("exit", release);
  return release;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

function inUse(dir, file, pid) {
  return new Error(`another hub${pid ? ` (process ${pid})` : ""} is running on the state folder ${dir}; stop it first (or remove ${file} if it is not running)`);
}

/** A request log line of the hub (src/request-log.js). */
const REQUEST_LINE = /^\{"at":"/;

/**
 * Each line of `stream`: request log lines to `log` (dropped without one)
 * and, with MEMDOC_HUB_REQUEST_LOG set, appended to that file (the hub
 * suite's check that no line holds a secret: hub/test/suite.mjs); the
 * others to `other`.
 */
function lines(stream, log, other) {
  const file = process.env.MEMDOC_HUB_REQUEST_LOG;
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop();
    const requests = [];
    for (const line of parts) {
      if (REQUEST_LINE.test(line)) {
        log?.(line);
        requests.push(`${line}\n`);
      } else other?.(`${line}\n`);
    }
    if (file && requests.length > 0) appendFileSync(file, requests.join(""));
  });
}

/** The ids of this process's child processes whose command is `name` (Linux's /proc). */
function childProcesses(name) {
  const out = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const [comm, rest] = [stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), stat.slice(stat.lastIndexOf(")") + 2)];
      if (comm === name && Number(rest.split(" ")[1]) === process.pid) out.push(Number(pid));
    } catch {
      // A process that ended meanwhile.
    }
  }
  return out;
}

/**
 * Settings out of range (docs/HUB.md, "Limits") stop the start, as the
 * Worker and the Deno server do; so does an embedder the Worker cannot run
 * (MiniLM; Workers AI without an AI binding).
 */
async function checkSettings(vars, bindings = {}, withStatic = false) {
  const { hubConfig } = await import("./src/settings.js");
  const config = hubConfig(vars);
  const { embedderLoader, workerTarget } = await import("./src/embedder-setting.js");
  embedderLoader(config.embedder, workerTarget({ ai: bindings.AI, bundled: withStatic ? { static: () => {} } : {} }));
}

/** The Worker built with the static table (wrangler.toml, `env.static`): for MEMDOC_HUB_EMBEDDER=static unless `withStatic` says. */
const staticBuild = (o) => o.withStatic ?? o.vars?.MEMDOC_HUB_EMBEDDER === "static";

/**
 * The hub's Worker in workerd on 127.0.0.1.
 * @param {{ port?: number, build: string, persist?: string | false, vars?: Record<string, string>, log?: (line: string) => void, workers?: object[], wrappedBindings?: object, withStatic?: boolean, reuseBuild?: boolean }} o
 *   `reuseBuild` runs the Worker already bundled in `build` (a restart); `log` receives the request log lines (dropped without it); `workers`
 *   and `wrappedBindings` (Miniflare's) add workers and bindings to them;
 *   `withStatic` builds the Worker with the static table (default: when
 *   MEMDOC_HUB_EMBEDDER is static)
 * @returns {Promise<{ url: string, stop: () => Promise<void>, kill: () => Promise<void> }>}
 *   `kill` ends workerd with SIGKILL, mid-request if need be (a crash)
 */
export async function startWorkerd(o) {
  await checkSettings(o.vars ?? {}, o.wrappedBindings, staticBuild(o));
  const release = o.persist ? lockState(o.persist) : () => {};
  const { Miniflare } = await import("miniflare");
  let scriptPath;
  try {
    const built = join(o.build, staticBuild(o) ? "worker-static.js" : "worker.js");
    scriptPath = o.reuseBuild && existsSync(built) ? built : bundleWorker(o.build, { withStatic: staticBuild(o) });
  } catch (error) {
    release();
    throw error;
  }
  const worker = {
    name: "hub",
    modules: true,
    scriptPath,
    modulesRoot: o.build,
    modulesRules: [
      { type: "ESModule", include: ["**/*.js"] },
      { type: "CompiledWasm", include: ["**/*.wasm"] },
      { type: "Data", include: ["**/*.i8", "**/*.json"] },
    ],
    compatibilityDate: compatibilityDate(),
    durableObjects: { TEAMS: { className: "Team", useSQLite: true } },
    bindings: o.vars ?? {},
    ...(o.wrappedBindings ? { wrappedBindings: o.wrappedBindings } : {}),
  };
  const shared = {
    durableObjectsPersist: o.persist ?? false,
    host: "127.0.0.1",
    port: o.port ?? 0,
    handleRuntimeStdio(stdout, stderr) {
      lines(stdout, o.log, (text) => process.stdout.write(text));
      lines(stderr, o.log, (text) => process.stderr.write(text));
    },
  };
  // More workers (a stand-in for a binding, in the tests) beside the hub's.
  const before = new Set(childProcesses("workerd"));
  const mf = new Miniflare(o.workers ? { ...shared, workers: [worker, ...o.workers] } : { ...shared, ...worker });
  let url;
  try {
    url = (await mf.ready).toString().replace(/\/$/, "");
  } catch (error) {
    release();
    await mf.dispose().catch(() => {});
    throw error;
  }
  const started = childProcesses("workerd").filter((pid) => !before.has(pid));
  const kill = async () => {
    for (const pid of started) process.kill(pid, "SIGKILL");
    await mf.dispose().catch(() => {});
    release();
  };
  return { url, stop: () => mf.dispose().finally(release), kill };
}

/**
 * The hub's Deno server on 127.0.0.1, with Deno KV at `kvPath`; its recall
 * is by words alone unless `vars` sets MEMDOC_HUB_EMBEDDER.
 * @param {{ port?: number, kvPath: string, vars?: Record<string, string>, log?: (line: string) => void }} o
 *   `log` receives the request log lines (dropped without it)
 */
export function startDeno(o) {
  mkdirSync(o.kvPath, { recursive: true });
  const deno = join(root, "node_modules", ".bin", "deno");
  const args = [
    "run",
    "--no-prompt",
    "--no-lock",
    "--unstable-kv",
    "--unstable-cron",
    "--allow-net=127.0.0.1",
    "--allow-env",
    `--allow-read=${root},${o.kvPath}`,
    `--allow-write=${o.kvPath}`,
    join(hubDir, "deno.js"),
  ];
  const child = spawn(deno, args, {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    // Recall by words unless the caller asks for an embedder (MiniLM is the Deno hub's default).
    env: { ...process.env, NO_COLOR: "1", MEMDOC_HUB_EMBEDDER: "none", ...(o.vars ?? {}), PORT: String(o.port ?? 0), HOST: "127.0.0.1", MEMDOC_HUB_KV: join(o.kvPath, "hub.sqlite") },
  });
  return new Promise((resolveStart, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the Deno hub did not start in 60 s:\n${out}\n${err}`));
    }, 60_000);
    child.stderr.on("data", (d) => (err += d));
    lines(child.stdout, o.log, (d) => {
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
        const kill = () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGKILL");
          });
        resolveStart({ url, stop, kill, output: () => err });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the Deno hub exited with ${code}:\n${out}\n${err}`));
    });
  });
}
