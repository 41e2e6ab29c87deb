#!/usr/bin/env bash
# Random-agent throughput, romme (klassisch, 4 seats, one core) next to
# RLCard's gin-rummy (one core), in one run. Needs: cargo; python3 with
# `pip install rlcard` (a venv is made in target/rlvenv if missing).
#
# Usage: compare.sh [ROMME_MATCHES] [RLCARD_GAMES]. The defaults (15,000
# matches, 300 games) give each side a run of two to three seconds, long
# enough that a hiccup of the machine does not decide the ratio.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked --bin romme -q
venv=target/rlvenv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q rlcard
fi
ours=$(./target/release/romme simulate --rules klassisch --seats random,random,random,random \
  --games "${1:-15000}" --threads 1 --json)
peer=$("$venv/bin/python" scripts/peer/rlcard_gin_rummy.py "${2:-300}")
python3 - "$ours" "$peer" <<'PY'
import json, sys
ours, peer = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"romme klassisch 4 random: {ours['games_per_second']:.1f} games/s, {ours['actions_per_second']:.0f} actions/s")
print(f"{peer['engine']} random:  {peer['games_per_second']:.1f} games/s, {peer['actions_per_second']:.0f} actions/s")
print(f"ratio (actions/s): {ours['actions_per_second'] / peer['actions_per_second']:.1f}x")
PY
