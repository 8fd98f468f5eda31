#!/usr/bin/env node
// `npx memdoc …`: the memdoc command of docs/CLI.md, the same as the Rust
// binary (cli/, memdoc-cli). This file parses the arguments, reads and
// writes files, runs git and makes the hub's HTTP requests; what is
// printed, written and exited with comes from the command line's engine
// (cli/src/, memdoc-cli's library) through its own module
// (`cli/memdoc_bg.wasm`: the internal `__cli…` exports of cli/wasm/, with
// the package's own exports), so the two print the same. The package's
// own module, which browsers and Workers load, does not carry it.
import { spawnSync } from "node:child_process";
import { closeSync, fchmodSync, openSync, readFileSync, writeFileSync, writeSync as fsWriteSync } from "node:fs";
import { basename, dirname } from "node:path";

import { adminCommands, adminGroups, runAdmin } from "./cli/hub-admin.js";
import { agentCommands, runAgents } from "./cli-agents.js";
import { EMBEDDERS, meaning } from "./cli/embedder.js";
import * as memdoc from "./cli/memdoc.js";

memdoc.initSync({ module: readFileSync(new URL("./cli/memdoc_bg.wasm", import.meta.url)) });

// Each command's `--help`, by its path ("" for memdoc itself): the Rust
// binary's, generated from its clap definitions
// (cli/src/bin/memdoc/main.rs, `help_file`).
const helps = JSON.parse(readFileSync(new URL("./cli-help.json", import.meta.url), "utf8"));

const USAGE = 2;

// Each command: its positionals (a trailing "..." takes one or more), its
// options (value: takes a value; many: repeatable; required) and flags.
const commands = {
  check: {
    positionals: ["FILE..."],
    options: { scope: {}, previous: {}, "previous-rev": {}, format: {} },
    flags: ["deny-warnings", "deny-losses"],
    conflicts: [["previous", "previous-rev"]],
    about: "Validate memory files",
  },
  fmt: { positionals: ["FILE..."], options: {}, flags: ["check", "drop-preamble"], about: "Rewrite memory files in their canonical form" },
  merge: { positionals: ["BASE", "OURS", "THEIRS", "[PATH]"], options: {}, flags: [], about: "Three-way merge for git (memdoc merge %O %A %B %P)" },
  recall: {
    positionals: ["FILE", "QUESTION"],
    options: { scope: {}, budget: {}, embedder: { values: EMBEDDERS, name: "NAME" } },
    flags: ["explain", "trace"],
    about: "The part of a memory that best answers a question",
  },
  compact: { positionals: ["FILE"], options: { to: { required: true }, scope: {} }, flags: [], about: "Compact a memory to a size" },
  expire: {
    positionals: ["FILE"],
    options: { policy: { required: true, many: true }, today: {} },
    flags: [],
    about: "Remove the entries older than their section's policy",
  },
  prompt: { positionals: ["FILE"], options: { scope: { required: true } }, flags: [], about: "The block an agent sees in its prompt" },
  ...agentCommands,
  "hub pull": { positionals: ["TEAM", "SCOPE", "ID"], options: { output: { short: "o" } }, flags: [], about: "Read a memory from the hub" },
  "hub push": {
    positionals: ["FILE", "TEAM", "SCOPE", "ID"],
    options: { revision: { required: true } },
    flags: ["merge"],
    about: "Save a file as the memory's next revision",
  },
  "hub history": { positionals: ["TEAM", "SCOPE", "ID"], options: {}, flags: [], about: "The memory's revisions, newest first" },
  "hub export": { positionals: ["TEAM"], options: { output: { short: "o" } }, flags: [], about: "The whole team as the hub exports it" },
  "hub import": { positionals: ["FILE", "TEAM"], options: {}, flags: [], about: "Make a team from an export (the operator token)" },
  ...adminCommands,
};

class UsageError extends Error {}

/** The commands, for a usage error without one. */
function help() {
  const lines = ["Usage: memdoc <COMMAND>", "", "Commands:"];
  for (const [command, spec] of Object.entries(commands)) lines.push(`  ${command.padEnd(19)} ${spec.about}`);
  lines.push("", "See docs/CLI.md, or memdoc <COMMAND> --help.");
  return `${lines.join("\n")}\n`;
}

/** The command's name and its values: `{ name, args, options }`. */
function parse(argv) {
  let name = argv[0];
  let rest = argv.slice(1);
  if (name === undefined) throw new UsageError(`a command is required\n\n${help()}`);
  if (name === "--help" || name === "-h" || name === "help") return { help: helps[""] };
  if (name === "--version" || name === "-V") return { version: `memdoc ${memdoc.version()}\n` };
  if (name === "hub" || name === "hook") {
    const subcommands = [...new Set(Object.keys(commands).filter((c) => c.startsWith(`${name} `)).map((c) => c.split(" ")[1]))];
    if (rest[0] === undefined) throw new UsageError(`'memdoc ${name}' requires a subcommand: ${subcommands.slice(0, -1).join(", ")} or ${subcommands.at(-1)}`);
    if (rest[0] === "--help" || rest[0] === "-h") return { help: helps[name] };
    name = `${name} ${rest[0]}`;
    rest = rest.slice(1);
    if (name.startsWith("hub ") && adminGroups.includes(name.slice("hub ".length))) {
      const verbs = Object.keys(commands).filter((c) => c.startsWith(`${name} `)).map((c) => c.split(" ")[2]);
      if (rest[0] === undefined) throw new UsageError(`'memdoc ${name}' requires a subcommand: ${verbs.join(", ")}`);
      if (rest[0] === "--help" || rest[0] === "-h") return { help: helps[name] };
      name = `${name} ${rest[0]}`;
      rest = rest.slice(1);
    }
  }
  const spec = commands[name];
  if (!spec) throw new UsageError(`unrecognized subcommand '${name.replace(/^(hub|hook) /, "")}'`);
  const options = {};
  const args = [];
  let onlyPositionals = false;
  for (let k = 0; k < rest.length; k++) {
    const arg = rest[k];
    if (onlyPositionals || arg === "-" || !arg.startsWith("-")) {
      args.push(arg);
      continue;
    }
    if (arg === "--") {
      onlyPositionals = true;
      continue;
    }
    if (arg === "--help" || arg === "-h") return { help: helps[name] };
    let option;
    let value;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      option = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      if (eq >= 0) value = arg.slice(eq + 1);
    } else {
      option = Object.keys(spec.options).find((o) => spec.options[o].short === arg.slice(1, 2));
      if (!option) throw new UsageError(`unexpected argument '${arg}' found`);
      if (arg.length > 2) value = arg.slice(2);
    }
    if (spec.flags.includes(option)) {
      if (value !== undefined) throw new UsageError(`unexpected value '${value}' for '--${option}' found`);
      if (options[option]) throw new UsageError(`the argument '--${option}' cannot be used multiple times`);
      options[option] = true;
      continue;
    }
    const o = spec.options[option];
    if (!o) throw new UsageError(`unexpected argument '--${option}' found`);
    if (value === undefined) {
      k += 1;
      if (k >= rest.length) throw new UsageError(`a value is required for '--${option}' but none was supplied`);
      value = rest[k];
    }
    if (o.values !== undefined && !o.values.includes(value)) {
      throw new UsageError(`invalid value '${value}' for '--${option} <${o.name}>'\n  [possible values: ${o.values.join(", ")}]`);
    }
    if (o.many) (options[option] ??= []).push(value);
    else if (options[option] !== undefined) throw new UsageError(`the argument '--${option}' cannot be used multiple times`);
    else options[option] = value;
  }
  for (const [option, o] of Object.entries(spec.options)) {
    if (o.required && options[option] === undefined) throw new UsageError(`the following required arguments were not provided: --${option}`);
  }
  for (const [a, b] of spec.conflicts ?? []) {
    if (options[a] !== undefined && options[b] !== undefined) throw new UsageError(`the argument '--${a}' cannot be used with '--${b}'`);
  }
  const variadic = spec.positionals.at(-1)?.endsWith("...") ?? false;
  const optional = spec.positionals.filter((p) => p.startsWith("[")).length;
  const fixed = spec.positionals.length - (variadic ? 1 : optional);
  if (args.length < fixed || (variadic && args.length === fixed)) {
    const missing = spec.positionals.slice(args.length).filter((p) => !p.startsWith("[")).map((p) => `<${p.replace("...", "")}>`);
    throw new UsageError(`the following required arguments were not provided: ${missing.join(" ")}`);
  }
  if (!variadic && args.length > spec.positionals.length) throw new UsageError(`unexpected argument '${args[spec.positionals.length]}' found`);
  return { name, args, options };
}

/** The engine's name for how an I/O call failed. */
function ioKind(error) {
  return { ENOENT: "not-found", EACCES: "permission-denied", EPERM: "permission-denied", EISDIR: "is-a-directory" }[error?.code] ?? "other";
}

/** The text of `file` (`-`: standard input), or `{ failed }` to report. */
function read(file) {
  let bytes;
  try {
    bytes = readFileSync(file === "-" ? 0 : file);
  } catch (error) {
    return { failed: memdoc.__cliReadFailed(file, ioKind(error)) };
  }
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { failed: memdoc.__cliReadFailed(file, "not-utf8") };
  }
}

/**
 * Write a file that holds secrets (an export holds every key's hash and
 * user memories): created readable by its owner alone (0600), and made so
 * before anything is written when it was there already (docs/CLI.md).
 */
function writeSecret(file, content) {
  const fd = openSync(file, "w", 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeFileSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

/** Print an outcome, write its file (with `write`); its exit code. */
function apply(file, outcome, write = writeFileSync) {
  let exit = outcome.exit;
  if (outcome.write !== null) {
    try {
      write(file, outcome.write);
    } catch (error) {
      const failed = memdoc.__cliWriteFailed(file, ioKind(error));
      print(failed);
      exit = Math.max(exit, failed.exit);
    }
  }
  print(outcome);
  return exit;
}

function print(outcome) {
  if (outcome.stdout) writeSync(1, outcome.stdout);
  if (outcome.stderr) writeSync(2, outcome.stderr);
}

/** All of `text` on the descriptor, before the process exits. */
function writeSync(fd, text) {
  const bytes = Buffer.from(text, "utf8");
  let at = 0;
  while (at < bytes.length) {
    try {
      at += fsWriteSync(fd, bytes, at);
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
    }
  }
}

/** Run `command` on each file in turn; the highest exit code. */
function each(files, command) {
  let worst = 0;
  for (const file of files) {
    const { text, failed } = read(file);
    worst = Math.max(worst, apply(file, failed ?? command(file, text)));
  }
  return worst;
}

/** `memdoc fmt`: each file, then (files written in place) how many were reformatted, left unchanged, or left as they are. */
function fmt(files, check, dropPreamble) {
  const counts = [0, 0, 0];
  let worst = 0;
  for (const file of files) {
    const { text, failed } = read(file);
    const outcome = failed ?? memdoc.__cliFmt(file, text, check, file === "-", dropPreamble);
    if (!check && file !== "-") {
      if (outcome.write != null) counts[0] += 1;
      else if (outcome.exit === 0) counts[1] += 1;
      else if (outcome.exit === 1) counts[2] += 1;
    }
    worst = Math.max(worst, apply(file, outcome));
  }
  writeSync(2, memdoc.__cliFmtSummary(...counts));
  return worst;
}

/** `file` as committed in `rev`; null when the revision has no such file. */
function committed(rev, file) {
  const dir = dirname(file);
  const git = (args) => spawnSync("git", ["-C", dir, ...args], { encoding: "buffer" });
  const shown = git(["show", `${rev}:./${basename(file)}`]);
  if (shown.error) return { failed: memdoc.__cliGitFailed(rev, file, "git could not be run") };
  if (shown.status === 0) {
    try {
      return { text: new TextDecoder("utf-8", { fatal: true }).decode(shown.stdout) };
    } catch {
      return { failed: memdoc.__cliReadFailed(file, "not-utf8") };
    }
  }
  const exists = git(["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]).status === 0;
  return exists ? { text: null } : { failed: memdoc.__cliGitFailed(rev, file, shown.stderr.toString("utf8")) };
}

function check(files, o) {
  let previous = null;
  if (o.previous !== undefined) {
    const { text, failed } = read(o.previous);
    if (failed) return apply("-", failed);
    previous = text;
  }
  const colour = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  let worst = 0;
  for (const file of files) {
    const { text, failed } = read(file);
    if (failed) {
      worst = Math.max(worst, apply(file, failed));
      continue;
    }
    let against = previous;
    if (o["previous-rev"] !== undefined) {
      const got = committed(o["previous-rev"], file);
      if (got.failed) {
        worst = Math.max(worst, apply(file, got.failed));
        continue;
      }
      against = got.text;
    }
    worst = Math.max(worst, apply(file, memdoc.__cliCheck(file, text, against, o.scope, o.format, colour, Boolean(o["deny-warnings"]), Boolean(o["deny-losses"]))));
  }
  return worst;
}

/**
 * `method` of `path` on the hub, with `body` (`{ text, type, tag? }`) when
 * given: `{ answer: [status, body, retryAfter] }` or `{ failed }`.
 */
async function call(base, key, method, path, body) {
  const headers = { authorization: `Bearer ${key}`, "user-agent": `memdoc/${memdoc.version()}` };
  if (body) {
    if (body.tag !== undefined) headers["if-match"] = body.tag;
    headers["content-type"] = body.type;
  }
  try {
    const response = await fetch(base + path, { method, headers, body: body?.text });
    return { answer: [response.status, await response.text(), response.headers.get("retry-after") ?? undefined] };
  } catch {
    return { failed: memdoc.__cliHubUnreachable(base) };
  }
}

async function hub(name, args, o) {
  const command = name.slice("hub ".length);
  const url = process.env.MEMDOC_HUB_URL;
  const key = process.env[memdoc.__cliHubCredential(command)];
  const missing = memdoc.__cliHubMissing(url, key, command);
  if (missing) return apply("-", missing);
  const base = memdoc.__cliHubBase(url);
  if (adminCommands[name]) return runAdmin(memdoc, { name, args, options: o, base, key, call, apply });
  if (name === "hub pull") {
    const [team, scope, id] = args;
    const got = await call(base, key, "GET", memdoc.__cliHubPath(team, scope, id, ""));
    if (got.failed) return apply("-", got.failed);
    return apply(o.output ?? "-", memdoc.__cliHubPulled(o.output, ...got.answer));
  }
  if (name === "hub history") {
    const [team, scope, id] = args;
    const got = await call(base, key, "GET", memdoc.__cliHubPath(team, scope, id, "/history"));
    if (got.failed) return apply("-", got.failed);
    return apply("-", memdoc.__cliHubHistory(...got.answer));
  }
  if (name === "hub export") {
    const [team] = args;
    const got = await call(base, key, "GET", memdoc.__cliHubTeamPath(team, "/export"));
    if (got.failed) return apply("-", got.failed);
    return apply(o.output ?? "-", memdoc.__cliHubExported(o.output, team, ...got.answer), writeSecret);
  }
  if (name === "hub import") {
    const [file, team] = args;
    const { text, failed } = read(file);
    if (failed) return apply("-", failed);
    const got = await call(base, key, "POST", memdoc.__cliHubTeamPath(team, "/import"), { text, type: "application/x-ndjson" });
    if (got.failed) return apply("-", got.failed);
    return apply("-", memdoc.__cliHubImported(file, ...got.answer));
  }
  const [file, team, scope, id] = args;
  const { text, failed } = read(file);
  if (failed) return apply("-", failed);
  const [tag, refused] = memdoc.__cliHubIfMatch(o.revision);
  if (refused) return apply("-", refused);
  const path = memdoc.__cliHubPath(team, scope, id, "");
  const put = await call(base, key, "PUT", path + (o.merge ? "?onConflict=merge" : ""), { tag, text, type: "text/markdown; charset=utf-8" });
  if (put.failed) return apply("-", put.failed);
  let current;
  if (memdoc.__cliHubNeedsCurrent(put.answer[0])) current = (await call(base, key, "GET", path)).answer;
  return apply(file, memdoc.__cliHubPushed(file, text, [team, scope, id], o.revision, Boolean(o.merge), put.answer, current));
}

/** `memdoc recall`: by meaning with an embedder whose files are found (cli/embedder.js), else by words. */
async function recall(file, question, o) {
  const { text, failed } = read(file);
  if (failed) return apply(file, failed);
  let vectors;
  try {
    vectors = await meaning(memdoc, text, question, o.embedder);
  } catch (error) {
    writeSync(2, `memdoc: ${error.message}\n`);
    return USAGE;
  }
  return apply(file, memdoc.__cliRecall(text, question, o.scope, o.budget, Boolean(o.explain), Boolean(o.trace), ...vectors));
}

async function main(argv) {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    writeSync(2, `error: ${error.message}\n\nFor more information, try '--help'.\n`);
    return USAGE;
  }
  if (parsed.help !== undefined || parsed.version !== undefined) {
    writeSync(1, parsed.help ?? parsed.version);
    return 0;
  }
  const { name, args, options: o } = parsed;
  switch (name) {
    case "check":
      return check(args, o);
    case "fmt":
      return fmt(args, Boolean(o.check), Boolean(o["drop-preamble"]));
    case "merge": {
      const [base, ours, theirs] = args.slice(0, 3).map(read);
      const failed = base.failed ?? ours.failed ?? theirs.failed;
      if (failed) return apply("-", failed);
      return apply(args[1], memdoc.__cliMerge(args[3] ?? args[1], base.text, ours.text, theirs.text));
    }
    case "recall":
      return recall(args[0], args[1], o);
    case "compact":
      return each(args, (file, text) => memdoc.__cliCompact(file, text, o.to, o.scope));
    case "expire": {
      const today = o.today ?? memdoc.__cliUtcDate(Math.floor(Date.now() / 1000));
      return each(args, (file, text) => memdoc.__cliExpire(file, text, o.policy, today));
    }
    case "prompt":
      return each(args, (_, text) => memdoc.__cliPrompt(text, o.scope));
    case "init":
    case "import":
    case "hook session-start":
    case "hook pre-compact":
    case "hook stop":
      return runAgents(name, args, o, { memdoc, read, apply, call, ioKind, today: () => memdoc.__cliUtcDate(Math.floor(Date.now() / 1000)) });
    default:
      return hub(name, args, o);
  }
}

process.exitCode = await main(process.argv.slice(2));
