#!/usr/bin/env python3
"""Integer-programming comparison for the best partition of a hand.

Reads the JSON lines written by the `partition_export` example (each hand
with every valid meld as a list of card indices, the cards' penalties, and
romme's optimum and solve time), solves the same problem as a 0/1 integer
program with HiGHS (in-process, through `highspy`), checks that the optimum
is identical, and prints both times and the ratio.

Model: binary x_m per candidate meld m; every card in at most one chosen
meld; maximise the penalty points melded (= minimise deadwood).

    pip install highspy
    cargo run --release -p romme-solver --example partition_export -- 200 13 > /tmp/hands.jsonl
    python3 bench/ilp_partition.py /tmp/hands.jsonl

Each hand is solved REPS times (environment, default 3) and its best time
kept, as romme's time is its best of five batches: a single run would
count the machine's hiccups against HiGHS.
"""
import json
import os
import statistics
import sys
import time

import highspy


def solve_ilp(penalties, melds):
    """Return the least deadwood, solving the 0/1 program with HiGHS."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    inf = highspy.kHighsInf
    n = len(melds)
    gains = [float(sum(penalties[c] for c in m)) for m in melds]
    # Variables: x_m in {0, 1}, objective: maximise the points melded.
    for g in gains:
        h.addVar(0.0, 1.0)
    h.changeColsCost(n, list(range(n)), [-g for g in gains])
    h.changeColsIntegrality(n, list(range(n)), [highspy.HighsVarType.kInteger] * n)
    # Every card in at most one meld.
    for card in range(len(penalties)):
        cols = [i for i, m in enumerate(melds) if card in m]
        if cols:
            h.addRow(-inf, 1.0, len(cols), cols, [1.0] * len(cols))
    start = time.perf_counter()
    h.run()
    solve_only = time.perf_counter() - start
    melded = -h.getInfo().objective_function_value if n else 0.0
    return sum(penalties) - round(melded), solve_only


def main(path):
    reps = max(1, int(os.environ.get("REPS", "3")))
    romme_times, ilp_times, solve_times, jokers = [], [], [], []
    mismatches = 0
    with open(path) as f:
        for line in f:
            hand = json.loads(line)
            best_total, best_solve = float("inf"), float("inf")
            for _ in range(reps):
                start = time.perf_counter()
                deadwood, solve_only = solve_ilp(hand["penalties"], hand["melds"])
                best_total = min(best_total, time.perf_counter() - start)
                best_solve = min(best_solve, solve_only)
            ilp_times.append(best_total)
            solve_times.append(best_solve)
            romme_times.append(hand["romme_ns"] / 1e9)
            jokers.append(hand["hand"].split().count("*"))
            if deadwood != hand["romme_deadwood"]:
                mismatches += 1
                print("MISMATCH", hand["hand"], deadwood, hand["romme_deadwood"])
    med_r = statistics.median(romme_times)
    med_i = statistics.median(ilp_times)
    print(f"HiGHS timed as the best of {reps} runs per hand")
    print(f"hands: {len(romme_times)}, identical optimum: {len(romme_times) - mismatches}/{len(romme_times)}")
    print(f"romme  median {med_r * 1e6:9.2f} us   mean {statistics.mean(romme_times) * 1e6:9.2f} us")
    print(f"HiGHS  median {med_i * 1e6:9.2f} us   mean {statistics.mean(ilp_times) * 1e6:9.2f} us  (model build + solve, in-process)")
    med_s = statistics.median(solve_times)
    print(f"HiGHS  median {med_s * 1e6:9.2f} us   (h.run() alone)")
    print(f"ratio (median HiGHS build+solve / median romme): {med_i / med_r:,.0f}x")
    print(f"ratio (median HiGHS run() alone / median romme): {med_s / med_r:,.0f}x")
    ratios = [i / r for i, r in zip(ilp_times, romme_times)]
    print(f"ratio of the totals: {sum(ilp_times) / sum(romme_times):,.0f}x; "
          f"median of the per-hand ratios: {statistics.median(ratios):,.0f}x")
    print("per jokers in the hand: count, romme median, HiGHS median, median per-hand ratio")
    for j in sorted(set(jokers)):
        idx = [k for k, n in enumerate(jokers) if n == j]
        r = statistics.median(romme_times[k] for k in idx)
        i = statistics.median(ilp_times[k] for k in idx)
        q = statistics.median(ratios[k] for k in idx)
        print(f"  {j} jokers: {len(idx):4}  {r * 1e6:7.2f} us  {i * 1e6:9.1f} us  {q:8,.0f}x")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/dev/stdin"))
