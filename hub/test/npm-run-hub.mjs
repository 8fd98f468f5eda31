// `npm run hub` started for a test as a newcomer starts it, and stopped.
import { spawn } from "node:child_process";

import { root } from "../run.mjs";

/**
 * Start `npm run hub` as a newcomer does (no MEMDOC_HUB_OPERATOR_TOKEN, no
 * MEMDOC_HUB_EMBEDDER) on `state`, with `vars` added to its environment;
 * resolve once it printed its URL and token, with what it printed so far.
 * @returns {Promise<{ url: string, token: string, printed: () => string, errors: () => string, stop: () => Promise<void> }>}
 */
export function startNpmRunHub(state, vars = {}) {
  const env = { ...process.env, MEMDOC_HUB_STATE: state, PORT: "0" };
  delete env.MEMDOC_HUB_EMBEDDER;
  Object.assign(env, vars);
  delete env.MEMDOC_HUB_OPERATOR_TOKEN;
  const child = spawn("npm", ["run", "--silent", "hub"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run hub printed no URL and token in 120 s:\n${out}\n${err}`)), 120_000);
    child.on("exit", (code) => reject(new Error(`npm run hub exited with ${code}:\n${out}\n${err}`)));
    child.stdout.on("data", (d) => {
      out += d;
      const url = /^memdoc hub: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out)?.[1];
      const token = /^operator token: (\S+)$/m.exec(out)?.[1];
      if (url && token && out.includes("(Ctrl-C to stop)")) {
        clearTimeout(timer);
        const stop = () =>
          new Promise((done) => {
            child.removeAllListeners("exit");
            child.once("exit", done);
            process.kill(-child.pid, "SIGINT");
          });
        resolve({ url, token, printed: () => out, errors: () => err, stop });
      }
    });
  });
}

