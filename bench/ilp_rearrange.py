#!/usr/bin/env python3
"""Integer-programming comparison for table rearrangement (`offen`).

Reads the JSON lines written by the `rearrange_export` example (per position:
the table's and the hand's cards as counts per face, each face's penalty,
romme's optimum and solve time), solves the same problem as an integer
program with HiGHS (in-process, through `highspy`), checks that the optimum
(cards and points left in the hand) is identical, and prints the times and
the ratio per table size.

Model (offen: runs of 3-13 cards of one suit, ace low or high but no wrap;
sets of 3 or 4 distinct suits; two decks): integer x_m >= 0 per candidate
meld m (two copies of a card allow a meld twice), integer 0 <= y_f <= hand_f
per face; for every face, the melds use exactly the table's copies plus y_f;
maximise the sum of y_f * (1000 + penalty_f) (the most cards placed, then the
most points). The fewest-changes tie-break is not modelled: the comparison
is on cards and points left.

    pip install highspy
    cargo run --release -p romme-solver --example rearrange_export -- 50 > /tmp/positions.jsonl
    python3 bench/ilp_rearrange.py /tmp/positions.jsonl
"""
import collections
import json
import statistics
import sys
import time

import highspy

UNIT = 1000


def candidate_melds():
    """Every run and set as a list of face indices (suit * 13 + rank, 12 = ace)."""
    melds = []
    for suit in range(4):
        line = [suit * 13 + 12] + [suit * 13 + r for r in range(12)] + [suit * 13 + 12]
        for lo in range(len(line)):
            for length in range(3, 14):
                if lo + length <= len(line):
                    melds.append(line[lo:lo + length])
    for rank in range(13):
        suits = range(4)
        for size in (3, 4):
            for combo in _combinations(list(suits), size):
                melds.append([s * 13 + rank for s in combo])
    return melds


def _combinations(items, k):
    if k == 0:
        yield []
        return
    for i, x in enumerate(items):
        for rest in _combinations(items[i + 1:], k - 1):
            yield [x] + rest


MELDS = candidate_melds()


def solve_ilp(table, hand, penalty):
    """Return (cards left, points left), or None when infeasible."""
    start_build = time.perf_counter()
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    # Only melds whose faces are all present at all.
    have = [t + c for t, c in zip(table, hand)]
    melds = [m for m in MELDS if all(have[f] >= m.count(f) for f in m)]
    n = len(melds)
    faces = [f for f in range(52) if have[f] > 0]
    ycol = {f: n + i for i, f in enumerate(faces)}
    for m in melds:
        h.addVar(0.0, 2.0)
    for f in faces:
        h.addVar(0.0, float(hand[f]))
    total = n + len(faces)
    costs = [0.0] * n + [-(UNIT + penalty[f]) for f in faces]
    h.changeColsCost(total, list(range(total)), costs)
    h.changeColsIntegrality(total, list(range(total)), [highspy.HighsVarType.kInteger] * total)
    uses = collections.defaultdict(list)
    for i, m in enumerate(melds):
        for f in m:
            uses[f].append(i)
    for f in faces:
        cols = uses[f] + [ycol[f]]
        vals = [1.0] * len(uses[f]) + [-1.0]
        h.addRow(float(table[f]), float(table[f]), len(cols), cols, vals)
    start = time.perf_counter()
    h.run()
    solve_only = time.perf_counter() - start
    build_and_solve = time.perf_counter() - start_build
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None, build_and_solve, solve_only
    sol = h.getSolution().col_value
    placed = {f: round(sol[ycol[f]]) for f in faces}
    left = sum(hand) - sum(placed.values())
    left_value = sum(hand[f] * penalty[f] for f in range(52)) - sum(placed[f] * penalty[f] for f in faces)
    return (left, left_value), build_and_solve, solve_only


def main(path):
    rows = collections.defaultdict(lambda: {"romme": [], "ilp": [], "run": [], "same": 0, "n": 0, "proven": 0})
    mismatches = 0
    with open(path) as f:
        for line in f:
            p = json.loads(line)
            size = round(p["table_cards"] / 10) * 10
            answer, both, run = solve_ilp(p["table"], p["hand"], p["penalty"])
            row = rows[size]
            row["n"] += 1
            row["romme"].append(p["romme_ns"] / 1e9)
            row["ilp"].append(both)
            row["run"].append(run)
            row["proven"] += p["romme_optimal"]
            if answer == (p["romme_left"], p["romme_left_value"]):
                row["same"] += 1
            elif p["romme_optimal"]:
                mismatches += 1
                print("MISMATCH", p["table_cards"], answer, p["romme_left"], p["romme_left_value"])
    print(f"{'table':>6} {'n':>4} {'same':>5} {'proven':>6} {'romme med':>11} {'HiGHS med':>11} {'run() med':>11} {'ratio':>7} {'ratio run':>9}")
    for size in sorted(rows):
        r = rows[size]
        mr, mi, ms = (statistics.median(r[k]) for k in ("romme", "ilp", "run"))
        print(f"~{size:<5} {r['n']:>4} {r['same']:>5} {r['proven']:>6} {mr * 1e3:>9.3f}ms {mi * 1e3:>9.3f}ms {ms * 1e3:>9.3f}ms {mi / mr:>6.1f}x {ms / mr:>8.1f}x")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/dev/stdin"))
