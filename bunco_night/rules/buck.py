"""Buck Dice: one table, each player for themselves (docs/rules.md section 9.3). A state machine:
``buck_order``, then ``buck_game``; each ``throw`` or ``tap`` returns the next ``BuckGame``;
``buck_replay`` rebuilds a game from its taps."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .errors import RuleError
from .layouts import buck_table_size
from .presets import Rules
from .scoring import BUNCO, MINI, MISS, POINTS, check_dice, check_mark

# A throw's kinds: a Big Buck counts as a bunco, a Little Buck as a mini bunco.
BIG_BUCK = BUNCO
LITTLE_BUCK = MINI
OVER = "over"
BUCK_KINDS = (POINTS, MISS, BIG_BUCK, LITTLE_BUCK, OVER)
# What a phone may tap: an over is worked out from the score, never tapped.
BUCK_TAPS = (POINTS, MISS, BIG_BUCK, LITTLE_BUCK)


@dataclass(frozen=True)
class BuckOrder:
    """The order of play from the opening throws (docs/rules.md section 9.3); ``tied``
    throw again, then ``point_thrower`` throws the point number."""

    order: tuple[Hashable, ...]
    tied: tuple[tuple[Hashable, ...], ...]

    @property
    def settled(self) -> bool:
        """Nobody is tied: play can start."""
        return not self.tied

    @property
    def point_thrower(self) -> Hashable | None:
        """ "The low man throws a single die to give the Point Number"; None while tied."""
        return self.order[-1] if self.settled else None


def buck_order(throws: Mapping[Hashable, Sequence[int]]) -> BuckOrder:
    """Order the players by their opening throws, highest first. ``throws`` maps each player to
    their totals in order; re-throws add to the total."""
    if len(throws) < 2:
        raise RuleError("Buck Dice needs at least 2 players.", "too_few_players")
    buck_table_size(len(throws))
    totals = {p: tuple(t) for p, t in throws.items()}
    for player, seq in totals.items():
        if not seq or not all(
            isinstance(t, int) and not isinstance(t, bool) and 3 <= t <= 18 for t in seq
        ):
            raise RuleError(f"{player}: a throw of three dice totals 3 to 18.", "bad_throw")
    for a, seq_a in totals.items():
        for b, seq_b in totals.items():
            if len(seq_a) < len(seq_b) and seq_b[: len(seq_a)] == seq_a:
                raise RuleError(f"{a} is level with {b} and must throw again.", "bad_throw")
    order = sorted(totals, key=lambda p: tuple(-t for t in totals[p]))
    groups: dict[tuple[int, ...], list[Hashable]] = {}
    for player in order:
        groups.setdefault(totals[player], []).append(player)
    tied = tuple(tuple(g) for g in groups.values() if len(g) > 1)
    return BuckOrder(tuple(order), tied)


@dataclass(frozen=True)
class BuckThrow:
    """One throw: who, what, points, score after, out, and whether they throw again."""

    player: Hashable
    kind: str
    count: int
    points: int
    score: int
    out: bool
    roll_again: bool


@dataclass(frozen=True)
class BuckGame:
    """A game of Buck Dice in play (docs/rules.md section 9.3); ``out`` in order out;
    ``turn``: index of the thrower, None once over."""

    players: tuple[Hashable, ...]
    point: int
    target: int
    little_buck: int
    scores: tuple[int, ...]
    out: tuple[Hashable, ...] = ()
    turn: int | None = 0
    throws: tuple[BuckThrow, ...] = ()

    @property
    def over(self) -> bool:
        """One player is left in: the game is over."""
        return self.turn is None

    @property
    def in_game(self) -> tuple[Hashable, ...]:
        """The players not out yet, in the order of play."""
        return tuple(p for p in self.players if p not in self.out)

    @property
    def to_throw(self) -> Hashable | None:
        """Whose turn it is; None once the game is over."""
        return None if self.turn is None else self.players[self.turn]

    @property
    def loser(self) -> Hashable | None:
        """ "Last player left in is the loser"; None while the game goes on."""
        return self.in_game[0] if self.over else None

    @property
    def places(self) -> tuple[Hashable, ...]:
        """Everyone out so far, first out first, and the loser last once the game is over."""
        return self.out + ((self.loser,) if self.over else ())

    def score_of(self, player: Hashable) -> int:
        """``player``'s score."""
        return self.scores[self._index(player)]

    def _index(self, player: Hashable) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise RuleError(f"{player!r} is not in this game.", "not_playing") from None

    def throw(self, dice: Sequence[int]) -> BuckGame:
        """The player whose turn it is throws three dice."""
        a, b, c = check_dice(dice)
        if a == b == c:
            return self._score(BIG_BUCK if a == self.point else LITTLE_BUCK, 3 * (a == self.point))
        count = (a, b, c).count(self.point)
        return self._score(POINTS if count else MISS, count)

    def tap(self, kind: str, count: int = 0) -> BuckGame:
        """A throw entered as what it scored (``count`` 1-3 of the point number, etc.)."""
        if kind not in BUCK_TAPS:
            raise RuleError(f"Unknown kind of throw {kind!r}.", "bad_kind")
        if kind == POINTS:
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 3:
                raise RuleError("A throw shows 1, 2 or 3 of the point number.", "bad_count")
            if count == 3:
                kind = BIG_BUCK
        count = {POINTS: count, BIG_BUCK: 3}.get(kind, 0)
        return self._score(kind, count)

    def _score(self, kind: str, count: int) -> BuckGame:
        """Score a throw for the player whose turn it is (docs/rules.md section 9.3)."""
        if self.over:
            raise RuleError("The game is over.", "game_over")
        i = self.turn
        before = self.scores[i]
        if kind == BIG_BUCK:
            after = self.target
        else:
            after = before + {POINTS: count, LITTLE_BUCK: self.little_buck}.get(kind, 0)
        if after > self.target:
            kind, after = OVER, before
        out = after == self.target
        roll_again = kind == POINTS and not out
        throw = BuckThrow(self.players[i], kind, count, after - before, after, out, roll_again)
        scores = self.scores[:i] + (after,) + self.scores[i + 1 :]
        gone = self.out + ((self.players[i],) if out else ())
        turn = i if roll_again else self._next(i, gone)
        return BuckGame(
            self.players,
            self.point,
            self.target,
            self.little_buck,
            scores,
            gone,
            turn,
            self.throws + (throw,),
        )

    def _next(self, i: int, gone: tuple[Hashable, ...]) -> int | None:
        """The next player in order still in, or None when only one is left."""
        if len(self.players) - len(gone) <= 1:
            return None
        n = len(self.players)
        return next((i + k) % n for k in range(1, n + 1) if self.players[(i + k) % n] not in gone)


def buck_game(players: Sequence[Hashable], point: int, rules: Rules) -> BuckGame:
    """A new game: ``players`` in order of play, the ``point`` number, and ``rules``."""
    if not rules.is_buck_dice:
        raise RuleError("These rules are not Buck Dice.", "not_buck_dice")
    order = tuple(players)
    if len(set(order)) != len(order):
        raise RuleError("A player is listed twice.", "duplicate_player")
    buck_table_size(len(order))
    check_mark(point)
    return BuckGame(order, point, rules.buck_target, rules.little_buck_points, (0,) * len(order))


def buck_replay(
    players: Sequence[Hashable], point: int, rules: Rules, taps: Iterable[tuple[str, int]]
) -> BuckGame:
    """The game after ``taps`` (kind, count), in order."""
    game = buck_game(players, point, rules)
    for kind, count in taps:
        game = game.tap(kind, count)
    return game
