"""The long fuzz campaign over the command line's ways in: the cases of the property tests
(``tests/input_fuzz.py``), run for as long as asked with fresh random seeds, each break
shrunk by Hypothesis and printed with its input.

    python bench/fuzz_inputs.py --kind score-json --minutes 10
    python bench/fuzz_inputs.py --kind all --minutes 60        # an hour over every kind

Kinds: score-json (``score --json`` requests), score-args (tile text and options),
batch (``shanten --batch`` lines), rules (house-rule files), records (match records for
``replay`` and ``replay --check``). Prints the cases run and the breaks per kind; exits 1
if anything broke the contract.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from input_fuzz import CASES, ContractBroken, sample_record

# Examples per Hypothesis run, each run with its own seed; the clock is read between runs
# (data drawn differently by time would confuse Hypothesis's replay of a failure).
ROUND = 50


def campaign(kind: str, seconds: float, tmp: Path, record: str) -> tuple[int, list[str]]:
    """Run ``kind`` for ``seconds``: the number of cases and the breaks found."""
    count = 0
    breaks: list[str] = []
    end = time.monotonic() + seconds

    def one(data: st.DataObject) -> None:
        nonlocal count
        count += 1
        if kind == "records":
            CASES[kind](data.draw, tmp, record)
        else:
            CASES[kind](data.draw, tmp)

    while time.monotonic() < end:
        run = seed(random.getrandbits(64))(settings(
            max_examples=ROUND, deadline=None, database=None, derandomize=False,
            suppress_health_check=list(HealthCheck), print_blob=True)(given(st.data())(one)))
        try:
            run()
        except ContractBroken as exc:
            breaks.append(str(exc).splitlines()[0])
            print(f"BREAK {kind}: {breaks[-1]}", file=sys.stderr, flush=True)
        except Exception:
            breaks.append(traceback.format_exc(limit=3).strip().splitlines()[-1])
            print(f"BREAK {kind} (the harness): {breaks[-1]}", file=sys.stderr, flush=True)
    return count, breaks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", default="all", choices=["all", *CASES],
                        help="which input kind to fuzz (default: all, time shared)")
    parser.add_argument("--minutes", type=float, default=10.0,
                        help="time per kind (with --kind all, split among the kinds)")
    args = parser.parse_args()
    kinds = list(CASES) if args.kind == "all" else [args.kind]
    per_kind = args.minutes * 60 / (len(kinds) if args.kind == "all" else 1)
    failed = False
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        record = sample_record(tmp, "garden", seed=11)
        for kind in kinds:
            started = time.monotonic()
            count, breaks = campaign(kind, per_kind, tmp, record)
            took = time.monotonic() - started
            print(f"{kind:>10}: {count:,} cases in {took / 60:.1f} min, "
                  f"{len(breaks)} contract breaks", flush=True)
            for b in sorted(set(breaks)):
                print(f"            {b}")
            failed |= bool(breaks)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
