"""Random-agent throughput of RLCard's gin-rummy environment (the peer
figure for BENCHMARKS.md). Plays N games with two random agents on one core
and prints one JSON object: games, actions, seconds, games/s, actions/s.

    python3 -m venv /tmp/rlvenv && /tmp/rlvenv/bin/pip install rlcard
    /tmp/rlvenv/bin/python scripts/peer/rlcard_gin_rummy.py 200
"""

import json
import sys
import time

import rlcard
from rlcard.agents import RandomAgent


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    env = rlcard.make("gin-rummy", config={"seed": 1})
    agents = [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]
    env.set_agents(agents)
    actions = 0
    t0 = time.perf_counter()
    for _ in range(games):
        trajectories, _ = env.run(is_training=False)
        # Each player's trajectory alternates state, action, state, ...
        actions += sum((len(t) - 1) // 2 for t in trajectories)
    seconds = time.perf_counter() - t0
    print(json.dumps({
        "engine": "rlcard gin-rummy " + rlcard.__version__,
        "games": games,
        "actions": actions,
        "seconds": seconds,
        "games_per_second": games / seconds,
        "actions_per_second": actions / seconds,
    }))


if __name__ == "__main__":
    main()
