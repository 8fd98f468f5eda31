// The ceiling of WebAssembly's SIMD against the CPU's own vectors, on this
// machine, in one run: the most multiply-adds per second (GFLOP/s, a
// multiply-add counted as two operations) a loop does in Node from
// registers, and in the shape of the MiniLM embedder's matrix-product kernel
// (embedders/bert/src/linear.rs: four rows by eight outputs, two weight
// vectors and four broadcast inputs loaded per input value, from a panel
// that stays in cache), with `f32x4.mul` then `f32x4.add` and, where the
// host runs Relaxed SIMD (a child Node with --experimental-wasm-relaxed-simd
// on Node 20), with `f32x4.relaxed_madd`; beside the native loops of
// bench/simd_peak.rs (4-lane SSE multiply then add, 8-lane
// AVX2 and 16-lane AVX-512 fused multiply-add). The modules are written
// here in WebAssembly's text format and assembled by binaryen (npm). CPU
// time, best of 5; about half a minute.
//
//   node bench/simd_peak.mjs
import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const ITERATIONS = 20_000_000;
/** Input values per pass over the kernel's panel (MiniLM's hidden size). */
const K = 384;
const PASSES = 40_000;

const cpuS = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

const range = (n) => [...Array(n).keys()];
const madd = (relaxed, acc, a, b) => (relaxed ? `(f32x4.relaxed_madd ${a} ${b} ${acc})` : `(f32x4.add ${acc} (f32x4.mul ${a} ${b}))`);

/**
 * From registers, as bench/simd_peak.rs: multiply then add as seven chains of
 * products and seven of sums (fifteen registers with `y`, all V8 leaves a
 * function on x86-64); fused, twelve chains `acc = acc · y + x`.
 */
function registersLoop(relaxed) {
  const chains = relaxed ? 12 : 7;
  const locals = range(chains).map((i) => `(local $a${i} v128) (local $x${i} v128)`).join(" ");
  const init = range(chains).map((i) => `(local.set $x${i} (f32x4.splat (f32.const 1e-4))) (local.set $a${i} (local.get $x${i}))`).join("\n");
  const step = range(chains)
    .map((i) =>
      relaxed
        ? `(local.set $a${i} (f32x4.relaxed_madd (local.get $a${i}) (local.get $y) (local.get $x${i})))`
        : `(local.set $x${i} (f32x4.mul (local.get $x${i}) (local.get $y))) (local.set $a${i} (f32x4.add (local.get $a${i}) (local.get $x${i})))`,
    )
    .join("\n");
  const sum = range(chains).reduce((s, i) => `(f32.add ${s} (f32x4.extract_lane 0 (local.get $a${i})))`, "(f32.const 0)");
  return {
    flops: ITERATIONS * chains * 8,
    text: `(module
      (memory 1)
      (func (export "run") (param $n i32) (result f32) (local $y v128) ${locals}
        (local.set $y (f32x4.splat (f32.const 0.9999)))
        ${init}
        (loop $l ${step}
          (br_if $l (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
        ${sum}))`,
    arg: ITERATIONS,
  };
}

/**
 * The kernel's shape: for each of K input values, two weight vectors (eight
 * outputs) and four rows' values broadcast, eight products added into
 * eight accumulators; the panel (K × 8 floats) and the rows' packed values
 * (K × 4) stay in cache, the pass repeated.
 */
function kernelLoop(relaxed) {
  const acc = range(8).map((i) => `(local $c${i} v128)`).join(" ");
  const body = [
    `(local.set $w0 (v128.load (local.get $w))) (local.set $w1 (v128.load offset=16 (local.get $w)))`,
    ...range(4).map((r) => `(local.set $s${r} (v128.load32_splat offset=${r * 4} (local.get $x)))`),
    ...range(4).flatMap((r) => [0, 1].map((h) => `(local.set $c${2 * r + h} ${madd(relaxed, `(local.get $c${2 * r + h})`, `(local.get $s${r})`, `(local.get $w${h})`)})`)),
    `(local.set $w (i32.add (local.get $w) (i32.const 32))) (local.set $x (i32.add (local.get $x) (i32.const 16)))`,
  ].join("\n");
  const sum = range(8).reduce((s, i) => `(f32.add ${s} (f32x4.extract_lane 0 (local.get $c${i})))`, "(f32.const 0)");
  return {
    flops: PASSES * K * 8 * 4 * 2,
    text: `(module
      (memory 1)
      (func (export "run") (param $passes i32) (result f32)
        (local $w i32) (local $x i32) (local $k i32) (local $w0 v128) (local $w1 v128)
        (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) ${acc}
        (loop $pass
          (local.set $w (i32.const 0)) (local.set $x (i32.const ${K * 32})) (local.set $k (i32.const ${K}))
          (loop $l ${body}
            (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
          (br_if $pass (local.tee $passes (i32.sub (local.get $passes) (i32.const 1)))))
        ${sum}))`,
    arg: PASSES,
  };
}

/** GFLOP/s of each loop in this process (best of 5), or the reason it cannot run. */
async function wasmRates(relaxed) {
  const binaryen = (await import("binaryen")).default;
  const rates = {};
  for (const [name, loop] of Object.entries({ registers: registersLoop(relaxed), kernel: kernelLoop(relaxed) })) {
    const module = binaryen.parseText(loop.text);
    module.setFeatures(binaryen.Features.All);
    if (!module.validate()) throw new Error(`${name}: invalid module`);
    const bytes = module.emitBinary();
    module.dispose();
    if (!WebAssembly.validate(bytes)) return { refused: "this host does not run the module (Relaxed SIMD off)" };
    const { instance } = await WebAssembly.instantiate(bytes);
    instance.exports.run(1000);
    let best = 0;
    for (let i = 0; i < 5; i++) {
      const t = cpuS();
      instance.exports.run(loop.arg);
      best = Math.max(best, loop.flops / (cpuS() - t) / 1e9);
    }
    rates[name] = best;
  }
  return rates;
}

if (process.argv[2] === "--child") {
  console.log(JSON.stringify(await wasmRates(process.argv[3] === "relaxed")));
} else {
  const before = loadavg()[0];
  const native = JSON.parse(
    execFileSync("cargo", ["run", "--quiet", "--release", "-p", "memdoc-minilm", "--example", "simd_peak"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  const child = (flags, kind) =>
    JSON.parse(execFileSync(process.execPath, [...flags, fileURLToPath(import.meta.url), "--child", kind], { encoding: "utf8" }));
  const plain = child([], "plain");
  const relaxedDefault = child([], "relaxed");
  const relaxed = child(["--experimental-wasm-relaxed-simd"], "relaxed");
  const after = loadavg()[0];
  const g = (x) => (x === undefined ? "" : `${x.toFixed(1)} GFLOP/s`);
  const best = Math.max(native.avx2_fma ?? 0, native.avx512_fma ?? 0);
  const rows = [
    ["", "from registers", "the kernel's shape (4 rows x 8 outputs)"],
    ["native, SSE 4 lanes, multiply then add", g(native.sse_mul_add), ""],
    ["native, AVX2 8 lanes, fused", g(native.avx2_fma), ""],
    ["native, AVX-512 16 lanes, fused", g(native.avx512_fma), ""],
    [`wasm in Node ${process.version}, f32x4.mul + f32x4.add`, g(plain.registers), g(plain.kernel)],
    [
      `wasm, f32x4.relaxed_madd (--experimental-wasm-relaxed-simd)`,
      g(relaxed.registers) || relaxed.refused,
      g(relaxed.kernel),
    ],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  console.log(
    `\nmultiply-add peaks, one thread, CPU time, best of 5, ${cpus()[0].model}, load average ${before.toFixed(2)} before, ${after.toFixed(2)} after\n\n` +
      rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join("  ")).join("\n") +
      `\n\nnative fused peak / wasm mul+add: from registers ${(best / plain.registers).toFixed(2)}x, the kernel's shape ${(best / plain.kernel).toFixed(2)}x` +
      `\nRelaxed SIMD without the flag in Node ${process.version}: ${relaxedDefault.refused ?? "runs"}\n`,
  );
}
