"""What was played, as CSV rows: every score entry of a group, and a night's results."""

from __future__ import annotations

from bunco_night.core.money import cents_text
from bunco_night.groups.models import Group
from bunco_night.nights.models import Night

from .models import Entry
from .standings import night_standings

ENTRIES_HEADER = [
    "night_id",
    "date",
    "round",
    "table",
    "seat",
    "roller",
    "kind",
    "mark",
    "points",
    "by_host",
    "entered_at",
    "undone_at",
]
RESULTS_HEADER = ["rank", "player", "wins", "losses", "buncos", "mini_buncos", "prizes", "won"]


def entry_rows(group: Group):
    """Every entry of the group's nights, undone ones too (with when they were undone)."""
    rows = Entry.objects.filter(round__night__group=group).select_related(
        "round__night", "table", "roller"
    )
    for e in rows.order_by("round__night__date", "round__night_id", "created", "pk"):
        yield [
            e.round.night_id,
            e.round.night.date.isoformat(),
            e.round.number,
            e.table.number,
            e.seat,
            e.roller.name if e.roller else "",
            e.kind,
            e.mark_code,
            e.points,
            e.by_host,
            e.created.isoformat(timespec="seconds"),
            e.undone_at.isoformat(timespec="seconds") if e.undone_at else "",
        ]


def result_rows(night: Night):
    """The night's standings, best first, with the prizes each player takes
    (docs/rules.md section 7; a tie not broken yet shows every tied player)."""
    result = night_standings(night)
    prizes: dict[int, list[tuple[str, int]]] = {}
    for prize in result.prizes:
        takers = [prize.winner] if prize.winner is not None else list(prize.candidates)
        for player in takers:
            label = prize.title if prize.winner is not None else f"{prize.title} (tied)"
            prizes.setdefault(player, []).append((label, prize.amount_cents))
    for standing, player in result.rows:
        mine = prizes.get(player.pk, [])
        won = sum(cents for label, cents in mine if not label.endswith("(tied)"))
        yield [
            standing.rank,
            player.name,
            standing.wins,
            standing.losses,
            standing.buncos,
            standing.mini_buncos,
            "; ".join(label for label, _ in mine),
            cents_text(won) if mine else "",
        ]
