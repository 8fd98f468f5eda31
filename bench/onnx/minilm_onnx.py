#!/usr/bin/env python3
"""The reference runtime of bench/minilm.mjs: all-MiniLM-L6-v2 in ONNX
Runtime, one thread, from the same model.safetensors memdoc loads, on the
same token ids (memdoc's tokenizer gives Hugging Face's, tested in
embedders/minilm/tests/reference.rs).

The ONNX graph is written here from the weights with the `onnx` package's
helpers (BERT as config.json sets it: embeddings, six layers of attention
with a padding mask and a GELU FFN, LayerNormalization, opset 17); ONNX
Runtime fuses what it can (graph optimisation level ALL). Mean pooling and
L2 normalisation in numpy, inside the timed part.

    python minilm_onnx.py MODEL_DIR IDS.json     (run by bench/minilm.mjs,
                                                  in its own virtualenv)

IDS.json: {"question": [ids], "items": [[ids], ...]}. Prints JSON (times are
the thread's CPU time: the machine may be shared): the load time, the question's median and best time over 21 runs, the memory's best
of 3 (its items sorted by length into batches of 32, padded within a batch:
the best order for this runtime), and the question's vector.
"""
import json
import math
import struct
import sys
import time
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

HIDDEN, LAYERS, HEADS, FFN = 384, 6, 12, 1536
HEAD = HIDDEN // HEADS
BATCH = 32


def safetensors(path):
    """The f32 tensors of a safetensors file, by name (position_ids, i64, is not read)."""
    data = Path(path).read_bytes()
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + size])
    out = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue
        start, end = info["data_offsets"]
        out[name] = np.frombuffer(data[8 + size + start : 8 + size + end], dtype=np.float32).reshape(info["shape"])
    return out


def graph(w):
    """BERT's encoder over input_ids, position_ids and mask_bias ([B,1,1,S]: 0 or -10000)."""
    nodes, inits = [], []

    def const(name, array):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array, dtype=array.dtype), name))
        return name

    def node(op, inputs, name, **attrs):
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    def linear(x, prefix, name):
        weight = const(f"{prefix}.weight.T", w[f"{prefix}.weight"].T.copy())
        bias = const(f"{prefix}.bias", w[f"{prefix}.bias"])
        return node("Add", [node("MatMul", [x, weight], f"{name}.mm"), bias], name)

    def norm(x, prefix, name):
        return node(
            "LayerNormalization",
            [x, const(f"{prefix}.LayerNorm.weight", w[f"{prefix}.LayerNorm.weight"]), const(f"{prefix}.LayerNorm.bias", w[f"{prefix}.LayerNorm.bias"])],
            name,
            axis=-1,
            epsilon=1e-12,
        )

    words = node("Gather", [const("words", w["embeddings.word_embeddings.weight"]), "input_ids"], "e.words")
    positions = node("Gather", [const("positions", w["embeddings.position_embeddings.weight"]), "position_ids"], "e.positions")
    token_type = const("token_type", w["embeddings.token_type_embeddings.weight"][0])
    x = node("Add", [node("Add", [words, positions], "e.sum"), token_type], "e.all")
    x = norm(x, "embeddings", "e.norm")
    heads = const("heads_shape", np.array([0, 0, HEADS, HEAD], dtype=np.int64))
    flat = const("flat_shape", np.array([0, 0, HIDDEN], dtype=np.int64))
    scale = const("scale", np.array(1 / math.sqrt(HEAD), dtype=np.float32))
    half = const("half", np.array(0.5, dtype=np.float32))
    one = const("one", np.array(1.0, dtype=np.float32))
    root2 = const("root2", np.array(math.sqrt(2), dtype=np.float32))
    for l in range(LAYERS):
        p = f"encoder.layer.{l}"
        split = {}
        for part, perm in (("query", [0, 2, 1, 3]), ("key", [0, 2, 3, 1]), ("value", [0, 2, 1, 3])):
            y = linear(x, f"{p}.attention.self.{part}", f"l{l}.{part}")
            y = node("Reshape", [y, heads], f"l{l}.{part}.heads")
            split[part] = node("Transpose", [y], f"l{l}.{part}.t", perm=perm)
        scores = node("Mul", [node("MatMul", [split["query"], split["key"]], f"l{l}.qk"), scale], f"l{l}.scaled")
        scores = node("Add", [scores, "mask_bias"], f"l{l}.masked")
        probs = node("Softmax", [scores], f"l{l}.probs", axis=-1)
        context = node("MatMul", [probs, split["value"]], f"l{l}.context")
        context = node("Transpose", [context], f"l{l}.context.t", perm=[0, 2, 1, 3])
        context = node("Reshape", [context, flat], f"l{l}.context.flat")
        attended = linear(context, f"{p}.attention.output.dense", f"l{l}.attention")
        x = norm(node("Add", [attended, x], f"l{l}.residual1"), f"{p}.attention.output", f"l{l}.norm1")
        h = linear(x, f"{p}.intermediate.dense", f"l{l}.up")
        erf = node("Erf", [node("Div", [h, root2], f"l{l}.gelu.div")], f"l{l}.gelu.erf")
        h = node("Mul", [node("Mul", [h, half], f"l{l}.gelu.half"), node("Add", [erf, one], f"l{l}.gelu.one")], f"l{l}.gelu")
        out = linear(h, f"{p}.output.dense", f"l{l}.down")
        x = norm(node("Add", [out, x], f"l{l}.residual2"), f"{p}.output", f"l{l}.norm2")
    nodes.append(helper.make_node("Identity", [x], ["hidden"], name="hidden"))
    g = helper.make_graph(
        nodes,
        "all-MiniLM-L6-v2",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("position_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("mask_bias", TensorProto.FLOAT, ["batch", 1, 1, "seq"]),
        ],
        [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", "seq", HIDDEN])],
        inits,
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def embed(session, batch):
    """The unit-length vectors of a batch of token id lists (padded to the longest)."""
    seq = max(len(ids) for ids in batch)
    input_ids = np.zeros((len(batch), seq), dtype=np.int64)
    mask = np.zeros((len(batch), seq), dtype=np.float32)
    for i, ids in enumerate(batch):
        input_ids[i, : len(ids)] = ids
        mask[i, : len(ids)] = 1
    position_ids = np.broadcast_to(np.arange(seq, dtype=np.int64), (len(batch), seq))
    mask_bias = ((1 - mask) * -10000.0)[:, None, None, :]
    (hidden,) = session.run(None, {"input_ids": input_ids, "position_ids": np.ascontiguousarray(position_ids), "mask_bias": mask_bias})
    pooled = (hidden * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
    return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def main():
    model_dir, ids_file = sys.argv[1:3]
    ids = json.loads(Path(ids_file).read_text())
    started = time.thread_time()
    proto = graph(safetensors(Path(model_dir) / "model.safetensors"))
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(proto.SerializeToString(), options, providers=["CPUExecutionProvider"])
    load_ms = (time.thread_time() - started) * 1e3
    question = ids["question"]
    samples = []
    for _ in range(21):
        t = time.thread_time()
        vector = embed(session, [question])[0]
        samples.append((time.thread_time() - t) * 1e3)
    samples.sort()
    order = sorted(range(len(ids["items"])), key=lambda i: len(ids["items"][i]))
    runs = []
    for _ in range(3):
        t = time.thread_time()
        for first in range(0, len(order), BATCH):
            embed(session, [ids["items"][i] for i in order[first : first + BATCH]])
        runs.append((time.thread_time() - t) * 1e3)
    print(
        json.dumps(
            {
                "runtime": f"onnxruntime {ort.__version__}",
                "loadMs": load_ms,
                "questionMs": samples[len(samples) // 2],
                "questionBestMs": samples[0],
                "indexMs": min(runs),
                "questionVector": [float(v) for v in vector],
            }
        )
    )


if __name__ == "__main__":
    main()
