// The hub's MCP tools: what an agent may do with a memory, described for a
// model. Every tool acts as the key's caller (route.js authenticated it)
// through the access rules (access.js) and the services (services/) that
// the REST routes of docs/HUB.md call, so keys, roles, isolation, bounds,
// validation, save plans, compare-and-swap, the audit and the metrics are
// exactly those of the REST API; nothing here decides them again. Each
// call counts as one request against the key's rate. A refusal becomes a
// tool error (`isError`) whose first words are the memdoc code and whose
// text says what to do next. Ids follow the REST rules (../ids.js) before
// anything is done, so that no id can name another memory ("." or "..").
import * as memdoc from "memdoc";
import { z } from "zod";

import { reachMemory, reachTask, requireRole } from "../access.js";
import { acting, auditRefused, charge } from "../caller.js";
import { MEMBER, MEMORY_ID } from "../ids.js";
import { asProblem } from "../problem.js";
import { memoryHistory, memoryPrompt, readMemory, recallMemory, saveMemory } from "../services/memories.js";
import { recallTeam } from "../services/team-recall.js";

const scope = z
  .enum(["team", "user", "task"])
  .describe('"team": the team\'s shared memory `id`. "user": your own private memory; its id is your member id (memory_read with any other id finds nothing). "task": a short-term memory of the team, by the team\'s rules, that expires a day after its last save.');
const id = z.string().min(1).max(128).describe("The memory's id, e.g. \"product\" for a team memory, or your member id for scope \"user\".");

/** A tool's successful answer: one text for the model, the same facts as structured content. */
const answer = (text, structured) => ({ content: [{ type: "text", text }], structuredContent: structured });

/** A recall's answer without its omitted items (`totals.omitted` counts them): as big as what the budget let through. */
const recalledOnly = ({ omitted: _omitted, ...recalled }) => recalled;

/** A tool error carrying the hub's problem code. */
function failure(code, text, extra = {}) {
  return { isError: true, content: [{ type: "text", text: `${code}: ${text}` }], structuredContent: { code, ...extra } };
}

/** A refusal (a problem's fields) as a tool error. */
const refused = (problem) => failure(problem.code, problem.detail, { status: problem.status });

/** What a service threw, as a problem's fields (`asProblem`'s: the REST API's answer to it). */
function problemOf(error) {
  const problem = asProblem(error);
  return { status: problem.status, code: problem.code, detail: problem.message, ...problem.extra };
}

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

const diagnosticLines = (diagnostics) =>
  (diagnostics ?? []).map((d) => `- ${d.severity} ${d.code}: ${d.message}${d.help ? ` (${d.help})` : ""}`).join("\n");

const usageLine = (u) => `${u.chars} of at most ${u.hard} characters${u.level === "ok" ? "" : ` (over the ${u.level} limit)`}`;

/**
 * The tools, as `[name, config, handler]`, for one caller.
 * @param {import("../context.js").Hub} hub
 * @param {import("../context.js").Caller} who the key's caller
 */
export function memoryTools(hub, who) {
  // A task memory follows the team rules.
  const rules = (s) => memdoc.writingRules({ scope: s === "user" ? "user" : "team" });
  const what = { team: "the team's shared memory", user: "your private memory", task: "a short-term memory of the team" };
  const notice = (s) => `Scope "${s}": ${what[s]}. A document is Markdown:\n${rules(s)}`;

  // The POST counted as the first call's request (route.js authenticated it).
  let calls = 0;

  /**
   * A tool's answer: each call after the POST's first one more request
   * against the key's rate (a JSON-RPC batch pays call by call), then its
   * ids checked (when it names a memory), then `handler`; every failure a
   * coded tool error.
   */
  async function answered(handler, args) {
    try {
      if (calls++ > 0) charge(hub.limiter, who.team, who.keyId);
      return (args.id === undefined ? null : badRef(args.scope, args.id)) ?? (await handler(args));
    } catch (error) {
      const problem = problemOf(error);
      if (problem.status === 429) hub.metrics.add("memdoc_rate_limited_total");
      return refused(problem);
    }
  }

  /** A tool's handler, its calls counted by outcome. */
  const tool = (name, handler) => async (args) => {
    const result = await answered(handler, args);
    hub.metrics.add("memdoc_mcp_tool_calls_total", { tool: name, outcome: result.isError ? "error" : "ok" });
    return result;
  };

  /**
   * The memory `s/i` as the route of `action` reaches it with at least the
   * role `need`, and the caller acting as that route (its audit entries).
   */
  async function reach(action, need, s, i) {
    const as = acting(who, action, `${s}/${i}`);
    if (s !== "task") return { as, memory: await reachMemory(hub, as, { team: who.team, scope: s, id: i }, { action, need }) };
    await requireRole(as, need);
    return { as, memory: await reachTask(hub, as, i) };
  }

  /**
   * A save of memory `s/i` (the PUT route's service) as the tool's answer;
   * a refusal is audited as the route audits it.
   */
  async function save(as, memory, s, content, o) {
    let put;
    try {
      put = await saveMemory(hub, as, memory, content, o);
    } catch (error) {
      await auditRefused(as, error);
      return refusedSave(problemOf(error), s, o.base);
    }
    const { status, revision, usage, diagnostics, dropped } = put;
    const warnings = diagnosticLines(diagnostics);
    const text =
      (status === "no_op" ? `Nothing changed: the memory stays at revision ${revision}.` : `Saved revision ${revision}; ${usageLine(usage)}.`) +
      (warnings ? `\nWarnings (saved anyway; fix them in a later save):\n${warnings}` : "") +
      (dropped?.length ? `\nLines that were not kept (${dropped.length}): ${dropped.join(" | ")}` : "");
    return answer(text, { status, revision, usage, diagnostics, dropped });
  }

  /** A refused save (from revision `baseRevision`) as the tool's error, with what to do next. */
  function refusedSave(problem, s, baseRevision) {
    if (problem.status === 412) {
      return failure(problem.code, `Someone saved since revision ${baseRevision}: the memory is at revision ${problem.currentRevision}. Nothing was written. Call memory_read, apply your change to the current document, and save it with baseRevision ${problem.currentRevision}.`, { status: 412, currentRevision: problem.currentRevision });
    }
    if (problem.status === 422) {
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
      tool("memory_read", async ({ scope: s, id: i }) => {
        const { as, memory } = await reach("read", "reader", s, i);
        // The read's block: the prompt route's, audited once as this read.
        const { loaded, block } = await memoryPrompt(hub, as, memory, {});
        const { revision, usage, content, updatedAt, updatedBy } = loaded;
        const head = `revision ${revision}; ${usageLine(usage)}${updatedBy ? `; last saved by ${updatedBy} at ${updatedAt}` : ""}.`;
        const body = revision === 0 ? "(This memory is empty: nothing was saved yet. Save with baseRevision 0 to create it.)" : block;
        return answer(`${head}\n\n${body}`, { revision, usage, prompt: block, content, updatedAt, updatedBy });
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
      tool("memory_save", async ({ scope: s, id: i, content, baseRevision }) => {
        const { as, memory } = await reach("save", "writer", s, i);
        return save(as, memory, s, content, { base: baseRevision });
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
      tool("memory_append", async ({ scope: s, id: i, section, text }) => {
        const title = section.trim().replace(/^#+\s*/, "");
        const line = text.trim().replace(/^[-*]\s+/, "");
        if (/[\r\n]/.test(title + line) || title === "" || line === "") {
          return failure("request/invalid-arguments", "section and text are one line each, not empty: call memory_append once per entry.");
        }
        const { as, memory: reached } = await reach("save", "writer", s, i);
        const { loaded: memory } = await readMemory(acting(who, "read", `${s}/${i}`), reached);
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
        return save(as, reached, s, merged.content, { base: memory.revision, merging: true });
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
      tool("memory_recall", async ({ scope: s, id: i, query, budget }) => {
        // The route's query parameters.
        const params = { q: query, ...(budget === undefined ? {} : { budget: String(budget) }) };
        if (s === undefined && i === undefined) {
          const recalled = await recallTeam(hub, acting(who, "recall", `team/${who.team}`), params);
          const lines = recalled.selected.map((item) => `- [${item.memory.scope}/${item.memory.id} · ${item.section}] ${item.text.replace(/^- /, "")}`).join("\n");
          const text = `${recalled.chars} characters recalled from ${recalled.totals.memories} memories (${recalled.totals.selected} of ${recalled.totals.items} items):\n\n${lines || "(no memory matches the query)"}`;
          return answer(text, recalledOnly(recalled));
        }
        if (s === undefined || i === undefined) return failure("request/invalid-arguments", "Give both scope and id, or neither (a recall across every memory you can read).");
        const { as, memory } = await reach("recall", "reader", s, i);
        const recalled = await recallMemory(hub, as, memory, params);
        const why = recalled.selected.map((item) => `- ${item.section}: ${item.text}${item.why?.terms?.length ? ` (matches ${item.why.terms.join(", ")})` : ""}`).join("\n");
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
      tool("memory_history", async ({ scope: s, id: i }) => {
        const { as, memory } = await reach("history", "reader", s, i);
        const entries = await memoryHistory(as, memory);
        const lines = entries.map((e) => `- revision ${e.revision} at ${e.at} by ${e.actor ?? "unknown"}: ${e.chars} characters (${e.delta >= 0 ? "+" : ""}${e.delta})${e.codes?.length ? `; ${e.codes.join(", ")}` : ""}`);
        return answer(lines.length ? lines.join("\n") : "No revisions: this memory was never saved.", { entries });
      }),
    ],
  ];
}
