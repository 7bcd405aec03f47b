"""A Buck Dice game or a Bonanza ledger replayed from its steps (docs/rules.md 9.3, 9.4)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bunco_night.groups.models import Player
from bunco_night.nights.models import Night
from bunco_night.rules import bonanza, buck
from bunco_night.rules.errors import RuleError
from bunco_night.rules.presets import Rules
from bunco_night.rules.standings import BuncoRoll, PlayerRound

from .models import BonanzaStep, BonanzaTable, BuckGame, BuckThrow


def opening_throws(game: BuckGame) -> dict[int, list[int]]:
    """Each player's opening totals (player id -> totals, the first throw first)."""
    opening = game.opening or {}
    return {pid: list(opening.get(str(pid), [])) for pid in game.players}


def order_to_throw(throws: dict[int, list[int]]) -> tuple[buck.BuckOrder | None, list[int]]:
    """(the settled order or None, who throws for it now) (docs/rules.md section 9.3)."""
    if any(not t for t in throws.values()):
        return None, [p for p, t in throws.items() if not t]
    behind = [
        a
        for a, ta in throws.items()
        if any(len(ta) < len(tb) and tb[: len(ta)] == ta for tb in throws.values())
    ]
    if behind:
        return None, behind
    order = buck.buck_order(throws)
    if order.settled:
        return order, []
    return None, [p for group in order.tied for p in group]


@dataclass
class BuckState:
    """A game of Buck Dice as the phone shows it; ``play``: None before the point number."""

    game: BuckGame
    rules: Rules
    names: dict[int, str]
    opening: dict[int, list[int]]
    order: buck.BuckOrder | None
    to_throw_for_order: list[int]
    play: buck.BuckGame | None
    throws: list[BuckThrow] = field(default_factory=list)

    @property
    def played(self) -> list[tuple[BuckThrow, buck.BuckThrow]]:
        """Each stored throw with what the engine made of it."""
        engine = self.play.throws if self.play else ()
        return list(zip(self.throws, engine, strict=True))

    @property
    def stage(self) -> str:
        """What the table does now: "order", "point", "play" or "over"."""
        if self.order is None:
            return "order"
        if self.play is None:
            return "point"
        return "over" if self.play.over else "play"

    @property
    def point_thrower(self) -> int | None:
        return self.order.point_thrower if self.order else None

    def name(self, player_id) -> str:
        return self.names.get(player_id, "?")

    @property
    def opened(self) -> bool:
        """Someone has thrown for the order already."""
        return any(self.opening.values())

    @property
    def due(self) -> list[tuple[int, str]]:
        """(player id, name) of those who throw for the order now."""
        return [(p, self.name(p)) for p in self.to_throw_for_order]

    @property
    def order_names(self) -> list[str]:
        return [self.name(p) for p in self.order.order] if self.order else []

    @property
    def point_thrower_name(self) -> str:
        return self.name(self.point_thrower)

    @property
    def to_throw_name(self) -> str:
        return self.name(self.play.to_throw) if self.play and not self.play.over else ""

    @property
    def loser_name(self) -> str:
        return self.name(self.play.loser) if self.play and self.play.over else ""


def buck_state(game: BuckGame, rules: Rules, names: dict[int, str] | None = None) -> BuckState:
    """Replay a game from its order, point number and counting throws."""
    if names is None:
        names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    opening = opening_throws(game)
    order, to_throw = order_to_throw(opening)
    throws = list(game.throws.counting().select_related("player"))
    play = None
    if order is not None and game.point is not None:
        play = buck.buck_replay(order.order, game.point, rules, [(t.kind, t.count) for t in throws])
    return BuckState(game, rules, names, opening, order, to_throw, play, throws)


def buck_results(night: Night) -> tuple[list[PlayerRound], list[tuple[BuncoRoll, BuckThrow]]]:
    """A Buck Dice night's closed games as rounds for the standings (docs/rules.md 9.3),
    and every Big Buck of the started games, in order (6.3)."""
    rules = night.rules_obj
    rows: list[PlayerRound] = []
    big: list[tuple[BuncoRoll, BuckThrow]] = []
    games = BuckGame.objects.filter(table__night=night).select_related("round")
    for game in games:
        state = buck_state(game, rules, names={})
        rnd = game.round
        credit: dict[int, list[int]] = {}
        for stored, engine in state.played:
            counts = credit.setdefault(engine.player, [0, 0])
            if engine.kind == buck.BIG_BUCK:
                counts[0] += 1
                big.append(
                    (BuncoRoll(engine.player, (rnd.number, stored.created, stored.pk)), stored)
                )
            elif engine.kind == buck.LITTLE_BUCK:
                counts[1] += 1
        if not rnd.is_closed or state.play is None or not state.play.over:
            continue
        for player in state.play.places:
            buncos, minis = credit.get(player, [0, 0])
            rows.append(
                PlayerRound(
                    player,
                    player != state.play.loser,
                    buncos,
                    minis,
                    {},
                    rnd.set_number,
                    table=1,
                )
            )
    return rows, big


@dataclass
class BonanzaState:
    """A Bonanza table's ledger, rebuilt from its steps, with the names of its players."""

    table: BonanzaTable
    ledger: bonanza.BonanzaLedger
    names: dict[int, str]
    steps: list[BonanzaStep]
    error: str = ""

    def name(self, player_id) -> str:
        return self.names.get(player_id, "?")

    @property
    def rows(self) -> list[tuple[int, str, int, int]]:
        """(player id, name, chips held, won or lost) in seat order."""
        chips, totals = self.ledger.chips, self.ledger.totals
        return [(p, self.name(p), chips[p], totals[p]) for p in self.ledger.players]

    @property
    def spaces(self) -> list[tuple[str, str, int, bool]]:
        """(space, name, chips on it, won this hand) in the layout's order."""
        on = self.ledger.on_layout
        return [
            (s, bonanza.SPACE_LABELS[s], on[s], s in self.ledger.taken) for s in self.ledger.spaces
        ]

    @property
    def balance(self) -> int:
        """The players' totals and the chips on the cloth: always 0."""
        return sum(self.ledger.totals.values()) + self.ledger.chips_on_layout


def bonanza_state(table: BonanzaTable) -> BonanzaState:
    """Replay a Bonanza table's counting steps."""
    names = dict(Player.objects.filter(pk__in=table.players).values_list("pk", "name"))
    steps = list(table.steps.counting().select_related("player"))
    players = [int(p) for p in table.players]
    ledger = bonanza.bonanza_ledger(players, start_chips=table.start_chips, poker=table.poker)
    error = ""
    for step in steps:
        try:
            ledger = ledger.apply(step.as_rule_step())
        except RuleError as exc:  # a step stored under older rules: stop, and say so
            error = exc.message
            break
    return BonanzaState(table, ledger, names, steps, error)
