// The conflict's choices: for each conflict of the merge, a choice of
// version that rewrites the merged text the person reviews (the ways out of
// the conflict are in conflict-exits.js).

import { state } from "./session.js";
import { byTestId, el, replaceChildren } from "./dom.js";

const KIND = {
  entry: "one entry changed differently on both sides, or changed on one and removed on the other",
  lines: "the same lines were changed differently on both sides",
  "section-removed": "removed on one side and changed on the other",
  title: "the title was rewritten differently on both sides",
};

const SIDES = [["ours", "Yours"], ["theirs", "Theirs"], ["base", "Base"]];

/** Where the lines of section `title` end in `text` (an insertion point). */
function sectionEnd(text, title) {
  const heading = text.indexOf(`## ${title}\n`);
  if (heading < 0) return text.length;
  const next = text.indexOf("\n\n## ", heading);
  return next < 0 ? text.length : next;
}

/**
 * In the merged text, put `to`'s lines where `from`'s are: the choice of
 * a version for one conflict. False when `from`'s lines are not in the text
 * any more (the person edited them): then nothing changes.
 */
function replaceVersion(box, conflict, from, to) {
  const text = box.value;
  const was = (conflict[from]?.lines ?? []).join("\n");
  const now = (conflict[to]?.lines ?? []).join("\n");
  if (was === "") {
    const at = sectionEnd(text, conflict.section);
    box.value = now === "" ? text : `${text.slice(0, at)}\n${now}${text.slice(at)}`;
    return true;
  }
  const at = text.indexOf(was);
  if (at < 0) return false;
  const after = at + was.length;
  // A removed version takes its line break with it.
  const end = now === "" && text[after] === "\n" ? after + 1 : after;
  box.value = `${text.slice(0, at)}${now}${text.slice(end)}`;
  return true;
}

function versionText(side) {
  if (side === null) return "(removed)";
  return side.lines.length ? side.lines.join("\n") : "(removed)";
}

/**
 * The merge's conflicts, each with its three versions and a choice of one
 * (yours by default, as the merged text has it). A choice rewrites the
 * merged text only while the person has not typed in it: what they typed
 * stays until they change it.
 */
export function renderChoices(merged) {
  const box = byTestId("conflict-result");
  box.dataset.edited = "false";
  box.oninput = () => { box.dataset.edited = "true"; };
  const items = merged.conflicts.map((c, k) => {
    let chosen = "ours";
    const note = el("p", { class: "note", "data-testid": "conflict-choice-note", hidden: true });
    const choice = (side, label) => el("label", { class: "choice", "data-side": side },
      el("input", {
        type: "radio", name: `conflict-${k}`, value: side, checked: side === "ours",
        "data-testid": `conflict-choose-${side}`,
        onChange: () => {
          if (box.dataset.edited !== "true" && replaceVersion(box, c, chosen, side)) {
            chosen = side;
            note.hidden = true;
          } else {
            note.textContent = "You edited this part of the merged text: change it there.";
            note.hidden = false;
          }
        },
      }),
      el("span", { text: label }),
      el("pre", { class: "version", text: versionText(c[side]) }));
    return el("li", { "data-testid": "conflict-item", "data-kind": c.kind },
      el("p", {}, el("strong", { text: c.section }), `: ${KIND[c.kind] ?? c.kind}`),
      el("div", { class: "choices" }, SIDES.filter(([side]) => side !== "base" || c.base !== null).map(([side, label]) => choice(side, label))),
      note);
  });
  replaceChildren(byTestId("conflict-detail"),
    items.length ? el("ul", { class: "conflict-items" }, items) : null);
  byTestId("conflict-detail").hidden = items.length === 0;
}
