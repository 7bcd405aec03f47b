"""Play a Buck Dice game through the services, as the phone does."""

from bunco_night.games.models import BuckGame
from bunco_night.games.selectors import buck_state
from bunco_night.games.services import (
    buck_game_start,
    buck_opening_record,
    buck_point_record,
    buck_table_open,
    buck_throw_record,
)
from tests.play.helpers import nonce


def open_game(night, totals=None, point=4):
    """Start a game, throw for the order (``totals`` by player index, 18 down by default)
    and the point number."""
    table = buck_table_open(night=night)
    game = buck_game_start(table=table)
    players = list(game.players)
    totals = totals or {p: 18 - i for i, p in enumerate(players)}
    buck_opening_record(game=game, totals=totals)
    buck_point_record(game=BuckGame.objects.get(pk=game.pk), point=point)
    return BuckGame.objects.get(pk=game.pk)


def throw(game, kind, count=0, **kw):
    return buck_throw_record(game=game, nonce=nonce(), kind=kind, count=count, **kw)


def state(game):
    game = BuckGame.objects.get(pk=game.pk)
    return buck_state(game, game.round.night.rules_obj)


def play_out(game):
    """Everyone but the last in the order throws a Big Buck in turn: the last one loses."""
    while not state(game).play.over:
        play = state(game).play
        if play.to_throw == play.players[-1]:
            throw(game, "miss")
        else:
            throw(game, "bunco")
    return state(game)
