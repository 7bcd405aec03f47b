"""Play a night with chosen results, through the play services the host uses."""

import datetime as dt

from bunco_night.groups.services import season_create
from bunco_night.nights.selectors import seated_tables
from bunco_night.nights.services import night_create, payment_record
from bunco_night.play.services import night_finish, round_close, round_start, winner_set
from tests.play.helpers import start_night, tap


def play_night(night, winners, buncos=None, seed=1):
    """Play ``len(winners)`` rounds and end the night.

    ``winners[i]`` names players whose side wins round i at their table (a table with
    nobody named is won by its first side); ``buncos[i]`` names players who roll a bunco
    in round i, at their own seat.
    """
    buncos = buncos or {}
    rnd = start_night(night, seed=seed)
    for i, names in enumerate(winners):
        for table in seated_tables(rnd):
            by_name = {s.player.name: s for s in table.seats if s.player_id}
            for name in buncos.get(i, ()):
                if name in by_name:
                    tap(table.table, by_name[name].number, "points", 3)
            side = next((table.game.side_of(by_name[n].number) for n in names if n in by_name), 0)
            winner_set(rnd=rnd, table=table.table, side=side)
        nxt = round_close(rnd=rnd)
        if nxt is None:
            return night
        if i + 1 < len(winners):
            rnd = round_start(night=night)
    night_finish(night=night)
    return night


def season_of(group, year=2026, **kw):
    return season_create(
        group=group,
        name=str(year),
        starts=dt.date(year, 1, 1),
        ends=dt.date(year, 12, 31),
        **kw,
    )


def pay_everyone(night):
    for a in night.attendances.all():
        if a.owes_dues:
            payment_record(attendance=a, amount_cents=night.dues_cents)


def plan(group, date, **kw):
    return night_create(group=group, date=date, **kw)
