// A deterministic, realistic memory document of about N code points, the
// input of the benchmarks: sections of dated entries, some legacy entries and
// notes, non-ASCII text. Byte for byte the output of the reference generator
// (Python's random.Random(7): MT19937 seeded with init_by_array, randint and
// choice by rejection sampling on getrandbits, random() from 53 bits).
//
//   node bench/gen_doc.mjs N > doc.md
import { pathToFileURL } from "node:url";

/** Python's random.Random(seed) for a small non-negative integer seed. */
class PyRandom {
  constructor(seed) {
    this.mt = new Uint32Array(624);
    this.index = 624;
    this.initByArray([seed >>> 0]);
  }

  initGenrand(s) {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < 624; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = 624;
  }

  initByArray(key) {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  uint32() {
    const mt = this.mt;
    if (this.index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** getrandbits(k) for 1 <= k <= 32. */
  bits(k) {
    return this.uint32() >>> (32 - k);
  }

  /** A uniform integer in [0, n), n >= 1. */
  below(n) {
    const k = 32 - Math.clz32(n);
    let r = this.bits(k);
    while (r >= n) r = this.bits(k);
    return r;
  }

  randint(a, b) {
    return a + this.below(b - a + 1);
  }

  choice(items) {
    return items[this.below(items.length)];
  }

  random() {
    const a = this.uint32() >>> 5;
    const b = this.uint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }
}

const HEADS = [
  "Product Decisions",
  "Engineering Conventions",
  "Project Facts",
  "Open Questions",
  "Current Priorities",
  "Architecture Notes",
  "Processes",
];
const WORDS = (
  "service deploy postgres team weekly standup release review latency budget owner oncall api " +
  "schema migration cache edge worker memory agent prompt limit customer launch roadmap 日本語 café 😀"
).split(" ");
const codePoints = (s) => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
};
const pad2 = (n) => String(n).padStart(2, "0");

/** The document of about `n` code points (cut at the last line break before the n-th). */
export function genDoc(n, seed = 7) {
  const r = new PyRandom(seed);
  const out = [];
  let size = 0;
  let hi = 0;
  while (size < n) {
    const h = HEADS[hi % HEADS.length] + (hi < HEADS.length ? "" : ` ${hi}`);
    hi++;
    const sec = [`## ${h}`];
    for (let count = r.randint(5, 25); count > 0; count--) {
      const d = `20${r.randint(20, 26)}-${pad2(r.randint(1, 12))}-${pad2(r.randint(1, 28))}`;
      const words = [];
      for (let w = r.randint(6, 18); w > 0; w--) words.push(r.choice(WORDS));
      const t = words.join(" ");
      if (r.random() > 0.1) sec.push(`- ${d}: ${t}`);
      else if (r.random() > 0.5) sec.push(`- (${d}) [fact] ${t}`);
      else sec.push(`  note: ${t}`);
    }
    const s = sec.join("\n");
    out.push(s);
    size += codePoints(s) + 2;
  }
  const doc = out.join("\n\n");
  // doc[:n] in code points, then everything before its last line break.
  let end = 0;
  for (let seen = 0; end < doc.length && seen < n; seen++) {
    const c = doc.charCodeAt(end);
    end += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
  }
  const cut = doc.slice(0, end);
  const last = cut.lastIndexOf("\n");
  return last < 0 ? cut : cut.slice(0, last);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const n = Number(process.argv[2]);
  if (!Number.isSafeInteger(n) || n < 0) {
    console.error("usage: node bench/gen_doc.mjs N");
    process.exit(2);
  }
  process.stdout.write(genDoc(n));
}
