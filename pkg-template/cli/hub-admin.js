// `memdoc hub team|key|member …` of the package's bin (cli.js): the
// commands' arguments as cli.js parses them, and their run: the request's
// method, path and body and what its answer prints are the engine's
// (cli/src/hub_admin.rs, `__cliHubAdmin…`), as for the Rust binary.

/** The commands, in cli.js's form (positionals, options, flags, about). */
export const adminCommands = {
  "hub team create": {
    positionals: ["TEAM"],
    options: { admin: {} },
    flags: [],
    about: "Make a team and its first admin key (the operator token)",
  },
  "hub key create": {
    positionals: ["TEAM", "MEMBER"],
    options: { role: { required: true }, label: {}, "expires-at": {} },
    flags: [],
    about: "Make a key for a member (an admin key)",
  },
  "hub key revoke": { positionals: ["TEAM", "KEY_ID"], options: {}, flags: [], about: "Revoke a key (an admin key)" },
  "hub key rotate": {
    positionals: ["TEAM", "KEY_ID"],
    options: { grace: { required: true } },
    flags: [],
    about: "A new key for the same member (their own key); the old one works for the grace",
  },
  "hub member disable": { positionals: ["TEAM", "MEMBER"], options: {}, flags: [], about: "Refuse every key of a member (an admin key)" },
  "hub member enable": { positionals: ["TEAM", "MEMBER"], options: {}, flags: [], about: "Let a disabled member's keys back in (an admin key)" },
};

/** The groups `memdoc hub GROUP VERB` (their verbs: adminCommands). */
export const adminGroups = ["team", "key", "member"];

/**
 * Run `name` (`hub key create`, …) with `call` and `apply` of cli.js; its
 * exit code.
 */
export async function runAdmin(memdoc, { name, args, options: o, base, key, call, apply }) {
  const command = name.slice("hub ".length);
  const [method, path, body] = memdoc.__cliHubAdminRequest(command, args, [o.admin, o.role, o.label, o["expires-at"], o.grace]);
  if (method === null) return apply("-", path);
  const got = await call(base, key, method, path, body === null ? undefined : { text: body, type: "application/json" });
  if (got.failed) return apply("-", got.failed);
  return apply("-", memdoc.__cliHubAdminAnswered(command, args, ...got.answer));
}
