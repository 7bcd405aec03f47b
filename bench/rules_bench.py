"""Time the rules engine for a big night: one round's movement, re-seating when people come
and go, and the standings.

Run: .venv/bin/python bench/rules_bench.py [players]
Target: under 5 ms for one round's movement with 500 players.
"""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bunco_night.rules.awards import prize_standings  # noqa: E402
from bunco_night.rules.layouts import plan_layout  # noqa: E402
from bunco_night.rules.movement import next_seating, seat_players  # noqa: E402
from bunco_night.rules.presets import DELUXE, HOUSE, LADDER  # noqa: E402
from bunco_night.rules.replan import replan_seating, round_partners  # noqa: E402
from bunco_night.rules.shares import PrizeCategory  # noqa: E402
from bunco_night.rules.standings import BuncoRoll, PlayerRound, rank_standings, tally  # noqa: E402


def timed(fn, repeat=200):
    """Median and worst wall time of ``fn`` in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main(players: int = 500) -> None:
    rng = random.Random(1)
    for rules in (HOUSE, DELUXE, LADDER):
        layout = plan_layout(players, rules)
        ghosts = [f"G{i}" for i in range(layout.ghosts)]
        seating = seat_players(
            [(t.seats, t.ghosts) for t in layout.tables], list(range(players)), ghosts
        )
        winners = [
            rng.choice([(1, 3), (2, 4)]) if t.teams else (rng.randint(1, t.seats),)
            for t in layout.tables
        ]
        median, worst = timed(
            lambda r=rules, s=seating, w=winners, g=set(ghosts): next_seating(r, s, w, g)
        )
        print(
            f"next_seating {rules.name:7s} {players} players: median {median:.2f} ms, "
            f"worst {worst:.2f} ms (target < 5 ms)"
        )
        moved = next_seating(rules, seating, winners, set(ghosts))
        leaving = rng.sample([p for t in moved for p in t if p not in ghosts], 10)
        partners = round_partners(rules, seating)

        def replan(r=rules, s=moved, g=frozenset(ghosts), out=leaving, pairs=partners):
            made = iter(range(10**6))
            return replan_seating(
                r,
                s,
                leaving=out,
                arriving=[f"New {i}" for i in range(7)],
                ghosts=g,
                new_ghost=lambda leaver: ("ghost", leaver, next(made)),
                partners=pairs,
            )

        median, worst = timed(replan)
        print(
            f"replan_seating {rules.name:7s} {players} players, 10 leave and 7 arrive: "
            f"median {median:.2f} ms, worst {worst:.2f} ms"
        )

    rows = [
        PlayerRound(p, rng.random() < 0.5, buncos=int(rng.random() < 0.05))
        for _ in range(24)
        for p in range(players)
    ]
    buncos = [BuncoRoll(rng.randrange(players), i) for i in range(60)]
    cats = [
        PrizeCategory(c, percent=15)
        for c in (
            "most_buncos",
            "most_wins",
            "most_losses",
            "last_bunco",
            "fewest_wins",
            "fuzzy_die",
        )
    ]

    def standings():
        ranked = rank_standings(tally(rows, range(players)))
        return prize_standings(ranked, cats, pot_cents=players * 500, buncos=buncos)

    median, worst = timed(standings, repeat=20)
    print(
        f"standings + prizes, {players} players x 24 rounds: median {median:.1f} ms, "
        f"worst {worst:.1f} ms"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
