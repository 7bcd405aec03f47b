"""The speed layer piece by piece: the party with every piece, and without each one, in one run.

Run: .venv/bin/python bench/pieces.py [--rounds 2] [--pieces warm kept-boards ...]
     [-- party_bench options, e.g. --seconds 30 --bare-seconds 10]
With DATABASE_URL naming a PostgreSQL server, on PostgreSQL (as party_bench.py).

Runs bench/party_bench.py once with everything and once ``--without`` each piece, in
turn, ``--rounds`` times (every other round in the reverse order, so that neither side
always runs first), then prints the figures side by side: taps' and polls' p50/p95, the
bare taps' p95 of each run (how fast the machine was then) and gunicorn's CPU a request.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from served import WITHOUT, is_postgres, load_average

PARTY = Path(__file__).resolve().with_name("party_bench.py")
EVERYTHING = "(everything)"
# Pieces only PostgreSQL has: left out on SQLite unless --pieces names them.
ONLY_POSTGRES = {"listening", "prepared", "psycopg-prepares"}
SKIPPED = {"health-checks"}  # a setting, not a piece of the speed layer
COLUMNS = [
    ("taps", "p50"),
    ("taps", "p95"),
    ("taps", "p99"),
    ("table poll", "p95"),
    ("player poll", "p95"),
    ("all polls", "p95"),
    ("all polls", "p99"),
    ("taps", "bare p95"),
]


def default_pieces(postgres: bool) -> list[str]:
    return sorted(set(WITHOUT) - SKIPPED - (set() if postgres else ONLY_POSTGRES))


def run(variant: str, party_args: list[str], out: Path) -> dict:
    command = [sys.executable, str(PARTY), "--json", str(out), *party_args]
    if variant != EVERYTHING:
        command += ["--without", variant]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0 or not out.exists():
        sys.stdout.write(done.stdout[-3000:] + done.stderr[-3000:])
        raise SystemExit(f"party_bench.py failed for {variant} ({done.returncode})")
    figures = json.loads(out.read_text())
    figures["seconds"] = time.monotonic() - started
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="runs of each variant (default 2)")
    parser.add_argument(
        "--pieces", nargs="+", choices=sorted(WITHOUT), help="default: all that apply"
    )
    parser.add_argument("party_args", nargs="*", help="after --: options for party_bench.py")
    args = parser.parse_args()
    postgres = is_postgres(os.environ.get("DATABASE_URL", ""))
    variants = [EVERYTHING, *(args.pieces or default_pieces(postgres))]
    results: dict[str, list[dict]] = {v: [] for v in variants}
    with tempfile.TemporaryDirectory(prefix="bunco-pieces-") as tmp:
        for round_ in range(args.rounds):
            order = variants if round_ % 2 == 0 else variants[::-1]
            for variant in order:
                load = load_average()
                figures = run(variant, args.party_args, Path(tmp) / f"{variant}-{round_}.json")
                figures["load"] = load
                results[variant].append(figures)
                taps = figures["kinds"]["taps"]
                print(
                    f"round {round_ + 1} {variant:<17} taps p95 {taps['p95']:6.1f} ms "
                    f"(bare {taps['bare p95']:.1f}), cpu {figures['cpu ms/request']:.2f} "
                    f"ms/request, load before {load}, {figures['seconds']:.0f} s",
                    flush=True,
                )
    print()
    print(f"{'PostgreSQL' if postgres else 'SQLite'}: each cell lists the rounds' figures, ms.")
    header = ["without"] + [f"{kind} {figure}" for kind, figure in COLUMNS] + ["cpu/request"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for variant, runs in results.items():
        cells = [variant]
        for kind, figure in COLUMNS:
            cells.append(", ".join(f"{r['kinds'][kind][figure]:.1f}" for r in runs))
        cells.append(", ".join(f"{r['cpu ms/request']:.2f}" for r in runs))
        print("| " + " | ".join(cells) + " |")
    print("\n0 errors in every run (party_bench.py fails a run with any, and this stops).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
