// The hub's MCP tools: what an agent may do with a memory, described for a
// model. Every tool is one or two REST calls of docs/HUB.md made through
// `rest` (the hub application itself, with the caller's key), so keys,
// roles, isolation, validation, save plans, compare-and-swap and the audit
// are exactly those of the REST API; nothing here decides them again. A
// refusal becomes a tool error (`isError`) whose first words are the
// memdoc code and whose text says what to do next. Ids follow the REST
// rules (../ids.js) before any call is made, so that no id can be resolved
// into another path ("." or ".."); an answer of an unexpected shape is a
// coded tool error too, never a thrown TypeError.
import * as memdoc from "memdoc";
import { z } from "zod";

import { MEMBER, MEMORY_ID } from "../ids.js";

const scope = z
  .enum(["team", "user", "task"])
  .describe('"team": the team\'s shared memory `id`. "user": your own private memory; its id is your member id (memory_read with any other id finds nothing). "task": a short-term memory of the team, by the team\'s rules, that expires a day after its last save.');
const id = z.string().min(1).max(128).describe("The memory's id, e.g. \"product\" for a team memory, or your member id for scope \"user\".");

/** The memory's REST path for the key's team. */
const pathOf = (who, s, i) => `/v1/teams/${who.team}/memories/${s}/${encodeURIComponent(i)}`;

/** A tool's successful answer: one text for the model, the same facts as structured content. */
const answer = (text, structured) => ({ content: [{ type: "text", text }], structuredContent: structured });

/** A recall's answer without its omitted items (`totals.omitted` counts them): as big as what the budget let through. */
const recalledOnly = ({ omitted: _omitted, ...recalled }) => recalled;

/** A tool error carrying the hub's problem code. */
function failure(code, text, extra = {}) {
  return { isError: true, content: [{ type: "text", text: `${code}: ${text}` }], structuredContent: { code, ...extra } };
}

/** A problem response (or any answer that is not the expected one) as a tool error, with the next step for the model. */
function refused(problem, next = "") {
  const detail = typeof problem?.detail === "string" ? problem.detail : "The hub could not answer this call.";
  const text = next ? `${detail} ${next}` : detail;
  return failure(typeof problem?.code === "string" ? problem.code : "http/error", text, { status: problem?.status ?? null });
}

/** A 200 answer whose body is not what the route documents. */
const unexpected = (got) => failure("internal/unexpected-answer", `The hub answered ${got.status} with a body this tool does not understand; nothing more was done.`, { status: got.status });

/** The refusal of an id that breaks the REST rules, or null. */
function badRef(s, i) {
  if ((s === "team" || s === "task") && !MEMORY_ID.test(i)) {
    return failure("request/invalid-id", `${JSON.stringify(i)} is not a team memory id: 1-128 of A-Z a-z 0-9 . _ @ : -, starting with a letter or digit.`);
  }
  if (s === "user" && !MEMBER.test(i)) {
    return failure("request/invalid-member", `${JSON.stringify(i)} is not a member id: 1-64 of A-Z a-z 0-9 . _ @ -, starting with a letter or digit. For scope "user" the id is your own member id.`);
  }
  return null;
}

/**
 * A handler whose ids are checked first and whose every failure is a coded
 * tool error.
 */
const guarded = (handler) => async (args) => {
  const bad = badRef(args.scope, args.id);
  if (bad) return bad;
  try {
    return await handler(args);
  } catch (error) {
    return failure("internal/error", `The tool failed (${error?.name ?? "Error"}); nothing more was done.`);
  }
};

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

const diagnosticLines = (diagnostics) =>
  (diagnostics ?? []).map((d) => `- ${d.severity} ${d.code}: ${d.message}${d.help ? ` (${d.help})` : ""}`).join("\n");

const usageLine = (u) => `${u.chars} of at most ${u.hard} characters${u.level === "ok" ? "" : ` (over the ${u.level} limit)`}`;

/**
 * The tools, as `[name, config, handler]`, for one caller.
 * @param {{ team: string, member: string, role: string }} who the key's identity
 * @param {(method: string, path: string, o?: { body?: unknown, headers?: Record<string, string> }) => Promise<{ status: number, json: any, text: string, headers: Headers }>} rest
 */
export function memoryTools(who, rest) {
  // A task memory follows the team rules.
  const rules = (s) => memdoc.writingRules({ scope: s === "user" ? "user" : "team" });
  const what = { team: "the team's shared memory", user: "your private memory", task: "a short-term memory of the team" };
  const notice = (s) => `Scope "${s}": ${what[s]}. A document is Markdown:\n${rules(s)}`;

  async function read({ scope: s, id: i }) {
    const got = await rest("GET", pathOf(who, s, i));
    if (got.status !== 200) return { problem: refused(got.json) };
    if (!isObject(got.json) || !Number.isInteger(got.json.revision) || !isObject(got.json.usage)) return { problem: unexpected(got) };
    return { memory: got.json };
  }

  /** A save's answer (`PUT` of memory `s` from `baseRevision`) as the tool's. */
  function saved(put, s, baseRevision) {
    if (put.status === 200 && (!isObject(put.json) || typeof put.json.status !== "string" || !isObject(put.json.usage))) return unexpected(put);
    if (put.status === 200) {
      const { status, revision, usage, diagnostics, dropped } = put.json;
      const warnings = diagnosticLines(diagnostics);
      const text =
        (status === "no_op" ? `Nothing changed: the memory stays at revision ${revision}.` : `Saved revision ${revision}; ${usageLine(usage)}.`) +
        (warnings ? `\nWarnings (saved anyway; fix them in a later save):\n${warnings}` : "") +
        (dropped?.length ? `\nLines that were not kept (${dropped.length}): ${dropped.join(" | ")}` : "");
      return answer(text, { status, revision, usage, diagnostics, dropped });
    }
    const problem = put.json ?? { code: "http/error", detail: put.text, status: put.status };
    if (put.status === 412) {
      return failure(problem.code, `Someone saved since revision ${baseRevision}: the memory is at revision ${problem.currentRevision}. Nothing was written. Call memory_read, apply your change to the current document, and save it with baseRevision ${problem.currentRevision}.`, { status: 412, currentRevision: problem.currentRevision });
    }
    if (put.status === 422) {
      const erase = (problem.diagnostics ?? []).some((d) => /erase/.test(d.code));
      const next = erase
        ? "Saving an empty document would erase the memory, which this tool does not do: send the whole document, with the entries that stay."
        : `Nothing was written. Fix these and save again:\n${diagnosticLines(problem.diagnostics)}\n\n${notice(s)}`;
      return failure(problem.code, `${problem.detail} ${next}`, { status: 422, diagnostics: problem.diagnostics });
    }
    return refused(problem);
  }

  return [
    [
      "memory_read",
      {
        title: "Read a memory",
        description:
          "Read one memory of your team's hub: its prompt block (the document as it is given to a model), its revision and its size. " +
          "Use it at the start of a task to know what the team decided, and before memory_save: a save names the revision it edited (baseRevision). A memory never saved is revision 0 and empty.",
        inputSchema: { scope, id },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      guarded(async (args) => {
        const { memory, problem } = await read(args);
        if (problem) return problem;
        const prompt = await rest("GET", `${pathOf(who, args.scope, args.id)}/prompt`);
        if (prompt.status !== 200) return refused(prompt.json);
        const { revision, usage, content, updatedAt, updatedBy } = memory;
        const head = `revision ${revision}; ${usageLine(usage)}${updatedBy ? `; last saved by ${updatedBy} at ${updatedAt}` : ""}.`;
        const body = revision === 0 ? "(This memory is empty: nothing was saved yet. Save with baseRevision 0 to create it.)" : prompt.text;
        return answer(`${head}\n\n${body}`, { revision, usage, prompt: prompt.text, content, updatedAt, updatedBy });
      }),
    ],
    [
      "memory_save",
      {
        title: "Save a memory",
        description:
          "Replace one memory with a whole new document (not a diff): use it to correct or remove entries; to add one, use memory_append instead. memory_read it first, change what needs to change, and send the full result with the revision you read as baseRevision. " +
          "The hub validates and plans the save exactly as for every other writer: a document that breaks the rules is rejected with what to fix, " +
          "a baseRevision that is no longer current is refused (read again, redo your change, save again), and emptying a memory is refused. Nothing is ever overwritten silently.\n\n" +
          `The rules of a memory document (the rule on personal sections is for team memories only: your user memory may hold them):\n${rules("team")}` +
          "- New entries carry today's date.",
        inputSchema: {
          scope,
          id,
          content: z.string().describe("The whole new document, in the format above."),
          baseRevision: z.number().int().min(0).describe("The revision you read with memory_read (0 to create a memory that does not exist yet)."),
        },
        // It replaces the document: an entry left out is removed (the
        // revision before stays in the history).
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      },
      guarded(async ({ scope: s, id: i, content, baseRevision }) => {
        const put = await rest("PUT", pathOf(who, s, i), { body: { content }, headers: { "if-match": `"${baseRevision}"` } });
        return saved(put, s, baseRevision);
      }),
    ],
    [
      "memory_append",
      {
        title: "Add an entry to a memory",
        description:
          "Add one entry (a fact, a decision, a convention) under a section of a memory, without reading or resending the document: use it whenever you learn something worth keeping; use memory_save only to correct or remove what is there. " +
          "The entry is dated today; a section that does not exist yet is added; an entry the memory already holds is not added twice. " +
          "It is saved like every other save (validated, and merged with whatever anyone saved meanwhile), so nothing someone else wrote is overwritten. " +
          "A team memory takes no personal preferences and never a secret.",
        inputSchema: {
          scope,
          id,
          section: z.string().min(1).max(200).describe('The section\'s title, e.g. "Decisions" or "Conventions" (without "##").'),
          text: z.string().min(1).max(2000).describe("The entry, one line, without its date."),
        },
        // Appending the same entry again changes nothing.
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      guarded(async ({ scope: s, id: i, section, text }) => {
        const title = section.trim().replace(/^#+\s*/, "");
        const line = text.trim().replace(/^[-*]\s+/, "");
        if (/[\r\n]/.test(title + line) || title === "" || line === "") {
          return failure("request/invalid-arguments", "section and text are one line each, not empty: call memory_append once per entry.");
        }
        const { memory, problem } = await read({ scope: s, id: i });
        if (problem) return problem;
        // The entry as a document of its own, merged with the memory as
        // both sides' additions: every entry of the memory stays.
        const today = new Date().toISOString().slice(0, 10);
        const merged = memdoc.merge("", memory.content, `## ${title}\n- ${today}: ${line}\n`);
        if (!merged.clean || merged.dropped.length > 0) {
          return failure("store/conflict", "The entry could not be added to the memory as it is; nothing was written. memory_read it and save the whole document with memory_save.");
        }
        if (merged.content === memdoc.render(memory.content)) {
          return answer(`The memory already holds this entry; nothing changed (revision ${memory.revision}).`, { status: "no_op", revision: memory.revision, usage: memory.usage });
        }
        const put = await rest("PUT", `${pathOf(who, s, i)}?onConflict=merge`, { body: { content: merged.content }, headers: { "if-match": `"${memory.revision}"` } });
        return saved(put, s, memory.revision);
      }),
    ],
    [
      "memory_recall",
      {
        title: "Recall from a memory",
        description:
          "The part of one memory that matters for a question, within a size budget: the most relevant entries (by the question's words and meaning, recency and section priority) as a smaller valid memory document, with why each was chosen. " +
          "Without scope and id, one recall across every memory you can read (the team's memories and your own user memory), each entry naming its memory. " +
          "Use it instead of memory_read when a memory is large and you need only what bears on the task at hand.",
        inputSchema: {
          scope: scope.optional(),
          id: id.optional(),
          query: z.string().max(2000).describe("What you need to know, in words that the entries would contain."),
          budget: z.number().int().min(1).max(100000).optional().describe("At most this many characters of recalled document (default 4000)."),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      guarded(async ({ scope: s, id: i, query, budget }) => {
        const params = new URLSearchParams({ q: query });
        if (budget !== undefined) params.set("budget", String(budget));
        if (s === undefined && i === undefined) {
          const got = await rest("GET", `/v1/teams/${who.team}/recall?${params}`);
          if (got.status !== 200) return refused(got.json);
          const recalled = got.json;
          if (!isObject(recalled) || !Array.isArray(recalled.selected) || !isObject(recalled.totals)) return unexpected(got);
          const lines = recalled.selected.map((item) => `- [${item.memory.scope}/${item.memory.id} · ${item.section}] ${item.text.replace(/^- /, "")}`).join("\n");
          const text = `${recalled.chars} characters recalled from ${recalled.totals.memories} memories (${recalled.totals.selected} of ${recalled.totals.items} items):\n\n${lines || "(no memory matches the query)"}`;
          return answer(text, recalledOnly(recalled));
        }
        if (s === undefined || i === undefined) return refused({ code: "request/invalid-arguments", detail: "Give both scope and id, or neither (a recall across every memory you can read)." });
        const got = await rest("GET", `${pathOf(who, s, i)}/recall?${params}`);
        if (got.status !== 200) return refused(got.json);
        const recalled = got.json;
        if (!isObject(recalled) || !isObject(recalled.totals) || typeof recalled.content !== "string") return unexpected(got);
        const why = (recalled.selected ?? []).map((item) => `- ${item.section}: ${item.text}${item.why?.terms?.length ? ` (matches ${item.why.terms.join(", ")})` : ""}`).join("\n");
        const text = `From revision ${recalled.revision}, ${recalled.chars} characters recalled (${recalled.totals.selected} of ${recalled.totals.items} items):\n\n${recalled.content || "(no memory matches the query)"}${why ? `\n\nWhy:\n${why}` : ""}`;
        return answer(text, recalledOnly(recalled));
      }),
    ],
    [
      "memory_history",
      {
        title: "A memory's history",
        description:
          "The saved revisions of one memory that the hub keeps, newest first: revision, when, who, size and the diagnostic codes of each save. Use it to see who changed a memory and when, e.g. after a save was refused because someone saved first.",
        inputSchema: { scope, id },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      guarded(async ({ scope: s, id: i }) => {
        const got = await rest("GET", `${pathOf(who, s, i)}/history`);
        if (got.status !== 200) return refused(got.json);
        if (!isObject(got.json) || !Array.isArray(got.json.entries)) return unexpected(got);
        const { entries } = got.json;
        const lines = entries.map((e) => `- revision ${e.revision} at ${e.at} by ${e.actor ?? "unknown"}: ${e.chars} characters (${e.delta >= 0 ? "+" : ""}${e.delta})${e.codes?.length ? `; ${e.codes.join(", ")}` : ""}`);
        return answer(lines.length ? lines.join("\n") : "No revisions: this memory was never saved.", { entries });
      }),
    ],
  ];
}
