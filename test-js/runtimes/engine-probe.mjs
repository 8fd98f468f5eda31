// What every runtime test asks of the engine, runtime-agnostic like
// ../host-contract.mjs: Chromium, workerd and Deno import this same module
// next to the package they loaded, and Node imports it too. `probe` returns
// the failed checks plus every output it computed, so the Node side can also
// require each runtime to answer exactly what the Node build answers for all
// the conformance inputs (which test-js/conformance.test.mjs checks against
// the expected results).

function check(failures, ok, what) {
  if (!ok) failures.push(what);
}

// The previous team memory and a reply that adds a personal heading after
// two emoji: UTF-16 offsets and UTF-8 byte offsets differ by 4 there.
const team = "## Team Notes 🎉\n- 2025-01-01: Ship 😀 on Monday";
const reply = `${team}\n\n## Preferences\n- 2025-03-16: Alex likes dark mode 🌙`;

const crlf = "## Notes\r\n- 2025-01-02: tidy\r\n\r\n\r\n## Más 😀\r\n- 2025-01-03: ok  \r\n";
const crlfCanonical = "## Notes\n- 2025-01-02: tidy\n\n## Más 😀\n- 2025-01-03: ok";

/** The output of one conformance case's operation, as plain JSON. */
function runCase(m, { op, input }) {
  switch (op) {
    case "render":
      return m.render(input.text);
    case "normalizeHeading":
      return m.normalizeHeading(input.title);
    case "entry":
      return m.parse(`## T\n${input.line}`);
    case "isHeading":
      return m.parse(input.line);
    case "validate":
      return m.validate(input.text, { scope: input.scope, previous: input.previous });
    case "planSave":
      return m.planSave(input.text, { scope: input.scope, previous: input.previous });
    case "injectionBlock":
      return m.injectionBlock(input.content, { scope: input.scope, userName: input.userName });
    default:
      throw new Error(`unknown conformance op ${op}`);
  }
}

/**
 * @param {typeof import("memdoc")} m the package, already initialised
 * @param {{ version: string, cases: { id: string, op: string, input: any }[] }} expected
 *   the version the package should report and the conformance cases to run
 * @returns {{ failures: string[], outputs: Record<string, unknown> }}
 */
export function probe(m, { version, cases }) {
  const f = [];
  check(f, m.version() === version, `version() should be ${version}, got ${m.version()}`);

  const report = m.validate(reply, { scope: "team", previous: team });
  const d = report.diagnostics[0];
  check(f, report.ok === false && report.diagnostics.length === 1, `one diagnostic expected, got ${JSON.stringify(report.diagnostics)}`);
  check(f, d?.code === "scope/personal-heading" && d?.severity === "error", `scope/personal-heading expected, got ${d?.code}`);
  const at = reply.indexOf("## Preferences");
  const r = d?.range;
  check(
    f,
    r?.start.offset === at && r?.end.offset === at + "## Preferences".length,
    `the range should be UTF-16 offsets ${at}..${at + 14}, got ${JSON.stringify(r)}`,
  );
  check(f, r?.start.line === 4 && r?.start.column === 1 && r?.end.column === 15, `line 4, columns 1..15 expected, got ${JSON.stringify(r)}`);
  check(f, r && reply.slice(r.start.offset, r.end.offset) === "## Preferences", "the range should cover the heading");
  check(f, m.validate(reply, { previous: team }).ok === true, "user scope allows personal headings");
  check(f, report.canonical === reply && report.usage.chars === [...reply].length, `canonical and code-point usage, got ${JSON.stringify(report.usage)}`);

  const rendered = m.render(crlf);
  check(f, rendered === crlfCanonical, `render should canonicalise CRLF, got ${JSON.stringify(rendered)}`);
  check(f, m.render(rendered) === rendered, "render should be idempotent");

  const plan = m.planSave(reply, { scope: "team", previous: team });
  check(f, plan.status === "rejected" && plan.content === team && plan.changed === false, `a rejected save keeps the previous content, got ${plan.status}`);

  let error;
  try {
    m.validate("## A", { scope: "everyone" });
  } catch (e) {
    error = e;
  }
  check(f, error instanceof Error && error.code === "options/invalid-scope", `a bad scope should throw options/invalid-scope, got ${error?.code ?? error}`);
  check(f, m.diagnosticCodes().includes("scope/personal-heading"), "diagnosticCodes() should list scope/personal-heading");

  const outputs = {};
  for (const c of cases) {
    try {
      outputs[c.id] = runCase(m, c);
    } catch (e) {
      outputs[c.id] = { threw: String(e?.code ?? e) };
    }
  }
  return { failures: f, outputs };
}
