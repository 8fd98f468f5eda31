// `memdoc init` and `memdoc hook` for the npm bin (cli.js), as the Rust
// binary's cli/src/bin/memdoc/agents.rs: this file reads the repository,
// runs git, reads standard input and the agent's transcript, and makes the
// hub's requests; what is decided and printed is the engine's
// (cli/src/init.rs, cli/src/hook.rs, through cli/wasm/src/cli_agents.rs).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";

/** The commands, in cli.js's form. */
export const agentCommands = {
  init: { positionals: [], options: { file: {} }, flags: ["dry-run"], about: "Set up this git repository's team memory: the file, the merge driver, the pre-commit hooks (idempotent)" },
  "hook session-start": {
    positionals: [],
    options: { file: {}, hub: {}, query: {}, budget: {} },
    flags: [],
    conflicts: [["file", "hub"]],
    about: "Print the team memory's prompt block for the agent's context (or, with --query, the block of what it recalls), within a budget",
  },
  "hook pre-compact": { positionals: [], options: { file: {}, hub: {} }, flags: [], conflicts: [["file", "hub"]], about: "Save the entries the agent proposed (standard input) before its context is compacted" },
  "hook stop": { positionals: [], options: { file: {}, hub: {} }, flags: [], conflicts: [["file", "hub"]], about: "Save the entries the agent proposed (standard input) when it stops" },
  import: {
    positionals: ["FILE..."],
    options: { from: { required: true }, file: {}, hub: {} },
    flags: ["dry-run"],
    conflicts: [["file", "hub"]],
    about: "Import memories from another tool's format (mcp-memory, claude-md, basic-memory, mem0): printed, or added to a memory file or a hub's memory by the merge rules",
  },
};

/**
 * Run `name`.
 * @param {{ memdoc: any, read: Function, apply: Function, call: Function, ioKind: Function, today: () => string }} io cli.js's helpers
 */
export async function runAgents(name, args, o, io) {
  if (name === "init") return init(o, io);
  if (name === "import") return importFiles(args, o, io);
  return io.memdoc.__cliHookExit(await hook(name, o, io));
}

async function hook(name, o, io) {
  if (name === "hook session-start") {
    const got = await memory(o, io);
    if (got.exit !== undefined) return got.exit;
    return io.apply("-", io.memdoc.__cliHookSessionStart(got.text, o.query, o.budget));
  }
  return propose(o, io);
}

function init(o, { memdoc, apply, ioKind }) {
  const git = (args) => spawnSync("git", args, { encoding: "utf8" });
  const top = git(["rev-parse", "--show-toplevel"]);
  if (top.error || top.status !== 0) return apply("-", memdoc.__cliNotARepository(top.error ? "git could not be run" : top.stderr));
  const root = top.stdout.trim();
  const prefix = git(["rev-parse", "--show-prefix"]).stdout.trim();
  const file = o.file === undefined ? "MEMORY.md" : posix.normalize(posix.join(prefix, o.file.replaceAll("\\", "/"))).replace(/^(\.\.\/)+/, "");
  const optional = (path) => {
    try {
      return { text: new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(join(root, path))) };
    } catch (error) {
      if (error?.code === "ENOENT") return { text: undefined };
      return { failed: memdoc.__cliReadFailed(path, error instanceof TypeError ? "not-utf8" : ioKind(error)) };
    }
  };
  const [memory, attributes, precommit] = [file, ".gitattributes", ".pre-commit-config.yaml"].map(optional);
  const failed = memory.failed ?? attributes.failed ?? precommit.failed;
  if (failed) return apply("-", failed);
  const [driverKey, , others] = memdoc.__cliInitNames();
  const driver = git(["config", "--get", driverKey]);
  const present = others.filter((other) => existsSync(join(root, other)) && statSync(join(root, other)).isFile());
  const plan = memdoc.__cliInit(file, memory.text, attributes.text, precommit.text, driver.status === 0 ? driver.stdout.replace(/\n$/, "") : undefined, present, Boolean(o["dry-run"]));
  for (const [path, content] of plan.writes) {
    try {
      writeFileSync(join(root, path), content);
    } catch (error) {
      return apply("-", memdoc.__cliWriteFailed(path, ioKind(error)));
    }
  }
  for (const [key, value] of plan.config) {
    if (git(["config", key, value]).status !== 0) return apply("-", memdoc.__cliNotARepository("git config failed"));
  }
  return apply("-", { ...plan, write: null });
}

/** The memory `o` names: `{ text, hub? }` or `{ exit }`. */
async function memory(o, { memdoc, read, apply, call }) {
  if (o.hub === undefined) {
    const { text, failed } = read(o.file ?? "MEMORY.md");
    return failed ? { exit: apply("-", failed) } : { text };
  }
  const target = memdoc.__cliHookHubTarget(o.hub);
  if (!Array.isArray(target)) return { exit: apply("-", target) };
  const url = process.env.MEMDOC_HUB_URL;
  const key = process.env[memdoc.__cliHubCredential("push")];
  const missing = memdoc.__cliHubMissing(url, key, "push");
  if (missing) return { exit: apply("-", missing) };
  const base = memdoc.__cliHubBase(url);
  const path = memdoc.__cliHubPath(...target, "");
  const got = await call(base, key, "GET", path);
  if (got.failed) return { exit: apply("-", got.failed) };
  const [text, revision, refused] = memdoc.__cliHookHubMemory(...got.answer);
  if (refused) return { exit: apply("-", refused) };
  return { text, hub: { base, key, path, revision } };
}

async function propose(o, io) {
  const { memdoc, read, apply, today } = io;
  const stdin = read("-");
  if (stdin.failed) return apply("-", stdin.failed);
  const input = memdoc.__cliHookInput(stdin.text);
  // A transcript that cannot be read adds nothing: the hook still saves
  // what its payload holds.
  let transcript;
  if (input.transcript !== null) {
    try {
      transcript = readFileSync(input.transcript, "utf8");
    } catch {
      transcript = undefined;
    }
  }
  const [proposed, skipped] = memdoc.__cliHookProposal(input.texts, input.plain, transcript, today());
  if (proposed === "" && skipped.length === 0) return 0;
  return save(o, proposed, memdoc.__cliHookNotTaken(skipped), false, io);
}

/** `proposed` added to the memory `o` names (`missingIsEmpty`: a file that does not exist yet is created), `notes` printed first. */
async function save(o, proposed, notes, missingIsEmpty, io) {
  const { memdoc, apply, call } = io;
  if (o.hub === undefined && missingIsEmpty && !existsSync(o.file ?? "MEMORY.md")) {
    const file = o.file ?? "MEMORY.md";
    return apply(file, memdoc.__cliHookSaveFile(file, "", proposed, notes));
  }
  const got = await memory(o, io);
  if (got.exit !== undefined) return got.exit;
  if (!got.hub) {
    const file = o.file ?? "MEMORY.md";
    return apply(file, memdoc.__cliHookSaveFile(file, got.text, proposed, notes));
  }
  const { base, key, path, revision } = got.hub;
  const [content, refused] = memdoc.__cliHookAdded(path, got.text, proposed);
  if (refused) return apply("-", refused);
  if (content === null) return apply("-", memdoc.__cliHookHubSavedNothing(notes));
  const put = await call(base, key, "PUT", `${path}?onConflict=merge`, { tag: `"${revision}"`, text: content, type: "text/markdown; charset=utf-8" });
  if (put.failed) return apply("-", put.failed);
  return apply("-", memdoc.__cliHookHubSaved(...put.answer, notes));
}

async function importFiles(files, o, io) {
  const { memdoc, read, apply, today } = io;
  const named = [];
  for (const file of files) {
    const { text, failed } = read(file);
    if (failed) return apply("-", failed);
    named.push(file, text);
  }
  const [content, report, shown] = memdoc.__cliImport(o.from, named, today());
  if (content === null || o["dry-run"] || (o.file === undefined && o.hub === undefined)) return apply("-", shown);
  return save(o, content, report, true, io);
}
