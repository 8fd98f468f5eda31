#!/usr/bin/env python3
"""Writes every recall evaluation set of tests/recall/ from its data (each
set's data.py): memories of hand-written key entries mixed with routine
entries from seeded templates, the distractors a real memory accumulates,
and the questions asked of them, each naming the entry that answers it (or
none).

- relevance/: five memories and queries.json, the items each query should
  recall (tests/recall_relevance.rs);
- eval/: four memories (two team, two user) with near-miss distractors
  written next to the key entries, questions.json (the calibration's) and
  heldout.json (written apart, with facts replaced by a later entry).
  Paraphrase questions share no content word with their answer (check.mjs
  enforces it); keyword questions name a name, a number or an id;
  no-answer questions ask what the memory does not hold;
- eval-zh/: two Chinese team memories and questions.json, with
  cross-lingual questions (the English memory is eval/'s).

Run it again only to change the data; the tests read the files it wrote,
never this script. The same data gives the same files, byte for byte.

    python3 tests/recall/generate.py
"""
import importlib.util
import json
import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent


def data(folder):
    """The set's data module: `folder`/data.py."""
    spec = importlib.util.spec_from_file_location(f"{folder}_data".replace("-", "_"), HERE / folder / "data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def day(rng, start, end):
    """A seeded date between `start` and `end`, both included."""
    a, b = date.fromisoformat(start), date.fromisoformat(end)
    return (a + timedelta(days=rng.randrange((b - a).days + 1))).isoformat()


def fill(rng, templates, slots, n):
    """`n` distinct routine entries: seeded templates with seeded slots."""
    out, seen = [], set()
    while len(out) < n:
        t = rng.choice(templates)
        text = t.format(**{k: rng.choice(v) for k, v in slots.items()})
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out


def write_json(path, value, end="\n"):
    path.write_text(json.dumps(value, indent=1, ensure_ascii=False) + end, encoding="utf-8")


# ------------------------------------------------------------------ relevance

def relevance_memory(folder, name, scope, today, sections, filler, queries, seed):
    """sections: {title: [key lines ("DATE: text" or raw text)]};
    filler: {title: (templates, slots, n)}. Routine entries are dated from
    2024-03-01 to 2025-05-28 and every entry sorted by date."""
    rng = random.Random(seed)
    parts = []
    count = 0
    for title, keys in sections.items():
        dated, raw = [], []
        for k in keys:
            if len(k) > 12 and k[4] == "-" and k[10] == ":":
                dated.append((k[:10], f"- {k}"))
            else:
                raw.append(k)
        if title in filler:
            templates, slots, n = filler[title]
            for text in fill(rng, templates, slots, n):
                d = day(rng, "2024-03-01", "2025-05-28")
                dated.append((d, f"- {d}: {text}"))
        dated.sort(key=lambda e: e[0])
        body = [line for _, line in dated] + raw
        count += len(body)
        parts.append(f"## {title}\n" + "\n".join(body))
    text = "\n\n".join(parts) + "\n"
    (folder / f"{name}.md").write_text(text, encoding="utf-8")
    for q in queries:
        for e in q["expected"]:
            hits = [line for line in text.splitlines() if e in line]
            assert len(hits) == 1, (name, e, hits)
    return count, [dict(memory=name, scope=scope, today=today, **q) for q in queries]


def relevance():
    d = data("relevance")
    folder = HERE / "relevance"
    suite = []
    for spec in (d.PLATFORM, d.MOBILE, d.DEVELOPER, d.RESEARCHER, d.SUPPORT):
        count, queries = relevance_memory(folder, **spec)
        assert 100 <= count <= 400, (spec["name"], count)
        print(f"relevance/{spec['name']}: {count} items, {len(queries)} queries")
        suite.extend(queries)
    write_json(folder / "queries.json", suite)


# ----------------------------------------------------------------------- eval

def evaluation():
    """Entries dated from 2024-06-01 to 2025-05-30 in a seeded order, each
    replaced fact's two entries inserted apart; asked on 2025-06-01."""
    d = data("eval")
    folder = HERE / "eval"
    questions = []
    for name, m in d.MEMORIES.items():
        rng = random.Random(name)
        when = lambda: day(rng, "2024-06-01", "2025-05-30")  # noqa: E731
        sections = {}
        for title, keys in m["sections"].items():
            lines = [(when(), t) for t in keys]
            lines += [(when(), t) for t in m["distractors"].get(title, [])]
            sections[title] = lines
        routine = fill(rng, [t for ts in m["templates"].values() for t in ts], m["slots"], m["routine"])
        by_template = {t: s for s, ts in m["templates"].items() for t in ts}
        for text in routine:
            # The template's section: the first whose templates can give it.
            for t, s in by_template.items():
                head = t.split("{")[0]
                if text.startswith(head) and head:
                    sections[s].append((when(), text))
                    break
            else:
                sections[next(iter(m["templates"]))].append((when(), text))
        out = []
        replaced = d.HELDOUT[name]["replaced"]
        for title, lines in sections.items():
            rng.shuffle(lines)
            # Each replaced fact's two entries, apart, at places that take
            # nothing from the seeded sequence above.
            for k, (section, old_day, old, new_day, new, _) in enumerate(replaced):
                if section == title:
                    lines.insert((7 * k + 3) % (len(lines) + 1), (old_day, old))
                    lines.insert((13 * k + 11) % (len(lines) + 1), (new_day, new))
            out.append(f"## {title}\n" + "\n".join(f"- {d}: {t}" for d, t in lines))
        (folder / f"{name}.md").write_text("\n\n".join(out) + "\n", encoding="utf-8")
        for kind, q, answer in m["questions"]:
            questions.append({"memory": name, "scope": m["scope"], "today": "2025-06-01",
                              "kind": kind, "question": q, "answer": answer})
        print(f"eval/{name}: {sum(len(lines) for lines in sections.values())} entries")
    write_json(folder / "questions.json", questions)
    heldout = []
    for name, h in d.HELDOUT.items():
        base = {"memory": name, "scope": d.MEMORIES[name]["scope"], "today": "2025-06-01"}
        for _, _, old, _, new, q in h["replaced"]:
            heldout.append({**base, "kind": "replaced", "question": q, "answer": new, "stale": old})
        for kind, q, answer in h["questions"]:
            heldout.append({**base, "kind": kind, "question": q, "answer": answer})
    write_json(folder / "heldout.json", heldout)
    print(f"eval: {len(questions)} questions, {len(heldout)} held out")


# -------------------------------------------------------------------- eval-zh

def chinese():
    """The routine entries dated from 2024-06 to 2025-05 (days 1 to 28), one
    seeded sequence (55) for the whole set; entries not sorted."""
    d = data("eval-zh")
    folder = HERE / "eval-zh"
    rng = random.Random(55)

    def dates(n):
        out = []
        for _ in range(n):
            y = rng.choice([2024, 2025])
            m = rng.randint(6, 12) if y == 2024 else rng.randint(1, 5)
            out.append(f"{y}-{m:02d}-{rng.randint(1, 28):02d}")
        return out

    eng = {title: list(items) for title, items in d.ENGINEERING.items()}
    facts = []
    for s in d.SERVICES:
        facts.append(f"{s} 的日志级别为 info，部署在 {rng.choice(d.REGIONS)}")
        facts.append(f"{s} 的运维手册放在知识库的{rng.choice(d.TEAMS)}目录下")
        facts.append(f"{s} 由{rng.choice(d.TEAMS)}负责")
        facts.append(f"{s} 在 {rng.choice(d.REGIONS)} 增加了一个只读副本")
    rng.shuffle(facts)
    facts = facts[:32]
    eng["事实"] = [f"{when}: {t}" for when, t in zip(dates(len(facts)), facts)]
    eng["待定问题"] = list(d.OPEN_QUESTIONS)

    prod = {title: list(items) for title, items in d.PRODUCT.items()}
    experiments = []
    for t in d.TOPICS:
        for w in rng.sample(d.WEEKS, 3):
            experiments.append(f"关于{t}的实验进行了{w}周，没有显著结果")
    rng.shuffle(experiments)
    experiments = experiments[:42]
    prod["产品决策"] += [f"{when}: {t}" for when, t in zip(dates(len(experiments)), experiments)]
    rng.shuffle(prod["产品决策"])
    for k in ("工程决策", "约定", "事实"):
        rng.shuffle(eng[k])

    for name, memory in ((d.E, eng), (d.P, prod)):
        lines = []
        for title, items in memory.items():
            lines += [f"## {title}", *(f"- {i}" for i in items), ""]
        (folder / f"{name}.md").write_text("\n".join(lines), encoding="utf-8")
        print(f"eval-zh/{name}: {sum(len(items) for items in memory.values())} entries")

    questions = []
    for kind, rows in (("paraphrase", d.PARAPHRASE), ("cross-lingual", d.CROSS_LINGUAL), ("none", d.NONE), ("keyword", d.KEYWORD)):
        for memory, question, *answer in rows:
            questions.append({"memory": memory, "scope": "team", "today": "2025-06-01", "kind": kind,
                              "question": question, "answer": answer[0] if answer else None})
    write_json(folder / "questions.json", questions, end="")
    print(f"eval-zh: {len(questions)} questions")


if __name__ == "__main__":
    relevance()
    evaluation()
    chinese()
