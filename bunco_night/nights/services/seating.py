"""Seating a night's rounds: drawing, undoing a draw, swapping, re-seating (docs/rules.md
sections 4, 5 and 10). Each public service is one transaction."""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Sequence

from django.db import transaction

from bunco_night.core.errors import Gone, ServiceError
from bunco_night.groups.models import Player
from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import plan_layout
from bunco_night.rules.movement import Ghost, Seating, seat_players
from bunco_night.rules.replan import replan_seating, round_partners

from ..models import Attendance, Night, Round, Seat, Table
from ..selectors import next_round_number, players_tonight, round_before, seated_tables, seating_of
from .nights import _check_between_rounds, night_lock, night_touch


def seating_reseat(
    night: Night, *, leaving: Sequence[int] = (), arriving: Sequence[int] = ()
) -> None:
    """Who plays changed between rounds: re-seat the next round, keeping everyone else where the
    movement put them (docs/rules.md section 10). ``leaving``, ``arriving``: player ids. A
    seating that no longer fits is cleared."""
    rnd = night.rounds.pending().seated().order_by("number").first()
    if rnd is None or not (leaving or arriving):
        return
    rules = night.rules_obj
    tables_now = seated_tables(rnd)
    seating = seating_of(tables_now)
    planned = rnd.planned_seating or {  # the first change since it was seated
        str(s.player_id): [i, s.number - 1]
        for i, t in enumerate(tables_now)
        for s in t.seats
        if s.player_id is not None
    }
    last = round_before(rnd)
    partners = round_partners(rules, seating_of(seated_tables(last))) if last else {}
    places = {}  # player id -> their place on tonight's list, for the ghost that takes it
    for a in night.attendances.all():
        places[a.player_id] = a.pk
        if a.substitute_id:
            places[a.substitute_id] = a.pk
    numbers = itertools.count(-1, -1)  # seat ids of existing ghosts are positive
    try:
        replan = replan_seating(
            rules,
            seating,
            leaving=leaving,
            arriving=arriving,
            ghosts={o for t in seating for o in t if isinstance(o, Ghost)},
            new_ghost=lambda leaver: Ghost(places.get(leaver), next(numbers)),
            partners=partners,
            homes={int(p): tuple(where) for p, where in planned.items()},
        )
    except RuleError:
        Seat.objects.filter(round=rnd).delete()
        Round.objects.filter(pk=rnd.pk).update(
            replaced_seating=None, draw_seed=None, planned_seating=None
        )
        return
    seating = _ghosts_for_the_absent(night, replan.seating)
    tables = tables_sync(night, [len(t) for t in seating])
    seats_save(rnd, tables, seating)
    # No longer the seating a draw made: its seed would not make it again (section 4.4).
    Round.objects.filter(pk=rnd.pk).update(
        replaced_seating=None, draw_seed=None, planned_seating=planned
    )


def _ghosts_for_the_absent(night: Night, seating: Seating) -> Seating:
    """``seating`` with each ghost standing in for one place not playing tonight, or for
    nobody (docs/rules.md section 4.2)."""
    gone = [
        a.pk
        for a in night.attendances.order_by("pk")
        if a.status in (Attendance.Status.ABSENT, Attendance.Status.LEFT)
    ]
    first = {}  # a place not playing -> the number of the first ghost standing for it
    for o in (o for t in seating for o in t if isinstance(o, Ghost)):
        if o.stands_for in gone:
            first.setdefault(o.stands_for, o.number)
    free = [pk for pk in gone if pk not in first]

    def standing(o):
        if not isinstance(o, Ghost) or first.get(o.stands_for) == o.number:
            return o
        return Ghost(free.pop(0) if free else None, o.number)

    return tuple(tuple(standing(o) for o in t) for t in seating)


def round_mark(night: Night, number: int, rng: random.Random) -> int | None:
    """The mark of round ``number``: the planned one, or a die rolled for it."""
    rules = night.rules_obj
    if rules.draw_mark_with_die and not rules.is_card_game:
        return rng.randint(1, 6)
    return rules.planned_mark(number)


def round_for(night: Night, number: int) -> Round:
    """Round ``number`` of the night, made (in its set) if it does not exist yet."""
    rnd, _ = Round.objects.get_or_create(
        night=night, number=number, defaults={"set_number": night.rules_obj.set_of(number)}
    )
    return rnd


def tables_sync(night: Night, sizes: list[int]) -> list[Table]:
    """Make the night's active tables match ``sizes`` (head table first)."""
    tables = {t.number: t for t in night.tables.all()}
    result = []
    for number, seats in enumerate(sizes, start=1):
        table = tables.get(number)
        if table is None:
            table = Table.objects.create(night=night, number=number, seats=seats)
        elif table.seats != seats or not table.active:
            table.seats, table.active = seats, True
            table.save(update_fields=["seats", "active"])
        result.append(table)
    night.tables.filter(number__gt=len(sizes)).update(active=False)
    return result


@transaction.atomic
def seating_draw(*, night: Night, seed: int | None = None) -> Round:
    """Seat everyone at random (seeded) for the next round (docs/rules.md section 4)."""
    night = night_lock(night.pk)
    _check_between_rounds(night)
    if night.rules_obj.is_buck_dice:
        # docs/rules.md section 9.3: one table for everyone, kept on the Buck Dice page.
        raise ServiceError(
            "Buck Dice has no seating: everyone plays at one table. Open the Buck Dice table.",
            "buck_dice",
        )
    number = next_round_number(night)
    if number > night.total_rounds:
        raise ServiceError("Every round of the night has been played.", "night_complete")
    players = players_tonight(night)
    try:
        layout = plan_layout(len(players), night.rules_obj)
    except RuleError as error:
        raise ServiceError(error.message, error.code) from error
    seed = secrets.randbelow(2**31) if seed is None else seed
    rng = random.Random(seed)
    order = [p.pk for p in players]
    rng.shuffle(order)
    absent = list(
        night.attendances.filter(status=Attendance.Status.ABSENT, player__kind=Player.Kind.REGULAR)
        .order_by("player__name")
        .values_list("pk", flat=True)
    )
    ghosts = [Ghost(absent[i] if i < len(absent) else None, i) for i in range(layout.ghosts)]
    seating = seat_players([(t.seats, t.ghosts) for t in layout.tables], order, ghosts)
    made = not night.rounds.filter(number=number).exists()
    rnd = round_for(night, number)
    tables = seated_tables(rnd)
    # What this draw replaces, so the host can take it back until the round starts.
    rnd.replaced_seating = {
        "mark": rnd.mark,
        "seed": night.seed,
        "draw_seed": rnd.draw_seed,
        "tables": [[[s.player_id, s.ghost_for_id] for s in t.seats] for t in tables],
    }
    if not tables:
        rnd.replaced_seating |= {
            "made": made,
            "sizes": list(
                night.tables.filter(active=True).order_by("number").values_list("seats", flat=True)
            ),
        }
    rnd.mark, rnd.draw_seed = round_mark(night, number, rng), seed
    rnd.save(update_fields=["mark", "replaced_seating", "draw_seed"])
    seats_save(rnd, tables_sync(night, layout.sizes), seating)
    night.seed = seed
    night.save(update_fields=["seed"])
    night_touch(night)
    return rnd


@transaction.atomic
def seating_draw_undo(*, night: Night) -> Round:
    """Put back the seating a draw replaced (none after a first draw), before it starts."""
    night = night_lock(night.pk)
    _check_between_rounds(night)
    rnd = night.rounds.pending().filter(replaced_seating__isnull=False).order_by("number").first()
    if rnd is None:
        raise ServiceError("There is no draw to take back.", "nothing_to_undo")
    kept = rnd.replaced_seating
    if not kept["tables"]:  # the first draw: back to no seating, on the tables before it
        rnd.seats.all().delete()
        tables_sync(night, kept["sizes"])
    else:
        seated = sorted(p for t in kept["tables"] for p, _ in t if p is not None)
        if seated != sorted(p.pk for p in players_tonight(night)):
            raise ServiceError(
                "Who plays has changed since that draw: the old seating no longer fits.",
                "seating_out_of_date",
            )
        numbers = itertools.count(1)
        seating = tuple(
            tuple(p if p is not None else Ghost(ghost_for, next(numbers)) for p, ghost_for in t)
            for t in kept["tables"]
        )
        seats_save(rnd, tables_sync(night, [len(t) for t in seating]), seating)
    if kept.get("made"):  # a round the first draw made goes with it
        rnd.delete()
    else:
        rnd.mark, rnd.replaced_seating, rnd.draw_seed = kept["mark"], None, kept.get("draw_seed")
        rnd.save(update_fields=["mark", "replaced_seating", "draw_seed"])
    night.seed = kept["seed"]
    night.save(update_fields=["seed"])
    night_touch(night)
    return rnd


def seats_save(rnd: Round, tables: list[Table], seating: Seating) -> None:
    """Replace a round's seats with ``seating`` (player ids and ``Ghost`` values)."""
    rnd.seats.all().delete()
    Round.objects.filter(pk=rnd.pk).update(planned_seating=None)
    rows = []
    round_tables = sum(1 for occupants in seating if occupants)
    for table, occupants in zip(tables, seating, strict=True):
        for number, occupant in enumerate(occupants, start=1):
            ghost = isinstance(occupant, Ghost)
            rows.append(
                Seat(
                    round=rnd,
                    table=table,
                    table_seats=table.seats,
                    round_tables=round_tables,
                    number=number,
                    player_id=None if ghost else occupant,
                    ghost_for_id=occupant.stands_for if ghost else None,
                )
            )
    Seat.objects.bulk_create(rows)


@transaction.atomic
def seating_swap(*, seat_a: Seat, seat_b: Seat) -> None:
    """Swap two seats of a round that has not started (seating arranged by hand)."""
    if seat_a.round_id != seat_b.round_id:
        raise ServiceError("Both seats must be in the same round.", "other_round")
    gone = Gone("That seating is gone: the night was deleted or changed meanwhile.")
    # The night first, then the round, as every change to a seating (lock order).
    night_id = Round.objects.filter(pk=seat_a.round_id).values_list("night_id", flat=True).first()
    if night_id is None:
        raise gone
    night_lock(night_id)
    rnd = Round.objects.select_for_update().filter(pk=seat_a.round_id).first()
    if rnd is None:
        raise gone
    if not rnd.is_pending:
        raise ServiceError("Seats can be changed only before the round starts.", "round_started")
    if seat_a.pk == seat_b.pk:
        return
    a_player, a_ghost = seat_a.player_id, seat_a.ghost_for_id
    b_player, b_ghost = seat_b.player_id, seat_b.ghost_for_id
    Seat.objects.filter(pk=seat_a.pk).update(player=None, ghost_for=None)
    Seat.objects.filter(pk=seat_b.pk).update(player_id=a_player, ghost_for_id=a_ghost)
    Seat.objects.filter(pk=seat_a.pk).update(player_id=b_player, ghost_for_id=b_ghost)
    _check_no_ghost_partners(rnd)
    # The host's seating is the plan now: nobody is sent back to a seat before the swap.
    Round.objects.filter(pk=rnd.pk).update(planned_seating=None)
    night_touch(rnd.night)


def _check_no_ghost_partners(rnd: Round) -> None:
    """Two ghosts are never partners (docs/rules.md section 5.5)."""
    for t in seated_tables(rnd):
        if any(s.is_ghost and p is not None and p.is_ghost for s, p in t.seat_rows):
            raise ServiceError("Two ghosts cannot be partners.", "ghost_partners")
