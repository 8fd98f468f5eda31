// A text argument is converted near the long text last read from options,
// and a store's update near the content it saved or loaded last
// (bindings/wasm/src/wasm/text/kept.rs, `Kept::near`): what the two share at their start and
// end is copied from the kept conversion, only the rest converted. Every
// call must still see exactly the text it was given (`readByRust`, in
// helpers.mjs, shows what Rust read).
import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStore, recall, validate } from "memdoc";
import { memoryHost } from "memdoc/adapters/memory";
import { readByRust } from "./helpers.mjs";

/** A canonical memory: `sections` sections of dated entries, each entry ending in `word`. */
function memory(sections, word) {
  return Array.from({ length: sections }, (_, s) =>
    [`## Part ${s}`, ...Array.from({ length: 3 }, (_, i) => `- 2025-01-0${i + 1}: fact ${s}.${i} ${word}`)].join("\n"),
  ).join("\n\n");
}

/** What Rust read of `text`. */
const read = (text) => readByRust(recall, text);

/**
 * The edits of `p` to check, each canonical when `p` is: by name. Those of
 * a surrogate pair are made at its first emoji (at its first `end` when it
 * has none).
 */
function edits(p) {
  const at = (k) => p.indexOf(k);
  const mark = p.includes("😀") ? "😀" : "end";
  const emoji = at(mark);
  return {
    "the same text made apart": [...p].join(""),
    "a line added at the end": `${p}\n- 2025-02-01: added`,
    "a section added at the start": `## First\n- 2025-02-01: first\n\n${p}`,
    "one character changed in the middle": p.slice(0, at("fact 3.1")) + "fict" + p.slice(at("fact 3.1") + 4),
    "the low half of a surrogate pair changed": p.slice(0, emoji + 1) + "\ude01" + p.slice(emoji + 2),
    "the high half of a surrogate pair changed": p.slice(0, emoji) + "\ud83e" + p.slice(emoji + 1),
    "a pair split by a lone low surrogate": p.slice(0, emoji + 1) + "\udc00" + p.slice(emoji + 1),
    "a lone high surrogate before a pair": p.slice(0, emoji) + "\ud800" + p.slice(emoji),
    "a pair removed": p.slice(0, emoji) + p.slice(emoji + 2),
    "the end cut after a high surrogate": p.slice(0, p.lastIndexOf(mark) + 1),
    "the text a prefix of the kept one": p.slice(0, at("## Part 5") - 2),
    "most of it new": memory(9, "other"),
  };
}

/**
 * `p` with a lone high and a lone low surrogate, and the edits that make
 * each half of a pair: where the kept text's U+FFFD for the lone unit must
 * not be copied.
 */
function lone(p) {
  const q = p.replace("end", "\ud83d end \ude00");
  const [high, low] = [q.indexOf("\ud83d end"), q.indexOf("end \ude00") + 4];
  return [
    q,
    {
      ...edits(q),
      "a lone high surrogate made a pair": q.slice(0, high + 1) + "\ude00" + q.slice(high + 1),
      "a lone low surrogate made a pair": q.slice(0, low) + "\ud83d" + q.slice(low),
    },
  ];
}

for (const [kind, [p, cases]] of [
  ["non-ASCII", [memory(9, "é 記憶 😀 end"), edits(memory(9, "é 記憶 😀 end"))]],
  ["ASCII but for one pair", [memory(9, "plain 😀 end"), edits(memory(9, "plain 😀 end"))]],
  ["ASCII", [memory(9, "plain end"), edits(memory(9, "plain end"))]],
  ["lone surrogates", lone(memory(9, "é 記憶 😀 end"))],
]) {

  test(`${kind}: text arguments read near the kept previous are read as given`, () => {
    for (const [name, text] of Object.entries(cases)) {
      // Kept: the previous just read. Then far: a long previous that shares nothing.
      validate("## Z\n- 2025-01-01: z", { previous: p });
      const near = read(text);
      validate("## Z\n- 2025-01-01: z", { previous: "#".repeat(p.length) });
      const far = read(text);
      assert.equal(near, text.toWellFormed(), name);
      assert.equal(far, near, name);
    }
  });

  test(`${kind}: a store's updates read near its last content are saved as given`, async () => {
    const store = new MemoryStore(memoryHost());
    const ref = { scope: "team", id: "near" };
    let baseRevision = 0;
    const save = async (text) => {
      const outcome = await store.save(ref, text, { limits: { soft: 100_000, hard: 200_000 }, baseRevision });
      baseRevision = outcome.revision;
      return outcome;
    };
    for (const [name, text] of Object.entries(cases)) {
      // The store's kept content is `p` again before each edit: the
      // update it saved last, lone surrogates and all.
      assert.equal((await save(p)).content, p.toWellFormed());
      const outcome = await save(text);
      assert.equal(outcome.status, "saved", name);
      assert.equal(outcome.content, text.toWellFormed(), name);
      assert.equal((await store.load(ref)).content, text.toWellFormed(), name);
    }
  });
}

/**
 * A memory of `sections` sections of three entries whose texts are words
 * drawn by `next` from characters of one, two and four bytes and lone
 * surrogates, and the offsets where each entry's text starts and ends.
 */
function drawn(next, sections) {
  const chars = ["a", "Z", "7", "é", "ß", "記", "憶", "😀", "🧠", "\ud83d", "\ude00", "\udbff"];
  const word = () => Array.from({ length: 1 + next(6) }, () => chars[next(chars.length)]).join("");
  let text = "";
  const texts = [];
  for (let s = 0; s < sections; s++) {
    text += `${s ? "\n\n" : ""}## Part ${s}`;
    for (let i = 1; i <= 3; i++) {
      text += `\n- 2025-01-0${i}: `;
      const start = text.length;
      text += Array.from({ length: 1 + next(4) }, word).join(" ");
      texts.push([start, text.length]);
    }
  }
  return { text, texts, word };
}

test("random edits of entry texts, surrogate halves split and joined, are read as given near the kept text", async () => {
  // A small deterministic generator (a linear congruential one).
  let seed = 20261203;
  const next = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const store = new MemoryStore(memoryHost());
  const ref = { scope: "team", id: "random" };
  let baseRevision = 0;
  const save = async (text) => {
    const outcome = await store.save(ref, text, { limits: { soft: 100_000, hard: 200_000 }, baseRevision });
    assert.equal(outcome.status, "saved");
    baseRevision = outcome.revision;
    return outcome.content;
  };
  for (let memory = 0; memory < 12; memory++) {
    const { text: p, texts, word } = drawn(next, 6 + next(10));
    assert.ok(p.length >= 128, "long enough to be kept");
    for (let k = 0; k < 25; k++) {
      // One to three splices, each a word in place of up to 8 units of an
      // entry's text after its first (so the memory stays canonical),
      // anywhere in it: between the halves of a pair too.
      let text = p;
      const spots = texts.slice().sort(() => next(3) - 1).slice(0, 1 + next(3)).sort((a, b) => b[0] - a[0]);
      for (const [start, end] of spots) {
        const from = start + 1 + next(end - start);
        const to = Math.min(end, from + next(9));
        text = text.slice(0, from) + word() + text.slice(to);
      }
      const expected = text.toWellFormed();
      validate("## Z\n- 2025-01-01: z", { previous: p });
      assert.equal(read(text), expected, `memory ${memory}, edit ${k}: read near the previous`);
      assert.equal(await save(p), p.toWellFormed());
      assert.equal(await save(text), expected, `memory ${memory}, edit ${k}: saved near the content`);
      assert.equal((await store.load(ref)).content, expected, `memory ${memory}, edit ${k}: loaded`);
    }
  }
});
