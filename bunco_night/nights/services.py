"""Planning a night: attendance, substitutes, ghosts, dues and seating (each one transaction).

Services load rows, call the rules engine with plain values and save what comes
back. A ``ServiceError`` says what cannot be done.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import secrets
from collections.abc import Sequence

from django.db import IntegrityError, OperationalError, connection, transaction
from django.db.models import F

from bunco_night.core.errors import Gone, ServiceError
from bunco_night.core.text import column_check, is_nonce
from bunco_night.groups.models import Group, Player
from bunco_night.groups.services import player_add
from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import plan_layout
from bunco_night.rules.movement import Ghost, Seating, seat_players
from bunco_night.rules.replan import replan_seating, round_partners

from .models import Attendance, Night, Payment, Prepayment, RetiredPlace, Round, Seat, Table
from .money import money_record
from .selectors import (
    delete_refusal,
    next_round_number,
    players_tonight,
    round_before,
    seated_tables,
    seating_of,
)


def night_touch(night: Night) -> None:
    """Bump the night's version so polling pages know something changed."""
    Night.objects.filter(pk=night.pk).update(version=F("version") + 1)
    night.refresh_from_db(fields=["version"])


def _bad_form_id() -> ServiceError:
    """The answer to a form sent with an id that is not a form id, or another group's."""
    return ServiceError("This form has no valid id: reload the page.", "bad_nonce")


@transaction.atomic
def night_create(
    *,
    group: Group,
    date: dt.date,
    time: dt.time | None = None,
    place: str = "",
    sets: int | None = None,
    nonce: str | None = None,
) -> Night:
    """Plan a night: the group's rules, dues and prizes are copied, every active regular is
    coming.
    A repeated ``nonce`` (the same plan form sent again) gives the night it planned, as it
    is (its ``planned_before`` is True)."""
    if nonce and not is_nonce(nonce):
        raise _bad_form_id()
    if nonce:
        existing = Night.objects.filter(nonce=nonce).first()
        if existing is not None:
            return _planned(existing, group)
    rules = group.rules_obj
    sets = rules.sets_per_night if sets is None else sets
    if not 1 <= sets <= 12:
        raise ServiceError("A night has 1 to 12 sets.", "bad_sets", "sets")
    place = column_check(Night, "place", place.strip(), label="The place")
    try:
        with transaction.atomic():
            night = Night.objects.create(
                group=group,
                date=date,
                time=time,
                place=place,
                sets=sets,
                rules=rules.as_dict(),
                dues_cents=group.dues_cents,
                prizes=[p.as_data() for p in group.prizes.all()],
                nonce=nonce or None,
            )
    except IntegrityError:  # the same form, sent twice at once: the first one planned it
        return _planned(Night.objects.get(nonce=nonce), group)
    regulars = group.players.filter(kind=Player.Kind.REGULAR, retired=False)
    Attendance.objects.bulk_create([Attendance(night=night, player=p) for p in regulars])
    return night


def _planned(night: Night, group: Group) -> Night:
    """The night a plan form sent again planned: it must be the same group's."""
    if night.group_id != group.pk:
        raise _bad_form_id()
    night.planned_before = True
    return night


@transaction.atomic
def night_update(
    *, night: Night, date: dt.date, time: dt.time | None, place: str, sets: int
) -> Night:
    """Change when and where, or how many sets, before the night is over.

    The night is locked before the last round played is read, as a round's close, start
    and the seating services lock it: a close in progress commits first (its round
    closed, the next one seated), and this sees it, deletes a round seated beyond the new
    last one and ends a night whose last round is played; those wait for this. It takes
    no started round's row, so the order of the locks is theirs: the night, then the
    pending rounds' rows it deletes."""
    night = night_lock(night.pk)
    if night.is_over:
        raise ServiceError("This night is over.", "night_over")
    if not 1 <= sets <= 12:
        raise ServiceError("A night has 1 to 12 sets.", "bad_sets", "sets")
    played = night.rounds.started().order_by("-number").first()
    rules = night.rules_obj
    last = rules.rounds_for(sets)
    if played is not None and played.number > last:
        needed = rules.sets_for(played.number)
        raise ServiceError(
            f"Round {played.number} has been played: this night needs at least {needed} sets.",
            "sets_below_played",
            "sets",
        )
    place = column_check(Night, "place", place.strip(), label="The place")
    night.date, night.time, night.place, night.sets = date, time, place, sets
    night.save(update_fields=["date", "time", "place", "sets"])
    # A round seated beyond the new last round is never played.
    night.rounds.pending().filter(number__gt=last).delete()
    if played is not None and played.is_closed and played.number == last:
        night.status = Night.Status.FINISHED  # the last round of the shorter night is played
        night.save(update_fields=["status"])
        money_record(night)  # docs/rules.md section 7.9
    night_touch(night)
    return night


@transaction.atomic
def night_delete(*, night: Night) -> None:
    """Delete a night that will not happen (planned by mistake, or called off), with its
    list, answers and any seating drawn, unless ``delete_refusal`` says why not.

    The delete waits for no lock for long: a co-host's change to the night at the same
    moment may hold its rows in another order (a payment holds its attendance, then
    moves the night), so on PostgreSQL the delete gives up after a moment and asks the
    host to try again, instead of a deadlock that might cancel the co-host's change."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '500ms'")
    try:
        night = night_lock(night.pk)
        refusal = delete_refusal(night)
        if refusal is not None:
            raise ServiceError(*refusal)
        night.delete()
    except OperationalError as error:
        raise ServiceError(
            "Someone is changing this night right now: try again in a moment.", "night_busy"
        ) from error


def night_lock(night_id: int) -> Night:
    """Serialise changes to one night (the database lock is the guard, not the process).

    A co-host may have deleted the night since the request looked it up: then the
    request is answered as any link to a deleted night is (``Gone``, Not Found), not
    with a server error."""
    locked = Night.objects.select_for_update().filter(pk=night_id).first()
    if locked is None:
        raise Gone("That night has been deleted.")
    return locked


def _check_between_rounds(night: Night) -> None:
    if night.is_over:
        raise ServiceError("This night is over.", "night_over")
    if night.rounds.playing().exists():
        raise ServiceError(
            "A round is being played: change who plays once it is over.", "round_in_play"
        )


def seating_reseat(
    night: Night, *, leaving: Sequence[int] = (), arriving: Sequence[int] = ()
) -> None:
    """Who plays changed between rounds: re-seat the next round, keeping everyone else where
    the movement put them (docs/rules.md section 10).

    ``leaving`` and ``arriving`` are player ids. A leaver's seat goes to a ghost standing in
    for their place on the list, where the group plays with ghosts. Someone a partner rule
    moved off their seat at an earlier change goes back to the seat the round was planned
    with (``Round.planned_seating``) once no rule needs the move. A seating that cannot be
    kept (it no longer matches who plays) is cleared, and the host draws again.
    """
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
    """``seating`` with each ghost standing in for a place on tonight's list whose player
    does not play (absent, or left), each place once (docs/rules.md section 4.2): a ghost
    whose place's player plays again stands in for another such place, or for nobody."""
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


def lists_follow_retirement(*, player: Player, retired: bool) -> None:
    """A retired player leaves the lists of the group's nights not started yet, and what
    their place said is kept; brought back, they are on those lists again as their place
    said, and a regular who had none there is on it as coming (docs/rules.md section 8.1).
    A night in play changes between rounds, by the host. A place with dues taken for it,
    and the place of a regular who sends a substitute, stay for the host to settle."""
    for pk in player.group.nights.filter(status=Night.Status.PLANNING).values_list("pk", flat=True):
        try:
            night = night_lock(pk)
        except Gone:  # deleted meanwhile
            continue
        if night.rounds.started().exists():
            continue
        place = night.attendances.filter(player=player).first()
        if retired and place is not None:
            if place.sends_substitute or place.payments.exists():
                continue
            RetiredPlace.objects.update_or_create(
                night=night, player=player, defaults={"status": place.status, "token": place.token}
            )
            plays = place.plays
            place.delete()  # a ghost that stood in for them stands in for nobody (SET_NULL)
            # A draw taken back would bring back a seating that names the place.
            night.rounds.pending().update(replaced_seating=None)
            seating_reseat(night, **_plays_change(plays, None))
            night_touch(night)
        elif not retired and place is None:
            kept = night.retired_places.filter(player=player).first()
            if kept is None and not player.is_regular:
                continue
            if player.pk in _playing_ids(night):  # a substitute for someone tonight
                continue
            if kept is None:
                place = Attendance.objects.create(night=night, player=player)
            else:
                place = Attendance(night=night, player=player, status=kept.status)
                if not Attendance.objects.filter(token=kept.token).exists():
                    place.token = kept.token  # their link answers again
                place.save()
            seating_reseat(night, **_plays_change(None, place.plays))
            night_touch(night)
    if not retired:  # what is not put back now never will be
        RetiredPlace.objects.filter(player=player).delete()


def _plays_change(before: Player | None, after: Player | None) -> dict:
    """Who leaves and who arrives when an attendance's player changes."""
    if before == after:
        return {}
    return {
        "leaving": [before.pk] if before else [],
        "arriving": [after.pk] if after else [],
    }


def _playing_ids(night: Night, exclude: Attendance | None = None) -> set[int]:
    ids = set()
    for a in night.attendances.exclude(pk=getattr(exclude, "pk", None)):
        ids.add(a.player_id)
        if a.substitute_id:
            ids.add(a.substitute_id)
    return ids


@transaction.atomic
def attendance_set(
    *, attendance: Attendance, status: str, substitute: Player | None = None
) -> Attendance:
    """Say whether a regular comes, sends a substitute, or sends nobody."""
    night = night_lock(attendance.night_id)
    _check_between_rounds(night)
    if status not in (
        Attendance.Status.COMING,
        Attendance.Status.SENT_SUB,
        Attendance.Status.ABSENT,
    ):
        raise ServiceError(
            "Choose coming, sends a substitute, or not coming.", "bad_status", "status"
        )
    if status == Attendance.Status.SENT_SUB:
        if substitute is None:
            raise ServiceError(
                "Pick the substitute, or add a new one.", "no_substitute", "substitute"
            )
        if substitute.group_id != night.group_id:
            raise ServiceError("That substitute is not in this group.", "other_group", "substitute")
        if substitute.pk == attendance.player_id:
            raise ServiceError(
                "A player cannot substitute for themselves.", "self_substitute", "substitute"
            )
        if substitute.retired:
            raise ServiceError(f"{substitute} is retired.", "retired", "substitute")
        if substitute.pk in _playing_ids(night, exclude=attendance):
            raise ServiceError(
                f"{substitute} is already on tonight's list.", "already_playing", "substitute"
            )
    elif substitute is not None:
        raise ServiceError(
            "Only someone who is not coming sends a substitute.", "sub_for_coming", "substitute"
        )
    before = attendance.plays
    attendance.status = status
    attendance.substitute = substitute if status == Attendance.Status.SENT_SUB else None
    attendance.save(update_fields=["status", "substitute"])
    seating_reseat(night, **_plays_change(before, attendance.plays))
    night_touch(attendance.night)
    return attendance


@transaction.atomic
def attendance_send_new_substitute(
    *, attendance: Attendance, name: str, phone: str = "", email: str = ""
) -> Attendance:
    """Add a new substitute to the roster on the spot and send them."""
    sub = player_add(
        group=attendance.night.group,
        name=name,
        kind=Player.Kind.SUBSTITUTE,
        phone=phone,
        email=email,
    )
    return attendance_set(attendance=attendance, status=Attendance.Status.SENT_SUB, substitute=sub)


@transaction.atomic
def guest_add(*, night: Night, player: Player | None = None, name: str = "") -> Attendance:
    """Someone not on tonight's list comes (a late arrival, a substitute playing for the
    pot): a player on the roster, or someone new by ``name``, who joins the roster as a
    substitute."""
    night = night_lock(night.pk)
    _check_between_rounds(night)
    if player is None:
        player = player_add(group=night.group, name=name, kind=Player.Kind.SUBSTITUTE)
    if player.group_id != night.group_id:
        raise ServiceError("That player is not in this group.", "other_group", "player")
    if player.retired:
        raise ServiceError(f"{player} is retired.", "retired", "player")
    if player.pk in _playing_ids(night):
        raise ServiceError(f"{player} is already on tonight's list.", "already_playing", "player")
    attendance = Attendance.objects.create(night=night, player=player)
    seating_reseat(night, arriving=[player.pk])
    night_touch(night)
    return attendance


@transaction.atomic
def attendance_leave(*, attendance: Attendance) -> Attendance | None:
    """Someone leaves between rounds. With no round played, a guest's row goes away;
    anyone who has played is kept (as left early) with their history and dues."""
    night = night_lock(attendance.night_id)
    _check_between_rounds(night)
    before = attendance.plays
    played = Seat.objects.filter(round__in=night.rounds.closed(), player=before).exists()
    if not played and not attendance.player.is_regular and not attendance.payments.exists():
        attendance.delete()
        result = None
    else:
        attendance.status = Attendance.Status.LEFT if played else Attendance.Status.ABSENT
        attendance.substitute = None
        attendance.save(update_fields=["status", "substitute"])
        result = attendance
    seating_reseat(night, **_plays_change(before, None))
    night_touch(night)
    return result


@transaction.atomic
def payment_record(
    *,
    attendance: Attendance,
    amount_cents: int,
    nonce: str | None = None,
    last_seen: int | None = None,
) -> Payment:
    """The host took money for an attendance's dues; a repeated ``nonce`` records it once.

    ``last_seen``: the attendance's latest payment as the host's page showed it (0: none).
    When given and the dues have changed since (another tab or a co-host took a payment,
    or took one back), the payment is refused, so a page out of date records none twice."""
    if nonce and not is_nonce(nonce):
        raise _bad_form_id()
    # NO KEY UPDATE: a plain FOR UPDATE would also block the foreign-key check of a
    # ghost's seat for this attendance (PostgreSQL checks it when a round close
    # commits, after the close bumped the night this payment bumps next): a deadlock.
    if Attendance.objects.select_for_update(no_key=True).filter(pk=attendance.pk).first() is None:
        raise Gone(
            "That place on the night's list is gone: the night was deleted, or the guest left."
        )
    # Looked up once the attendance is held: the same tap sent again, even while its first
    # send held the lock, is that payment.
    if nonce:
        existing = Payment.objects.filter(nonce=nonce).first()
        if existing is not None:
            return existing
    if amount_cents <= 0:
        raise ServiceError("Enter an amount above zero.", "bad_amount", "amount")
    if amount_cents > 100_000:
        raise ServiceError("That is more than $1,000: check the amount.", "bad_amount", "amount")
    if last_seen is not None and last_seen != _last_payment_id(attendance):
        raise ServiceError(
            f"{attendance.player.name}'s dues changed since this page was drawn (another tab "
            "or a co-host): here they are now. Tap again if there is more to take.",
            "dues_changed",
        )
    try:
        with transaction.atomic():
            payment = Payment.objects.create(
                attendance=attendance, amount_cents=amount_cents, nonce=nonce or None
            )
    except IntegrityError:
        return Payment.objects.get(nonce=nonce)
    night_touch(attendance.night)
    return payment


def _last_payment_id(attendance: Attendance) -> int:
    """The id of the attendance's latest payment, as the night page shows it; 0: none."""
    latest = attendance.payments.order_by("-created", "-pk").values_list("pk", flat=True)
    return latest.first() or 0


@transaction.atomic
def payment_undo(*, payment: Payment) -> None:
    """Take back a payment entered by mistake."""
    night = payment.attendance.night
    payment.delete()
    night_touch(night)


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
    """Seat everyone at random for the next round (seeded, so a re-draw is reproducible).

    The layout follows docs/rules.md section 4 for the number present and the group's
    choice of small tables or ghosts; ghosts stand in for absent regulars.
    """
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
    # What this draw replaces, so the host can take the draw back until the round starts.
    # A first draw replaces no seating: taking it back leaves the round unseated (or not
    # made), with the tables in use before it.
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
    """Put back the seating a draw replaced, while its round has not started; after a
    first draw, no seating, as before it."""
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
        # The seed of the draw that made the seating put back, if a draw made it.
        rnd.mark, rnd.replaced_seating, rnd.draw_seed = kept["mark"], None, kept.get("draw_seed")
        rnd.save(update_fields=["mark", "replaced_seating", "draw_seed"])
    night.seed = kept["seed"]
    night.save(update_fields=["seed"])
    night_touch(night)
    return rnd


def seats_save(rnd: Round, tables: list[Table], seating: Seating) -> None:
    """Replace a round's seats with ``seating`` (player ids, and ``Ghost`` values): the
    seating the round is planned with from now on (a re-seat keeps its plan)."""
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
    # The night first, then the round, as every change to a seating: a correction to the
    # round before seats this one again (play.services.results_recompute).
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


# ---------------------------------------------------------------------------
# Dues paid ahead (docs/rules.md section 8.6)


@transaction.atomic
def prepayment_record(
    *,
    player: Player,
    amount_cents: int,
    starts: dt.date,
    note: str = "",
    nonce: str | None = None,
) -> Prepayment:
    """The host took dues ahead (a season up front); they pay the player's nights from
    ``starts`` on. A repeated ``nonce`` records it once."""
    if nonce:
        existing = Prepayment.objects.filter(nonce=nonce).first()
        if existing is not None:
            return existing
    if amount_cents <= 0:
        raise ServiceError("Enter an amount above zero.", "bad_amount", "amount")
    if amount_cents > 1_000_000:
        raise ServiceError("That is more than $10,000: check the amount.", "bad_amount", "amount")
    if player.retired:
        raise ServiceError(f"{player} is retired.", "retired", "player")
    try:
        with transaction.atomic():
            prepayment = Prepayment.objects.create(
                player=player,
                amount_cents=amount_cents,
                starts=starts,
                note=note.strip()[:120],
                nonce=nonce or None,
            )
    except IntegrityError:
        return Prepayment.objects.get(nonce=nonce)
    for night in player.group.nights.filter(date__gte=starts, status=Night.Status.PLANNING):
        night_touch(night)
    return prepayment


@transaction.atomic
def prepayment_undo(*, prepayment: Prepayment) -> None:
    """Take back prepaid dues entered by mistake."""
    player, starts = prepayment.player, prepayment.starts
    prepayment.delete()
    for night in player.group.nights.filter(date__gte=starts, status=Night.Status.PLANNING):
        night_touch(night)
