// Every field the package's declarations (pkg/memdoc.d.ts, generated from
// the options types) give an options type is read by the export that takes
// it, at every level: the package reads options by name
// (bindings/wasm/src/wasm/options.rs), and a field it did not read would be ignored
// without a word. For each field a symbol, a value of no option's type, is
// passed there alone, and the error must be `options/invalid` naming that
// field's place (`limits.soft`, `policies[0].section`).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as memdoc from "memdoc";
import { memoryHost } from "memdoc/adapters/memory";
import { pkgDir, rejection, thrown } from "./helpers.mjs";

const declarations = readFileSync(join(pkgDir, "memdoc.d.ts"), "utf8")
  .replace(/\/\*[\s\S]*?\*\//g, "")
  .replace(/\/\/.*$/gm, "");

/** The text from `open` (an index of "{") to its matching "}", both excluded. */
function block(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === "{") depth += 1;
    if (text[i] === "}" && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error("unbalanced braces");
}

/** `text` split at `separator` where no brace or parenthesis is open. */
function splitTop(text, separator) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    if ("{(<".includes(text[i])) depth += 1;
    if ("})>".includes(text[i])) depth -= 1;
    if (text[i] === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** The fields of a body of `{ ... }`: `{ name, type, required }`. */
function fieldsOf(body) {
  return splitTop(body, ";").map((field) => {
    const m = /^(\w+)(\??)\s*:\s*([\s\S]+)$/.exec(field);
    assert.ok(m, `a field declaration: ${field}`);
    return { name: m[1], required: m[2] === "", type: m[3].trim() };
  });
}

/** Every declaration of the interface `name` (they merge), fields together. */
function interfaceFields(name) {
  const found = [];
  const pattern = new RegExp(`export interface ${name}\\b(?:\\s+extends\\s+([\\w, ]+))?\\s*\\{`, "g");
  for (const m of declarations.matchAll(pattern)) {
    found.push(...fieldsOf(block(declarations, m.index + m[0].length - 1)));
    for (const base of (m[1] ?? "").split(",").map((s) => s.trim()).filter(Boolean)) found.push(...interfaceFields(base));
  }
  assert.ok(found.length > 0, `interface ${name} should be declared`);
  return found;
}

/**
 * What a type holds inside: `{ fields }` for an object type, `{ item }`
 * for a list, `null` for a leaf.
 */
function shapeOf(type) {
  const t = splitTop(type, "|").filter((part) => part !== "null")[0].replace(/^\((.*)\)$/s, "$1").trim();
  if (t.startsWith("{")) return { fields: fieldsOf(block(t, 0)) };
  if (t.endsWith("[]")) return { item: shapeOf(t.slice(0, -2)) };
  const named = /^(?:Partial<(\w+)>|(\w+))$/.exec(t);
  const name = named && (named[1] ?? named[2]);
  if (name && new RegExp(`export interface ${name}\\b`).test(declarations)) return { fields: interfaceFields(name) };
  return null;
}

/** A valid value of a leaf type, for the required fields beside the one tried. */
function filler(type) {
  if (type === "number") return 1;
  if (type === "Scope") return "user";
  if (type === "string") return "a";
  throw new Error(`no filler for the required type ${type}`);
}

/**
 * Every place in an object of `fields`, each as `{ path, value }`: the
 * options with a symbol at that place and the required fields around it
 * filled in.
 */
function places(fields) {
  const out = [];
  const around = (except) =>
    Object.fromEntries(fields.filter((f) => f.required && f.name !== except).map((f) => [f.name, filler(f.type)]));
  for (const field of fields) {
    out.push({ path: field.name, value: { ...around(field.name), [field.name]: Symbol(field.name) } });
    const inner = shapeOf(field.type);
    const nested = (shape, path, wrap) => {
      if (shape?.fields) {
        for (const p of places(shape.fields)) out.push({ path: `${path}.${p.path}`, value: wrap(p.value) });
      } else if (shape?.item !== undefined) {
        out.push({ path: `${path}[0]`, value: wrap([Symbol("item")]) });
        nested(shape.item, `${path}[0]`, (v) => wrap([v]));
      }
    };
    nested(inner, field.name, (v) => ({ ...around(field.name), [field.name]: v }));
  }
  return out;
}

/** The options type of the exported function `name`'s last parameter. */
function optionsOf(name) {
  const m = new RegExp(`export function ${name}\\(([^)]*)\\)`).exec(declarations);
  assert.ok(m, `${name} should be declared`);
  const last = m[1].split(",").at(-1);
  return /:\s*(?:Partial<)?(\w+)/.exec(last)[1];
}

const text = "## A\n- 2025-01-01: a";
const calls = {
  validate: (o) => memdoc.validate(text, o),
  planSave: (o) => memdoc.planSave(text, o),
  injectionBlock: (o) => memdoc.injectionBlock(text, o),
  writingRules: (o) => memdoc.writingRules(o),
  usage: (o) => memdoc.usage(text, o),
  compact: (o) => memdoc.compact(text, o),
  recall: (o) => memdoc.recall(text, "a", o),
  expire: (o) => memdoc.expire(text, o),
};

function check(what, error, path) {
  assert.equal(error.code, "options/invalid", `${what}: ${error.message}`);
  assert.ok(error.message.includes(`\`${path}\``), `${what}: the message should name ${path}: ${error.message}`);
}

test("every declared field of every export's options is read", () => {
  let tried = 0;
  for (const [name, call] of Object.entries(calls)) {
    for (const { path, value } of places(interfaceFields(optionsOf(name)))) {
      check(`${name} ${path}`, thrown(() => call(value)), path);
      tried += 1;
    }
  }
  // validate 5 fields and limits' 2; planSave 1 more; and so on: the count
  // only guards against a parse of the declarations that found nothing.
  assert.ok(tried >= 40, `${tried} places tried`);
});

test("every declared field of the store's options and references is read", async () => {
  const ref = { scope: "user", id: "alice" };
  const store = new memdoc.MemoryStore(memoryHost());
  const methods = {
    "new MemoryStore": ["StoreOptions", async (o) => new memdoc.MemoryStore(memoryHost(), o)],
    save: ["StoreSaveOptions", (o) => store.save(ref, text, o)],
    revert: ["StoreSaveOptions", (o) => store.revert(ref, 1, o)],
    sweep: ["SweepOptions", (o) => store.sweep(ref, o)],
    load: ["MemoryRef", (r) => store.load(r)],
    history: ["MemoryRef", (r) => store.history(r)],
  };
  let tried = 0;
  for (const [name, [type, call]] of Object.entries(methods)) {
    for (const { path, value } of places(interfaceFields(type))) {
      check(`${name} ${path}`, await rejection(call(value)), path);
      tried += 1;
    }
  }
  assert.ok(tried >= 20, `${tried} places tried`);
});
