// Writes src/recall/word_break/table.rs: the Word_Break property of every
// character, and whether it is Extended_Pictographic, as recall's word
// segmentation (src/recall/word_break/) needs them, in runs, with the
// classes (`Class`) the runs' values name.
//
//   node scripts/word-breaks.mjs
//
// The data is that of the `unicode-segmentation` crate the tests compare the
// segmentation with (a dev-dependency, so in Cargo's registry once `cargo
// test` has fetched it): its tables of Word_Break and Extended_Pictographic,
// read from its source. Run this when that crate is updated (a new Unicode
// version); the tests of src/recall/word_break/ fail until the table is written
// again.
// The table holds each run of characters of the same value by its distance
// from the run before (16 bits) and its value (8 bits: the number of its
// class in `CLASSES` below, and the bit `PICTOGRAPHIC` when it is
// Extended_Pictographic), in two lists, which compress to a third of a list
// of 32-bit starts; the module makes the list it searches from them when it
// first needs it.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, "src/recall/word_break/table.rs");

// The classes the segmentation tells apart, in the order of their numbers
// in the table; written as the Rust enum `Class`. Format characters behave
// as Extend ones, and LF as the other line breaks (a CR before it is told by
// the character), in every rule the segmentation applies (UAX #29, WB3 to
// WB4).
const CLASSES = [
  "Any",
  "ALetter",
  "HebrewLetter",
  "Numeric",
  "Katakana",
  "ExtendNumLet",
  "MidLetter",
  "MidNum",
  "MidNumLet",
  "SingleQuote",
  "DoubleQuote",
  "Extend",
  "Zwj",
  "RegionalIndicator",
  "WSegSpace",
  "Cr",
  "Newline",
];
// The bit of a value that is set for an Extended_Pictographic character;
// the bits below it are the class's number.
const PICTOGRAPHIC = 32;
if (CLASSES.length > PICTOGRAPHIC) throw new Error("the classes' numbers do not fit below PICTOGRAPHIC");

const FROM_CRATE = {
  WC_Any: "Any",
  WC_ALetter: "ALetter",
  WC_Hebrew_Letter: "HebrewLetter",
  WC_Numeric: "Numeric",
  WC_Katakana: "Katakana",
  WC_ExtendNumLet: "ExtendNumLet",
  WC_MidLetter: "MidLetter",
  WC_MidNum: "MidNum",
  WC_MidNumLet: "MidNumLet",
  WC_Single_Quote: "SingleQuote",
  WC_Double_Quote: "DoubleQuote",
  WC_Extend: "Extend",
  WC_Format: "Extend",
  WC_ZWJ: "Zwj",
  WC_Regional_Indicator: "RegionalIndicator",
  WC_WSegSpace: "WSegSpace",
  WC_CR: "Cr",
  WC_LF: "Newline",
  WC_Newline: "Newline",
};

const metadata = JSON.parse(
  execFileSync("cargo", ["metadata", "--format-version", "1"], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 }),
);
const crate = metadata.packages.find((p) => p.name === "unicode-segmentation");
if (!crate) throw new Error("unicode-segmentation is not among the crate's dependencies");
const source = readFileSync(join(dirname(crate.manifest_path), "src/tables.rs"), "utf8");
const version = source.match(/pub const UNICODE_VERSION: \(u64, u64, u64\) = \((\d+), (\d+), (\d+)\);/);
if (!version) throw new Error("no UNICODE_VERSION in unicode-segmentation's tables");

/** The `(lo, hi, CATEGORY)` triples of the table named `name`. */
function ranges(name) {
  const start = source.indexOf(`const ${name}: &[(char, char, `);
  if (start < 0) throw new Error(`no table ${name}`);
  const body = source.slice(start, source.indexOf("];", start));
  const found = [...body.matchAll(/\('\\u\{([0-9a-f]+)\}',\s*'\\u\{([0-9a-f]+)\}',\s*(\w+)\)/g)].map((m) => [
    parseInt(m[1], 16),
    parseInt(m[2], 16),
    m[3],
  ]);
  const entries = (body.match(/\('/g) || []).length;
  if (found.length !== entries) throw new Error(`${name}: read ${found.length} of ${entries} entries`);
  return found;
}

const LAST = 0x10ffff;
const klass = new Uint8Array(LAST + 1);
for (const [lo, hi, cat] of ranges("word_cat_table")) {
  const name = FROM_CRATE[cat];
  if (name === undefined) throw new Error(`unknown Word_Break value ${cat}`);
  klass.fill(CLASSES.indexOf(name), lo, hi + 1);
}
const pictographic = new Uint8Array(LAST + 1);
for (const [lo, hi, cat] of ranges("emoji_cat_table")) {
  if (cat === "EC_Extended_Pictographic") pictographic.fill(1, lo, hi + 1);
}

// Each run of characters with the same class and Extended_Pictographic, by
// how far its first character is from the last run's (at most 65,535: a
// longer distance is made of runs of the same value) and that value.
const distances = [];
const values = [];
let last = 0;
for (let c = 0; c <= LAST; c++) {
  const value = (pictographic[c] ? PICTOGRAPHIC : 0) | klass[c];
  if (c > 0 && value === values[values.length - 1]) continue;
  for (; c - last > 0xffff; last += 0xffff) {
    distances.push(0xffff);
    values.push(values[values.length - 1]);
  }
  distances.push(c - last);
  values.push(value);
  last = c;
}

const rows = (numbers, width) => {
  const lines = [];
  for (let k = 0; k < numbers.length; k += width) lines.push("    " + numbers.slice(k, k + width).join(", ") + ",");
  return lines.join("\n");
};
writeFileSync(
  out,
  `// Written by scripts/word-breaks.mjs from unicode-segmentation ${crate.version}'s tables
// (Unicode ${version[1]}.${version[2]}.${version[3]}): do not edit.

/// A character's \`Word_Break\` value, as the segmentation tells them apart:
/// Format characters are \`Extend\`, LF is \`Newline\` (CR LF is told by the
/// character).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
${CLASSES.map((name) => `    ${name},`).join("\n")}
}

/// The classes by their numbers in [\`VALUES\`].
pub(super) const CLASSES: [Class; ${CLASSES.length}] = [
${CLASSES.map((name) => `    Class::${name},`).join("\n")}
];

/// The bit of a value in [\`VALUES\`] that is set for an
/// \`Extended_Pictographic\` character; the bits below it are the number of
/// its class in [\`CLASSES\`].
pub(super) const PICTOGRAPHIC: u8 = ${PICTOGRAPHIC};

/// The Unicode version of the table.
#[cfg(test)]
pub(super) const UNICODE_VERSION: (u64, u64, u64) = (${version[1]}, ${version[2]}, ${version[3]});

/// Every run of characters with the same class and \`Extended_Pictographic\`:
/// how far its first character is from the one of the run before.
#[rustfmt::skip]
pub(super) const DISTANCES: [u16; ${distances.length}] = [
${rows(distances, 16)}
];

/// Each run's value: the number of its class, with [\`PICTOGRAPHIC\`] when
/// it is \`Extended_Pictographic\`.
#[rustfmt::skip]
pub(super) const VALUES: [u8; ${values.length}] = [
${rows(values, 24)}
];
`,
);
console.log(`${out}: ${distances.length} runs (Unicode ${version[1]}.${version[2]}.${version[3]})`);
