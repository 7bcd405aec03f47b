"""The rules that must always hold, whatever a group does, checked by a Hypothesis state
machine that drives the services as the host, the players' answer links and the table
phones would (docs/testing.md says how to run it long).

The machine plans up to three nights and then mixes, in any order: players' answers
(coming, not coming, sending a substitute), the host's changes to who comes, dues paid
and taken back (on finished nights too, saying yes or no to the change of money), dues
paid ahead, seating draws and swaps, rounds started, taps and Done and tie-breaks from
the table phones, the host setting a table's winner, rounds closed, corrections of closed
rounds, late arrivals and leavers, nights ended or shortened, prizes' tie-breaks and the
door prize, seasons made and their share changed, the group's rules and prizes changed,
and players retired and brought back.

After every step it checks (docs/rules.md sections 6.6, 7 and 7.9):

- money is conserved on every night, to the cent: what was collected is the pot and the
  season's share, and the pot is every prize's money and what is left over;
- a finished night's recorded money never moves but by a change the host said yes to (or
  one that only names the winner of a prize whose money waited for one), and every reader
  (the night's dues, the prize standings) shows the recorded figures;
- everyone who played a round is in the night's standings, in the prize standings' and
  the prize sheet's data, in the results CSV and on the tally sheets' list;
- someone who played a round is on the night's list as coming or as left early, never as
  not coming or sending a substitute (section 10: they can only leave);
- no recorded choice differs from the last one made: each regular's answer on a night not
  started (a substitute's yes to her seat included), each prize's tie-break, each season's
  share, who is retired;
- the group's substitutes are asked only for a place nobody holds.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import os
import time
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Player
from bunco_night.groups.services import (
    group_create,
    player_add,
    player_retire,
    prizes_set,
    rules_update,
    season_create,
    season_update,
)
from bunco_night.invites.messages import site_links
from bunco_night.invites.models import SubstituteCall, SubstituteOffer
from bunco_night.invites.services import answer_record, offer_accept, offer_decline
from bunco_night.nights import actions as night_actions
from bunco_night.nights.models import Attendance, MoneyRecord, Night, Payment, Seat
from bunco_night.nights.money import MoneyChange, figures_now
from bunco_night.nights.played import played_a_round
from bunco_night.nights.selectors import dues_summary, seated_tables
from bunco_night.nights.services import night_create, prepayment_record
from bunco_night.play import actions as play_actions
from bunco_night.play import services as play
from bunco_night.play.exports import result_rows
from bunco_night.play.models import PrizeTiebreak
from bunco_night.play.standings import night_standings
from bunco_night.play.state import round_board
from bunco_night.printing.documents import PlayLinks, prize_sheet, tally_sheets
from bunco_night.rules.money import money_of, only_names_winners, unbalanced
from bunco_night.rules.presets import LADDER_MOVEMENT, preset
from tests.search import DEPTH_NAME, machine_search

pytestmark = pytest.mark.django_db

# How hard to look (docs/testing.md, tests/search.py): about 30 s in every test run; with
# BUNCO_HYPOTHESIS=long, 20 times the examples, each twice as long, and searches again
# until BUNCO_HYPOTHESIS_MINUTES have passed, if given.
SEARCH = machine_search(12, 30)
PRIZES = [
    "most_wins",
    "most_buncos",
    "last_bunco",
    "fewest_wins",
    "most_losses",
    "first_bunco",
    "door_prize",
    "best_round",
]
DATES = [dt.date(2026, 12, d) for d in (4, 11, 18, 25)]
SIDES = st.lists(st.integers(0, 3), min_size=1, max_size=6)  # each table's winning side
LINKS = PlayLinks(lambda path: f"http://testserver{path}")
_nonces = itertools.count(1)


def nonce() -> str:
    return f"machine-{next(_nonces):010d}"


class NightMachine(RuleBasedStateMachine):
    """One group's life, step by step."""

    examples = 0
    happened: Counter = Counter()  # what the search reached, for its summary

    @classmethod
    def seen(cls, what: str) -> None:
        event(what)
        cls.happened[what] += 1

    def __init__(self):
        super().__init__()
        type(self).examples += 1
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self.nights: list[int] = []
        self.kept = {}  # night id -> its money as recorded, as the machine expects it
        self.choices: dict[tuple[int, int], tuple[str, int | None]] = {}
        self.tiebreaks: dict[tuple[int, str], int | None] = {}
        self.shares: dict[int, int] = {}
        self.retired: set[int] = set()
        self.counted: dict[int, tuple] = {}  # night id -> its versions when last counted

    def teardown(self):
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    # -- set-up -------------------------------------------------------------------------

    @initialize(
        rules=st.sampled_from(["house", "deluxe", "ladder", "two_dice"]),
        ghosts=st.booleans(),
        regulars=st.integers(5, 9),
        ties=st.sampled_from(["roll_off", "split"]),
        leftover=st.sampled_from(["first_prize", "next_pot", "host"]),
        rounding=st.sampled_from(["dollars", "quarters", "cents"]),
        substitutes=st.sampled_from(["win", "regular", "none"]),
        dues=st.sampled_from([300, 500, 725]),
    )
    def make_group(self, rules, ghosts, regulars, ties, leftover, rounding, substitutes, dues):
        host = get_user_model().objects.create_user(f"host{NightMachine.examples}")
        self.host = host
        self.group = group_create(
            name=f"Machine {NightMachine.examples}", user=host, rules=rules, dues_cents=dues
        )
        # Ladder movement plays at tables of four: its presets fill with ghosts.
        ghosts = ghosts or preset(rules).movement == LADDER_MOVEMENT
        rules_update(
            group=self.group,
            changes={
                "fill": "ghosts" if ghosts else "tables",
                "prize_ties": ties,
                "prize_leftover": leftover,
                "prize_rounding": rounding,
                "substitute_prizes": substitutes,
            },
        )
        for i in range(1, regulars + 1):
            player_add(group=self.group, name=f"Regular {i}")
        for i in range(1, 4):
            player_add(group=self.group, name=f"Sub {i}", kind=Player.Kind.SUBSTITUTE)

    # -- helpers --------------------------------------------------------------------------

    def night(self, i: int) -> Night:
        return Night.objects.get(pk=self.nights[i % len(self.nights)])

    def players(self, kind=None):
        qs = self.group.players.order_by("pk")
        return list(qs.filter(kind=kind) if kind else qs)

    def pick(self, items, i):
        return items[i % len(items)] if items else None

    def remember(self, night: Night) -> None:
        """The record of a night that has just ended, or was changed on purpose."""
        night.refresh_from_db()
        if night.is_over and night.pk not in self.kept:
            self.seen("a night ended")
        if night.is_over:
            self.kept[night.pk] = MoneyRecord.objects.get(night=night).as_figures

    def on_night(self, night: Night, call, confirm: bool) -> None:
        """A host's change to ``night`` (``call(money_ok)``): on a finished night that moves
        its money the host is asked, and says yes (``confirm``) or no."""
        before = self.kept.get(night.pk)
        try:
            call("")
        except MoneyChange as change:
            self.seen("a finished night's money: the host was asked")
            if not confirm:
                return
            call(change.token)
            self.seen("a finished night's money: changed with the host's yes")
            self.remember(night)
            return
        except ServiceError:
            return
        if before is not None:
            after = MoneyRecord.objects.get(night=night).as_figures
            assert money_of(after) == money_of(before) or only_names_winners(before, after), (
                "a finished night's money moved without the host's yes"
            )
            if money_of(after) != money_of(before):
                self.seen("a finished night: a waiting prize's winner named without asking")
            self.kept[night.pk] = after
        else:
            self.remember(night)

    def playing_round(self, night: Night):
        return night.rounds.playing().first()

    # -- planning and answers -----------------------------------------------------------

    @precondition(lambda self: len(self.nights) < 3)
    @rule(date=st.sampled_from(DATES), sets=st.integers(1, 2))
    def plan_night(self, date, sets):
        night = night_create(group=self.group, date=date, sets=sets)
        self.nights.append(night.pk)
        for a in night.attendances.all():
            self.choices[(night.pk, a.player_id)] = (a.status, None)

    @precondition(lambda self: self.nights)
    @rule(
        n=st.integers(0, 2),
        who=st.integers(0, 20),
        choice=st.sampled_from(["coming", "absent", "substitute", "ask"]),
        sub=st.integers(0, 5),
        by_link=st.booleans(),
    )
    def answer(self, n, who, choice, sub, by_link):
        """A regular answers from their link (asking the group's substitutes, too), or the
        host changes their answer."""
        night = self.night(n)
        regular = self.pick(self.players(Player.Kind.REGULAR), who)
        substitute = self.pick(self.players(Player.Kind.SUBSTITUTE), sub)
        attendance = night.attendances.filter(player=regular).first()
        if attendance is None:
            return
        status = {"coming": "coming", "absent": "absent", "substitute": "sub", "ask": "absent"}
        status = status[choice]
        if choice == "ask" and not by_link:
            return  # the host asks from the answers panel: not a choice of who comes
        try:
            if by_link:
                answer_record(
                    player=regular,
                    night=night,
                    choice=status if choice == "substitute" else choice,  # "sub"
                    links=site_links(),
                    substitute=substitute if choice == "substitute" else None,
                )
            else:
                night_actions.attendance_set(
                    attendance=attendance,
                    by=self.host,
                    status=status,
                    substitute=substitute if status == "sub" else None,
                )
        except ServiceError:
            return
        chosen = substitute.pk if status == "sub" else None
        self.choices[(night.pk, regular.pk)] = (status, chosen)
        if choice == "ask" and attendance.calls.filter(status=SubstituteCall.Status.OPEN):
            self.seen("the group's substitutes asked")
        if choice == "substitute" and by_link:
            self.seen("a regular named her substitute from her link")

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2), who=st.integers(0, 20))
    def ask_the_substitutes(self, n, who):
        """A regular asks the group's substitutes for her seat from her link."""
        self.answer(n, who, "ask", 0, True)

    @precondition(lambda self: self.nights)
    @rule(which=st.integers(0, 30), accept=st.booleans())
    def substitute_answers(self, which, accept):
        """A substitute asked for a seat accepts or declines it from her link; the first to
        accept takes the seat: her yes is then the last choice made for it."""
        asked = SubstituteOffer.objects.filter(
            call__attendance__night__group=self.group, status=SubstituteOffer.Status.ASKED
        )
        offer = self.pick(list(asked.select_related("call__attendance").order_by("pk")), which)
        if offer is None:
            return
        try:
            if accept:
                offer = offer_accept(offer=offer, links=site_links())
            else:
                offer_decline(offer=offer, links=site_links())
        except ServiceError:
            return
        if offer.status == SubstituteOffer.Status.ACCEPTED:
            place = offer.call.attendance
            self.choices[(place.night_id, place.player_id)] = ("sub", offer.player_id)
            self.seen("a substitute took a seat from her link")

    # -- money ----------------------------------------------------------------------------

    @precondition(lambda self: self.nights)
    @rule(
        n=st.integers(0, 2),
        place=st.integers(0, 20),
        all_due=st.booleans(),
        confirm=st.booleans(),
    )
    def pay(self, n, place, all_due, confirm):
        night = self.night(n)
        attendance = self.pick(list(night.attendances.order_by("pk")), place)
        if attendance is None:
            return
        row = next(r for r in dues_summary(night).rows if r.attendance.pk == attendance.pk)
        cents = row.due_cents if all_due and row.due_cents else night.dues_cents
        if cents <= 0:
            return
        key = nonce()

        def call(ok):
            night_actions.payment_record(
                attendance=attendance, amount_cents=cents, by=self.host, nonce=key, money_ok=ok
            )

        self.on_night(night, call, confirm)

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2), which=st.integers(0, 30), confirm=st.booleans())
    def take_back(self, n, which, confirm):
        night = self.night(n)
        payment = self.pick(list(Payment.objects.filter(attendance__night=night)), which)
        if payment is None:
            return

        def call(ok):  # the page asks again for the payment, as a view does
            again = Payment.objects.get(pk=payment.pk)
            night_actions.payment_undo(payment=again, by=self.host, money_ok=ok)

        self.on_night(night, call, confirm)

    @rule(who=st.integers(0, 20), amount=st.sampled_from([500, 1000, 1500]), day=st.integers(0, 4))
    def pay_ahead(self, who, amount, day):
        player = self.pick(self.players(), who)
        starts = dt.date(2026, 12, 1) + dt.timedelta(days=7 * day)
        with contextlib.suppress(ServiceError):
            prepayment_record(player=player, amount_cents=amount, starts=starts)

    # -- seating and play ---------------------------------------------------------------

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2), seed=st.integers(0, 2**31 - 1))
    def draw(self, n, seed):
        with contextlib.suppress(ServiceError):
            night_actions.seating_draw(night=self.night(n), by=self.host, seed=seed)

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2), a=st.integers(0, 40), b=st.integers(0, 40))
    def swap(self, n, a, b):
        night = self.night(n)
        rnd = night.rounds.pending().seated().order_by("number").first()
        if rnd is None:
            return
        seats = list(rnd.seats.order_by("table__number", "number"))
        with contextlib.suppress(ServiceError):
            night_actions.seating_swap(
                seat_a=self.pick(seats, a), seat_b=self.pick(seats, b), by=self.host
            )

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2))
    def start_round(self, n):
        with contextlib.suppress(ServiceError):
            play.round_start(night=self.night(n))

    @precondition(lambda self: self.nights)
    @rule(
        n=st.integers(0, 2),
        t=st.integers(0, 5),
        seat=st.integers(1, 4),
        tap=st.sampled_from(
            [("points", 1), ("points", 2), ("points", 3), ("bunco", 0), ("mini", 0), ("miss", 0)]
        ),
        times=st.integers(1, 8),
    )
    def taps(self, n, t, seat, tap, times):
        """A table phone taps what rolls scored."""
        night = self.night(n)
        rnd = self.playing_round(night)
        if rnd is None:
            return
        table = self.pick(seated_tables(rnd), t)
        kind, count = tap
        for _ in range(times):
            try:
                play.entry_record(
                    table=table.table,
                    nonce=nonce(),
                    seat=min(seat, table.size),
                    kind=kind,
                    count=count,
                )
            except ServiceError:
                return

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2), t=st.integers(0, 5), side=st.integers(0, 3))
    def table_finishes(self, n, t, side):
        """A table phone taps Done, or records who won its tie-break."""
        night = self.night(n)
        rnd = self.playing_round(night)
        if rnd is None:
            return
        table = self.pick(seated_tables(rnd), t).table
        here = round_board(rnd).table(table.pk)
        try:
            if here.outcome.needs_tiebreak and here.outcome.tied_sides:
                tied = sorted(here.outcome.tied_sides)
                play.tiebreak_record(table=table, side=tied[side % len(tied)])
            else:
                play.table_done(table=table)
        except ServiceError:
            pass

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2), sides=st.lists(st.integers(0, 3), min_size=1, max_size=6))
    def close_round(self, n, sides):
        """The host closes the round, first setting the winner of every table the phones
        have not finished."""
        night = self.night(n)
        rnd = self.playing_round(night)
        if rnd is None:
            return
        board = round_board(rnd)
        for i, tr in enumerate(board.tables):
            if tr.winner_side is None:
                side = sides[i % len(sides)] % tr.seated.game.sides
                play_actions.winner_set(rnd=rnd, table=tr.table, side=side, by=self.host)
        play_actions.round_close(rnd=rnd, by=self.host)
        self.seen("a round closed")
        self.remember(night)

    @precondition(lambda self: self.nights)
    @rule(
        n=st.integers(0, 2),
        seed=st.integers(0, 2**31 - 1),
        rolls=st.lists(
            st.tuples(
                st.integers(0, 5),
                st.integers(1, 4),
                st.sampled_from([("points", 2), ("bunco", 0), ("mini", 0), ("miss", 0)]),
            ),
            max_size=12,
        ),
        sides=SIDES,
    )
    def play_a_round(self, n, seed, rolls, sides):
        """The host runs a whole round: draws the seating if none, starts it, the phones
        tap some rolls, and the host closes it."""
        night = self.night(n)
        if night.is_over:
            return
        try:
            if self.playing_round(night) is None:
                if not night.rounds.pending().seated().exists():
                    night_actions.seating_draw(night=night, by=self.host, seed=seed)
                play.round_start(night=night)
        except ServiceError:
            return
        rnd = self.playing_round(night)
        tables = seated_tables(rnd)
        for t, seat, (kind, count) in rolls:
            table = self.pick(tables, t)
            with contextlib.suppress(ServiceError):
                play.entry_record(
                    table=table.table,
                    nonce=nonce(),
                    seat=min(seat, table.size),
                    kind=kind,
                    count=count,
                )
        self.close_round(n, sides)

    # Nights are mostly played: rounds played in one step weigh three times as much.
    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2), seed=st.integers(0, 2**31 - 1), sides=SIDES)
    def play_a_quiet_round(self, n, seed, sides):
        self.play_a_round(n, seed, [], sides)

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2), seed=st.integers(0, 2**31 - 1), sides=SIDES)
    def play_another_quiet_round(self, n, seed, sides):
        self.play_a_round(n, seed, [], sides)

    @precondition(lambda self: self.nights)
    @rule(
        n=st.integers(0, 2),
        r=st.integers(0, 12),
        t=st.integers(0, 5),
        what=st.sampled_from(["winner", "bunco", "undo", "clear"]),
        side=st.integers(0, 3),
        seat=st.integers(1, 4),
        confirm=st.booleans(),
    )
    def correct(self, n, r, t, what, side, seat, confirm):
        """The host corrects a closed round at a table."""
        night = self.night(n)
        rnd = self.pick(list(night.rounds.closed().order_by("number")), r)
        if rnd is None:
            return
        table = self.pick(seated_tables(rnd), t)
        if table is None:
            return
        entry = rnd.entries.filter(table=table.table, undone_at__isnull=True).last()
        key = nonce()

        def call(ok):
            fix = {"table": table.table, "by": self.host, "money_ok": ok}
            if what == "winner":
                play_actions.winner_set(rnd=rnd, side=side % table.game.sides, **fix)
            elif what == "clear":
                play_actions.winner_set(rnd=rnd, side=None, **fix)
            elif what == "bunco":
                play_actions.entry_add(
                    rnd=rnd, nonce=key, seat=min(seat, table.size), kind="bunco", **fix
                )
            elif entry is not None:
                play_actions.entry_undo(entry_id=entry.pk, **fix)

        self.on_night(night, call, confirm)

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2), who=st.integers(0, 20), arrives=st.booleans())
    def come_and_go(self, n, who, arrives):
        """Between rounds: someone arrives late, or leaves early."""
        night = self.night(n)
        try:
            if arrives:
                player = self.pick(self.players(), who)
                place = night_actions.guest_add(night=night, by=self.host, player=player)
            else:
                place = self.pick(list(night.attendances.order_by("pk")), who)
                if place is None:
                    return
                place = night_actions.attendance_leave(attendance=place, by=self.host)
        except ServiceError:
            return
        if place is not None and place.player.is_regular:  # the host's choice for them
            self.choices[(night.pk, place.player_id)] = (place.status, place.substitute_id)

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2))
    def end_night(self, n):
        night = self.night(n)
        try:
            play_actions.night_finish(night=night, by=self.host)
        except ServiceError:
            return
        self.remember(night)

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2), sets=st.integers(1, 2))
    def change_sets(self, n, sets):
        night = self.night(n)
        try:
            night_actions.night_update(
                night=night,
                by=self.host,
                date=night.date,
                time=night.time,
                place=night.place,
                sets=sets,
            )
        except ServiceError:
            return
        self.remember(night)

    # -- prizes ---------------------------------------------------------------------------

    @precondition(lambda self: self.nights)
    @rule(
        n=st.integers(0, 2),
        p=st.integers(0, 10),
        who=st.integers(0, 10),
        clear=st.booleans(),
        confirm=st.booleans(),
    )
    def prize_tiebreak(self, n, p, who, clear, confirm):
        night = self.night(n)
        standings = night_standings(night)
        tied = [r for r in standings.prizes if len(r.candidates) > 1 and r.code != "door_prize"]
        prize = self.pick(tied, p)
        if prize is None:
            return
        player = None if clear else Player.objects.get(pk=self.pick(prize.candidates, who))
        done = []

        def call(ok):
            play_actions.prize_tiebreak_record(
                night=night, code=prize.key, player=player, by=self.host, money_ok=ok
            )
            done.append(True)

        self.on_night(night, call, confirm)
        if done:
            self.tiebreaks[(night.pk, prize.key)] = player.pk if player else None

    @precondition(lambda self: self.nights)
    @rule(n=st.integers(0, 2))
    def door_prize(self, n):
        night = self.night(n)
        self.on_night(
            night,
            lambda ok: play_actions.door_prize_draw(night=night, by=self.host, money_ok=ok),
            True,
        )

    # -- the group ------------------------------------------------------------------------

    @rule(
        percent=st.integers(0, 40),
        starts=st.sampled_from([dt.date(2026, 9, 1), dt.date(2026, 12, 12)]),
    )
    def season(self, percent, starts):
        """A season is made, or its share and dates changed."""
        season = self.group.seasons.first()
        try:
            if season is None:
                season = season_create(
                    group=self.group,
                    name="2026-27",
                    starts=starts,
                    ends=dt.date(2027, 6, 30),
                    pot_percent=percent,
                )
            else:
                season_update(
                    season=season,
                    name=season.name,
                    starts=starts,
                    ends=season.ends,
                    pot_percent=percent,
                    regulars_only=season.regulars_only,
                )
        except ServiceError:
            return
        self.shares[season.pk] = percent

    @rule(
        codes=st.lists(st.sampled_from(PRIZES), min_size=1, max_size=5, unique=True),
        percents=st.lists(st.integers(0, 40), min_size=5, max_size=5),
        fixed=st.booleans(),
        ties=st.sampled_from(["roll_off", "split"]),
        leftover=st.sampled_from(["first_prize", "next_pot", "host"]),
    )
    def change_prizes(self, codes, percents, fixed, ties, leftover):
        """The group's prizes and prize settings change (for nights planned later)."""
        prizes = []
        for code, pct in zip(codes, percents, strict=False):
            if fixed and code == codes[0]:
                prizes.append({"code": code, "amount_cents": 1000})
            else:
                prizes.append({"code": code, "percent": pct})
        total = sum(p.get("percent", 0) for p in prizes)
        if total > 100:
            return
        with contextlib.suppress(ServiceError):  # prizes that cannot fit a pot are refused
            prizes_set(
                group=self.group,
                prizes=prizes,
                settings={"prize_ties": ties, "prize_leftover": leftover},
            )

    @rule(who=st.integers(0, 20), retire=st.booleans())
    def retire(self, who, retire):
        player = self.pick(self.players(), who)
        player_retire(player=player, retired=retire)
        (self.retired.add if retire else self.retired.discard)(player.pk)

    # -- invariants -----------------------------------------------------------------------

    @invariant()
    def money_adds_up_and_stays_paid(self):
        for pk in self.nights:
            night = Night.objects.get(pk=pk)
            summary = dues_summary(night)
            assert summary.collected_cents == summary.pot_cents + summary.season_share_cents
            if not night.is_over:
                assert unbalanced(figures_now(night)) == []
                continue
            record = MoneyRecord.objects.get(night=night).as_figures
            assert unbalanced(record) == [], unbalanced(record)
            kept = self.kept[pk]
            assert money_of(record) == money_of(kept), "a finished night's money moved"
            # Every reader shows the recorded money.
            assert summary.collected_cents == record.collected_cents
            assert summary.season_share_cents == record.season_share_cents
            assert sum(r.collected_cents for r in summary.rows) == record.collected_cents
            standings = night_standings(night)
            assert standings.pot_cents == record.pot_cents
            assert [(r.key, r.amount_cents, r.payouts) for r in standings.prizes] == [
                (r.key, r.amount_cents, r.payouts) for r in record.awards.results
            ]

    @invariant()
    def everyone_who_played_is_counted(self):
        for pk in self.nights:
            night = Night.objects.get(pk=pk)
            # Who played changes only with a change the night's pages are told of.
            versions = (night.version, night.scores_version, night.status)
            if self.counted.get(pk) == versions:
                continue
            played = set(
                Seat.objects.filter(
                    round__night=night,
                    round__status="closed",
                    player__isnull=False,
                    won__isnull=False,
                ).values_list("player__name", flat=True)
            )
            if not played:
                continue
            standings = night_standings(night)
            assert {p.name for _, p in standings.rows} >= played
            assert {row[1] for row in result_rows(night)} >= played
            assert {line.name for line in prize_sheet(night=night).standings} >= played
            named = {s.name for s in tally_sheets(night=night, links=LINKS).sheets}
            assert named >= played, f"tally sheets miss {played - named}"
            self.counted[pk] = versions

    @invariant()
    def who_played_only_leaves(self):
        for pk in self.nights:
            night = Night.objects.get(pk=pk)
            sat = played_a_round(night)
            kept = {Attendance.Status.COMING, Attendance.Status.LEFT}
            wrong = [
                (a.player.name, a.status)
                for a in night.attendances.select_related("player")
                if a.player_id in sat and a.status not in kept
            ]
            assert wrong == [], f"played a round, then down as {wrong}"

    @invariant()
    def asking_follows_choices(self):
        """Substitutes are asked only for a place nobody holds, on a night not started."""
        open_calls = SubstituteCall.objects.filter(
            attendance__night__group=self.group, status=SubstituteCall.Status.OPEN
        ).select_related("attendance__night", "attendance__player")
        for call in open_calls:
            a = call.attendance
            if a.night.status != Night.Status.PLANNING:
                continue  # the asking ended with the night (section 8.8)
            assert a.is_absent, f"substitutes still asked for {a.player.name}, down as {a.status}"

    @invariant()
    def choices_stand(self):
        for (night_id, player_id), (status, sub) in self.choices.items():
            night = Night.objects.get(pk=night_id)
            # A night started or over keeps its list as it is (docs/rules.md section 8.1).
            if night.is_over or night.rounds.started().exists() or player_id in self.retired:
                continue
            place = Attendance.objects.filter(night=night, player_id=player_id).first()
            assert place is not None, "a regular's place went from a night not started"
            assert (place.status, place.substitute_id) == (status, sub)
        for (night_id, code), player_id in self.tiebreaks.items():
            kept = PrizeTiebreak.objects.filter(night_id=night_id, code=code).first()
            assert (kept.player_id if kept else None) == player_id
        for season in self.group.seasons.all():
            assert season.pot_percent == self.shares[season.pk]
        retired = set(self.group.players.filter(retired=True).values_list("pk", flat=True))
        assert retired == self.retired


def test_the_rules_hold_whatever_a_group_does():
    """The search; docs/testing.md says how to make it deep, and for how long."""
    NightMachine.examples = 0
    NightMachine.happened.clear()
    minutes = float(os.environ.get("BUNCO_HYPOTHESIS_MINUTES", "0"))
    started = time.monotonic()
    searches = 0
    while True:
        run_state_machine_as_test(NightMachine, settings=SEARCH)
        searches += 1
        if time.monotonic() - started >= minutes * 60:
            break
    took = (time.monotonic() - started) / 60
    print(
        f"\nNightMachine ({DEPTH_NAME}): {NightMachine.examples} examples in {searches} "
        f"searches, {took:.1f} minutes: no counter-example. It reached: "
        + ", ".join(f"{what} {n} times" for what, n in sorted(NightMachine.happened.items()))
    )
