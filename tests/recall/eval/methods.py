"""Ways of saying "nothing relevant" by meaning, compared on the recall
evaluation sets: each method replays recall's selection (relevance floor,
score order, the budget in code points) over the measures that
tests/recall/eval/features.rs printed, and is measured on the calibration set
(questions.json) and the held-out one (heldout.json). Every cut-off is
chosen on the calibration set; the held-out columns only report.

    cargo run --release --example recall_features > minilm.json
    cargo run --release --example recall_features static > static.json
    python3 tests/recall/eval/methods.py minilm.json static.json

The replay approximates the engine (it ignores supersession, so replaced
facts are not measured): tests/recall_eval.rs measures the default itself.
"""

import json
import statistics
import sys

FLOOR = 0.5
RECENCY, PRIORITY = 0.05, 0.03
# MiniLM's calibration before and after the query floor (src/recall/semantic.rs).
BEFORE = (0.03, 0.12)
AFTER = (-0.20, 0.30)
QUERY_FLOOR = 0.15
# recall_fit's margin under the paraphrase floors: within 1,200 and 400.
KEEP = (92.0, 80.0)


def cal(x, zero, half):
    return 0.0 if x <= zero else 1 - 0.5 ** ((x - zero) / half)


def replay(items, relevance, budget):
    order = [i for i, r in enumerate(relevance) if r >= FLOOR]
    order.sort(key=lambda i: -(relevance[i] + RECENCY * items[i]["recency"] + PRIORITY * items[i]["priority"]))
    used, sections, chosen = 0, set(), []
    for i in order:
        item = items[i]
        heading = 0 if item["section"] in sections else len(item["section"]) + 5
        if used + item["cost"] + heading <= budget:
            used += item["cost"] + heading
            sections.add(item["section"])
            chosen.append(i)
    return chosen


def measure(questions, calibration, answers):
    """No-answer abstention, paraphrases within 400 and 1,200, keyword within 400 (%)."""
    n = {"none": [0, 0], "p400": [0, 0], "p1200": [0, 0], "keyword": [0, 0]}
    for q in questions:
        items = q["items"]
        relevance = [max(i["lexical"], cal(i["cosine"], *calibration)) for i in items]
        if not answers(q, items):
            relevance = [0.0] * len(items)

        def within(budget):
            return any(q["answer"] in items[i]["text"] for i in replay(items, relevance, budget))

        if q["kind"] == "none":
            n["none"][0] += not replay(items, relevance, 1_200)
            n["none"][1] += 1
        elif q["kind"] == "paraphrase":
            for budget, key in ((400, "p400"), (1_200, "p1200")):
                n[key][0] += within(budget)
                n[key][1] += 1
        elif q["kind"] == "keyword":
            n["keyword"][0] += within(400)
            n["keyword"][1] += 1
    return {k: 100 * a / b for k, (a, b) in n.items()}


def by_words(items):
    return max(i["lexical"] for i in items) >= FLOOR


def cosines(items):
    return sorted((i["cosine"] for i in items), reverse=True)


def gate(feature, cut):
    return lambda q, items: by_words(items) or feature(q, items) >= cut


FEATURES = {
    "best cosine": lambda q, items: cosines(items)[0],
    "best cosine − the next 10's mean": lambda q, items: cosines(items)[0] - statistics.mean(cosines(items)[1:11]),
    "best cosine − the memory's median": lambda q, items: cosines(items)[0] - statistics.median(cosines(items)),
    "z-score of the best cosine": lambda q, items: (cosines(items)[0] - statistics.mean(cosines(items)))
    / statistics.pstdev(cosines(items)),
}


def fit(calibration_set, feature, grid):
    """The highest cut-off that keeps KEEP on the calibration set and rejects the most."""
    best = None
    for cut in grid:
        m = measure(calibration_set, AFTER, gate(feature, cut))
        if m["p1200"] >= KEEP[0] and m["p400"] >= KEEP[1] and (best is None or m["none"] > best[1]):
            best = (cut, m["none"])
    return best[0] if best else grid[0]


def main():
    minilm = json.load(open(sys.argv[1]))
    other = json.load(open(sys.argv[2])) if len(sys.argv) > 2 else None
    sets = {s: [q for q in minilm if q["set"] == s] for s in ("calibration", "heldout")}
    rows = [
        ("cosine floor 0.15 (the calibration before)", BEFORE, lambda q, items: True),
        ("the default: floor 0.10, query floor 0.15 on the best cosine", AFTER, gate(FEATURES["best cosine"], QUERY_FLOOR)),
    ]
    for floor in (0.20, 0.25, 0.30):
        rows.append((f"cosine floor {floor:.2f}", (floor - 0.12, 0.12), lambda q, items: True))
    grids = {
        "best cosine": [x / 100 for x in range(15, 41)],
        "best cosine − the next 10's mean": [x / 200 for x in range(4, 41)],
        "best cosine − the memory's median": [x / 100 for x in range(10, 41)],
        "z-score of the best cosine": [x / 10 for x in range(20, 51)],
    }
    for name, feature in FEATURES.items():
        cut = fit(sets["calibration"], feature, grids[name])
        rows.append((f"{name} ≥ {cut:g} (fitted)", AFTER, gate(feature, cut)))
        for cut in (grids[name][len(grids[name]) // 3], grids[name][len(grids[name]) * 2 // 3]):
            rows.append((f"{name} ≥ {cut:g}", AFTER, gate(feature, cut)))
    rows.append(("lexical evidence: an item holds a query word", AFTER, lambda q, items: max(i["terms"] for i in items) > 0))
    rows.append(
        (
            "channels agree: the best by meaning holds a query word",
            AFTER,
            lambda q, items: by_words(items) or max(items, key=lambda i: i["cosine"])["terms"] > 0,
        )
    )
    if other is not None:
        ranks = {(q["set"], q["question"]): sorted(q["items"], key=lambda i: -i["cosine"]) for q in other}
        for k in (1, 5):
            rows.append(
                (
                    f"embedders agree: MiniLM's best in the static table's top {k}",
                    AFTER,
                    lambda q, items, k=k: by_words(items)
                    or max(items, key=lambda i: i["cosine"])["line"]
                    in [i["line"] for i in ranks[(q["set"], q["question"])][:k]],
                )
            )
    print("| method | no-answer abstains (cal / held) | paraphrases @400 | @1,200 | keyword @400 |")
    print("|---|---|---|---|---|")
    for name, calibration, answers in rows:
        c, h = (measure(sets[s], calibration, answers) for s in ("calibration", "heldout"))
        cell = lambda k: f"{c[k]:.1f}% / {h[k]:.1f}%"
        print(f"| {name} | {cell('none')} | {cell('p400')} | {cell('p1200')} | {cell('keyword')} |")


if __name__ == "__main__":
    main()
