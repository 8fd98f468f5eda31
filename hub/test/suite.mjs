#!/usr/bin/env node
// The hub's HTTP suite (scripts/test.mjs, "hub: workerd and Deno"): every
// hub/test/*.test.mjs (or the files given), one file at a time, then the check that no request
// log line of the whole run holds a secret, a key or memory content
// (docs/HUB.md, "Observability"). Every hub the tests start (hub/run.mjs,
// `npm run hub` included) appends its request log lines to one file
// (MEMDOC_HUB_REQUEST_LOG), and the tests' clients record every key, token
// and content they used (MEMDOC_HUB_TEST_USED, hub/test/used.mjs); both
// files are new for each run, under target/hub-test/. The check fails on
// any recorded value found in the log, and on an empty log or record (a
// check over nothing would pass whatever the hub logged).
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dir = join(root, "target", "hub-test");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const requestLog = join(dir, "requests.log");
const used = join(dir, "used.ndjson");

// The files given, or all of them.
const given = process.argv.slice(2);
const files =
  given.length > 0
    ? given
    : readdirSync(join(root, "hub", "test"))
        .filter((f) => f.endsWith(".test.mjs"))
        .sort()
        .map((f) => join("hub", "test", f));
// Global WebSocket: the flag is for Node 20.
const suite = spawnSync(process.execPath, ["--experimental-websocket", "--test", "--test-concurrency=1", ...files], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, MEMDOC_HUB_REQUEST_LOG: requestLog, MEMDOC_HUB_TEST_USED: used },
});
if (suite.status !== 0) process.exit(suite.status ?? 1);

const read = (file) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};
const log = read(requestLog);
const values = [...new Set(read(used).split("\n").filter(Boolean).map((l) => JSON.parse(l)))];
const lines = log.split("\n").filter(Boolean);
const failures = [];
if (lines.length === 0) failures.push(`no request log line in ${requestLog}: the check would pass over nothing`);
if (values.length === 0) failures.push(`nothing recorded in ${used}: the check would pass over nothing`);
// Each distinct text the lines hold (each field's value, decoded; a line
// that is not JSON as it is), one a line: a short text to search, however
// many lines repeat the same route, team and member.
const texts = new Set();
for (const line of lines) {
  let fields;
  try {
    fields = Object.values(JSON.parse(line));
  } catch {
    fields = [line];
  }
  for (const f of fields) texts.add(typeof f === "string" ? f : JSON.stringify(f));
}
const haystack = [...texts].join("\n");
for (const value of values) {
  if (haystack.includes(value)) {
    const hit = lines.find((line) => line.includes(value) || line.includes(JSON.stringify(value).slice(1, -1)));
    failures.push(`a request log line holds ${JSON.stringify(value.slice(0, 40))}…: ${hit}`);
  }
}
if (failures.length > 0) {
  console.error(`hub request logs: ${failures.length} failure(s)\n${failures.slice(0, 20).join("\n")}`);
  process.exit(1);
}
console.log(`hub request logs: ${lines.length} lines hold none of the ${values.length} keys, tokens and content lines the suite used`);
