"""What the Buck Dice and Bonanza pages show (no writes here)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bunco_night.nights.models import Night
from bunco_night.rules import bonanza, buck
from bunco_night.rules.presets import Rules

from .models import BonanzaTable, BuckGame, BuckTable
from .selectors import BonanzaState, BuckState, bonanza_state, buck_state


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def current_game(table: BuckTable) -> BuckGame | None:
    """The game being played at the Buck Dice table, if any."""
    return (
        BuckGame.objects.filter(table=table, round__status="playing")
        .select_related("round__night")
        .first()
    )


@dataclass(frozen=True)
class BuckTap:
    """One thing a throw can score, as a button."""

    value: str
    label: str
    hint: str
    kind: str


def buck_taps(rules: Rules, point: int) -> list[BuckTap]:
    """What a throw can score (docs/rules.md section 9.3), the most frequent first."""
    return [
        BuckTap("points:1", "+1", f"one {point}", "points"),
        BuckTap("points:2", "+2", f"two {point}s", "points"),
        BuckTap(buck.BIG_BUCK, "BIG BUCK!", f"three {point}s: out at {rules.buck_target}", "bunco"),
        BuckTap(buck.MISS, "Miss", f"no {point}: pass the dice", "miss"),
        BuckTap(
            buck.LITTLE_BUCK,
            "Little Buck",
            f"three of another number · +{rules.little_buck_points}, pass",
            "mini wide",
        ),
    ]


@dataclass
class BuckPage:
    """Everything the Buck Dice phone shows."""

    table: BuckTable
    night: Night
    rules: Rules
    state: BuckState | None
    games: list[tuple[BuckGame, BuckState]]
    typed: dict[int, str] = field(default_factory=dict)  # totals sent back with a refusal

    @property
    def due_rows(self) -> list[tuple[int, str, str]]:
        """(player, name, what was typed) for each player who throws for the order now."""
        return [(player, name, self.typed.get(player, "")) for player, name in self.state.due]

    @property
    def next_number(self) -> int:
        return len(self.games) + 1

    @property
    def can_start(self) -> bool:
        return (
            self.state is None
            and not self.night.is_over
            and self.next_number <= self.night.total_rounds
        )

    @property
    def taps(self) -> list[BuckTap]:
        if self.state is None or self.state.game.point is None:
            return []
        return buck_taps(self.rules, self.state.game.point)

    @property
    def players(self) -> list[tuple[str, int, str, bool]]:
        """(name, score, where they stand, to throw now) in the order of play."""
        play = self.state.play
        places = {p: i for i, p in enumerate(play.out, start=1)}
        rows = []
        for p in play.players:
            if p in places:
                where = f"out {ordinal(places[p])}"
            elif play.over:
                where = "loser"
            else:
                where = "throws" if p == play.to_throw else ""
            rows.append((self.state.name(p), play.score_of(p), where, p == play.to_throw))
        return rows

    @property
    def game_rows(self) -> list[str]:
        """Each game so far in words: who lost it."""
        rows = []
        for game, s in self.games:
            number = game.round.number
            if s.play is not None and s.play.over:
                closed = "" if game.round.is_closed else " (not closed yet)"
                rows.append(f"Game {number}: {s.loser_name} lost{closed}")
            else:
                rows.append(f"Game {number}: being played")
        return rows

    @property
    def recent(self) -> list[tuple[str, str]]:
        """The latest throws, newest first: who threw and what it did."""
        rows = []
        for stored, engine in reversed(self.state.played[-8:]):
            if engine.kind == buck.OVER:
                target = self.rules.buck_target
                text = f"{engine.count} × {self.state.game.point}: over {target}, not counted"
            elif engine.kind == buck.BIG_BUCK:
                text = f"BIG BUCK: {engine.score}"
            elif engine.kind == buck.LITTLE_BUCK:
                text = f"Little Buck +{engine.points} → {engine.score}"
            elif engine.kind == buck.MISS:
                text = "Miss"
            else:
                text = f"+{engine.points} → {engine.score}"
            if engine.out:
                text += " · OUT!"
            rows.append((stored.player.name, text))
        return rows


def buck_page(table: BuckTable, typed: dict[int, str] | None = None) -> BuckPage:
    """The Buck Dice table now; ``typed``: a refused post's order totals, shown again."""
    night = table.night
    rules = night.rules_obj
    games = list(BuckGame.objects.filter(table=table).select_related("round"))
    names = dict(
        night.group.players.filter(pk__in={p for g in games for p in g.players}).values_list(
            "pk", "name"
        )
    )
    played = [(g, buck_state(g, rules, names)) for g in games]
    state = next((s for g, s in played if g.round.is_playing), None)
    return BuckPage(table, night, rules, state, played, typed or {})


@dataclass
class BonanzaPage:
    """Everything the Bonanza phone shows."""

    state: BonanzaState
    # A refused Bonanza call shows again as typed: its caller and cards left by player.
    typed_caller: int | None = None
    typed_cards: dict[int, str] = field(default_factory=dict)

    @property
    def table(self) -> BonanzaTable:
        return self.state.table

    @property
    def ledger(self) -> bonanza.BonanzaLedger:
        return self.state.ledger

    @property
    def players(self) -> list[tuple[int, str]]:
        return [(p, self.state.name(p)) for p in self.ledger.players]

    @property
    def cards_rows(self) -> list[tuple[int, str, str]]:
        """(player, name, cards left as typed, "0" at first) for the Bonanza call."""
        return [(p, name, self.typed_cards.get(p, "0")) for p, name in self.players]

    @property
    def dealer_name(self) -> str:
        return self.state.name(self.ledger.dealer_player) if self.ledger.in_hand else ""

    @property
    def poker_open(self) -> bool:
        """Chips can still go on the Poker space this hand."""
        return bonanza.POKER in self.ledger.spaces and bonanza.POKER not in self.ledger.taken

    @property
    def open_spaces(self) -> list[tuple[str, str, int]]:
        """Spaces a player can win in this hand (Bonanza goes to whoever calls it)."""
        return [
            (s, label, n)
            for s, label, n, won in self.state.spaces
            if not won and s != bonanza.BONANZA
        ]

    @property
    def left_spaces(self) -> list[tuple[str, str, int]]:
        """Spaces with chips left on them, for settling at the end of the night."""
        return [(s, label, n) for s, label, n, _ in self.state.spaces if n]

    @property
    def history(self) -> list[str]:
        """The steps, newest first, in words."""
        lines = []
        for step in reversed(self.state.steps):
            who = self.state.name(step.player_id) if step.player_id else ""
            space = bonanza.SPACE_LABELS.get(step.space, step.space)
            if step.action == bonanza.DEAL:
                lines.append("A hand was dealt: a chip from everyone on every space.")
            elif step.action == bonanza.SELL_WIDOW:
                lines.append(f"{who} bought the widow for {step.chips}.")
            elif step.action == bonanza.POKER_BET:
                lines.append(f"{who} put {step.chips} more on Poker.")
            elif step.action == bonanza.TAKE:
                lines.append(f"{who} won {space}.")
            elif step.action == bonanza.CALL_BONANZA:
                cards = sum(n for _, n in step.cards_left)
                lines.append(
                    f"{who} called Bonanza ({cards} card{'s' if cards != 1 else ''} paid)."
                )
            else:
                lines.append(f"{who} took the chips left on {space}.")
        return lines


def bonanza_page(
    table: BonanzaTable, *, caller: int | None = None, cards: dict[int, str] | None = None
) -> BonanzaPage:
    return BonanzaPage(bonanza_state(table), caller, cards or {})
