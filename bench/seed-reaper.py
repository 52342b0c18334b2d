"""BASELINE for bench/reap.bench.mjs, not part of the action: runs the seed tool's own reaper once.

The seed tool (the public repository Jsebayhi/gemini-cli-toolbox) prunes stale worktrees from a hub
process, hourly: `PruneService.prune()` in images/gemini-hub/app/services/prune.py, configured by
app/config.py from the environment (GEMINI_WORKTREE_ROOT, expiry days 30 headless / 90 branch / 90
orphan by default). Its code is not in this repository: the person running the benchmark fetches it and
names its prune.py in BENCH_SEED_PRUNE (see docs/benchmarks.md). This script imports that module as it
is, from its own package (the `app` folder around it, whose __init__ imports Flask), calls `prune()` once
and prints the seconds that call took (the hub's start-up is not counted: the hub is long-running).

    BENCH_SEED_PRUNE=/path/to/images/gemini-hub/app/services/prune.py \
      GEMINI_WORKTREE_ROOT=ROOT python3 bench/seed-reaper.py
"""

import json
import logging
import os
import sys
import time

prune_py = os.environ.get("BENCH_SEED_PRUNE", "")
if not prune_py or not os.path.isfile(prune_py):
    sys.exit(
        "BENCH_SEED_PRUNE must name the seed tool's prune.py "
        "(images/gemini-hub/app/services/prune.py in a checkout of Jsebayhi/gemini-cli-toolbox); "
        f"got {prune_py!r}. See docs/benchmarks.md."
    )
services = os.path.dirname(os.path.abspath(prune_py))
app_dir = os.path.dirname(services)
if os.path.basename(app_dir) != "app" or not os.path.isfile(os.path.join(app_dir, "config.py")):
    sys.exit(f"{prune_py} is not inside the seed's app/services/ folder (next to app/config.py).")
sys.path.insert(0, os.path.dirname(app_dir))

# The hub logs at INFO (its LOG_LEVEL default); the lines go to stderr, which the benchmark discards.
logging.basicConfig(level=logging.INFO, stream=sys.stderr)

from app.config import Config  # noqa: E402
from app.services.prune import PruneService  # noqa: E402

started = time.perf_counter()
PruneService.prune()
elapsed = time.perf_counter() - started
print(
    json.dumps(
        {
            "seconds": elapsed,
            "root": Config.WORKTREE_ROOT,
            "expiry_days": [
                Config.WORKTREE_EXPIRY_HEADLESS,
                Config.WORKTREE_EXPIRY_BRANCH,
                Config.WORKTREE_EXPIRY_ORPHAN,
            ],
        }
    )
)
