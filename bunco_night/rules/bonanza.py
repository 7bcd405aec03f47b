"""A chip ledger for a Bonanza table (docs/rules.md section 9.4). Each step returns a new
``BonanzaLedger``; net chips and the layout always sum to zero. Steps are ``BonanzaStep``s a page
stores and ``bonanza_replay``s (undo: replay less one)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .errors import RuleError

JOKER = "joker"
QUEEN_JACK = "queen_jack"
SEQUENCE = "sequence"
TEN_TWO = "ten_two"
POKER = "poker"
ACE_OF_SPADES = "ace_of_spades"
KING_OF_HEARTS = "king_of_hearts"
QUEEN_OF_DIAMONDS = "queen_of_diamonds"
JACK_OF_CLUBS = "jack_of_clubs"
BONANZA = "bonanza"
# The ten spaces of the layout, upper half first, in the order the dealer calls them.
SPACES = (
    JOKER,
    QUEEN_JACK,
    SEQUENCE,
    TEN_TWO,
    POKER,
    ACE_OF_SPADES,
    KING_OF_HEARTS,
    QUEEN_OF_DIAMONDS,
    JACK_OF_CLUBS,
    BONANZA,
)
SPACE_LABELS = {
    JOKER: "Joker",
    QUEEN_JACK: "Queen-Jack",
    SEQUENCE: "Sequence",
    TEN_TWO: "Ten-Two",
    POKER: "Poker",
    ACE_OF_SPADES: "Ace of Spades",
    KING_OF_HEARTS: "King of Hearts",
    QUEEN_OF_DIAMONDS: "Queen of Diamonds",
    JACK_OF_CLUBS: "Jack of Clubs",
    BONANZA: "Bonanza",
}
# "may be played by any number of persons from two to nine"
MIN_PLAYERS = 2
MAX_PLAYERS = 9
# A pack of 52 cards and a Joker, dealt to at least two hands and a widow.
MAX_CARDS_LEFT = 53

DEAL = "deal"
SELL_WIDOW = "sell_widow"
POKER_BET = "poker_bet"
TAKE = "take"
CALL_BONANZA = "call_bonanza"
SETTLE = "settle"
STEPS = (DEAL, SELL_WIDOW, POKER_BET, TAKE, CALL_BONANZA, SETTLE)


@dataclass(frozen=True)
class BonanzaStep:
    """One thing that happened at the table, as a page stores it."""

    action: str
    player: Hashable | None = None
    space: str | None = None
    chips: int = 0
    cards_left: tuple[tuple[Hashable, int], ...] = ()


@dataclass(frozen=True)
class BonanzaLedger:
    """The chips at a Bonanza table (docs/rules.md section 9.4); ``net`` is won less paid,
    so a player holds ``start_chips + net``; ``taken``: spaces won this hand."""

    players: tuple[Hashable, ...]
    spaces: tuple[str, ...]
    start_chips: int
    net: tuple[int, ...]
    layout: tuple[int, ...]
    hand: int = 0
    dealer: int | None = None
    in_hand: bool = False
    widow_sold: bool = False
    taken: frozenset[str] = frozenset()
    steps: tuple[BonanzaStep, ...] = ()

    @property
    def totals(self) -> dict[Hashable, int]:
        """Each player's chips won less chips paid."""
        return dict(zip(self.players, self.net, strict=True))

    @property
    def chips(self) -> dict[Hashable, int]:
        """The chips each player holds: what they started with, and their net."""
        return {p: self.start_chips + n for p, n in zip(self.players, self.net, strict=True)}

    @property
    def on_layout(self) -> dict[str, int]:
        """The chips on each space."""
        return dict(zip(self.spaces, self.layout, strict=True))

    @property
    def chips_on_layout(self) -> int:
        """All the chips on the layout."""
        return sum(self.layout)

    @property
    def settled(self) -> bool:
        """No hand in play and no chip left on the layout: the totals add up to zero."""
        return not self.in_hand and not any(self.layout)

    @property
    def dealer_player(self) -> Hashable | None:
        """This hand's dealer; the deal passes to the left after each hand."""
        return None if self.dealer is None else self.players[self.dealer]

    def apply(self, step: BonanzaStep) -> BonanzaLedger:
        """The ledger after ``step``."""
        if step.action == DEAL:
            return self.deal()
        if step.action == SELL_WIDOW:
            return self.sell_widow(step.player, step.chips)
        if step.action == POKER_BET:
            return self.poker_bet(step.player, step.chips)
        if step.action == TAKE:
            return self.take(step.space, step.player)
        if step.action == CALL_BONANZA:
            return self.call_bonanza(step.player, dict(step.cards_left))
        if step.action == SETTLE:
            return self.settle(step.space, step.player)
        raise RuleError(f"Unknown Bonanza step {step.action!r}.", "bad_step")

    def deal(self) -> BonanzaLedger:
        """A new hand: a chip from each player on each space; the deal passes left."""
        if self.in_hand:
            raise RuleError("Finish the hand first: someone calls Bonanza.", "hand_in_play")
        n = len(self.spaces)
        return self._with(
            BonanzaStep(DEAL),
            net=tuple(x - n for x in self.net),
            layout=tuple(c + len(self.players) for c in self.layout),
            hand=self.hand + 1,
            dealer=self.hand % len(self.players),
            in_hand=True,
            widow_sold=False,
            taken=frozenset(),
        )

    def sell_widow(self, buyer: Hashable, chips: int) -> BonanzaLedger:
        """The dealer sells the widow to ``buyer`` for ``chips``."""
        self._playing()
        if self.widow_sold:
            raise RuleError("The widow is already sold this hand.", "widow_sold")
        b = self._index(buyer)
        if b == self.dealer:
            raise RuleError("The dealer takes the widow without paying.", "bad_buyer")
        self._check_chips(chips)
        net = list(self.net)
        net[b] -= chips
        net[self.dealer] += chips
        return self._with(
            BonanzaStep(SELL_WIDOW, buyer, chips=chips), net=tuple(net), widow_sold=True
        )

    def poker_bet(self, player: Hashable, chips: int) -> BonanzaLedger:
        """``player`` puts ``chips`` more on the Poker space, as the poker play asks."""
        self._playing()
        if POKER not in self.spaces:
            raise RuleError("This table plays without the Poker space.", "no_poker")
        if POKER in self.taken:
            raise RuleError("The Poker space is already won this hand.", "space_taken")
        p = self._index(player)
        self._check_chips(chips)
        net, layout = list(self.net), list(self.layout)
        net[p] -= chips
        layout[self.spaces.index(POKER)] += chips
        return self._with(
            BonanzaStep(POKER_BET, player, chips=chips), net=tuple(net), layout=tuple(layout)
        )

    def take(self, space: str, player: Hashable) -> BonanzaLedger:
        """``player`` wins ``space`` (not Bonanza: ``call_bonanza``) and its chips."""
        self._playing()
        s = self._space(space)
        if space == BONANZA:
            raise RuleError("The Bonanza space goes to whoever calls Bonanza.", "bad_space")
        if space in self.taken:
            raise RuleError(f"{SPACE_LABELS[space]} is already won this hand.", "space_taken")
        return self._pick_up(BonanzaStep(TAKE, player, space), s, player, taken=space)

    def call_bonanza(self, caller: Hashable, cards_left: Mapping[Hashable, int]) -> BonanzaLedger:
        """``caller`` takes the Bonanza space and a chip per card left in each other hand;
        the hand ends."""
        self._playing()
        c = self._index(caller)
        others = {p for p in self.players if p != caller}
        if set(cards_left) != others:
            raise RuleError("Give the cards left in every other hand.", "bad_cards_left")
        net, layout = list(self.net), list(self.layout)
        for player, cards in cards_left.items():
            if (
                isinstance(cards, bool)
                or not isinstance(cards, int)
                or not 0 <= cards <= MAX_CARDS_LEFT
            ):
                raise RuleError(f"{player}: cards left are 0 to {MAX_CARDS_LEFT}.", "bad_cards")
            net[self._index(player)] -= cards
            net[c] += cards
        s = self.spaces.index(BONANZA)
        net[c] += layout[s]
        layout[s] = 0
        step = BonanzaStep(
            CALL_BONANZA,
            caller,
            cards_left=tuple((p, cards_left[p]) for p in self.players if p != caller),
        )
        return self._with(
            step,
            net=tuple(net),
            layout=tuple(layout),
            taken=self.taken | {BONANZA},
            in_hand=False,
        )

    def settle(self, space: str, player: Hashable) -> BonanzaLedger:
        """After the last hand, ``player`` takes the chips left on ``space``."""
        if self.in_hand:
            raise RuleError("Finish the hand first: someone calls Bonanza.", "hand_in_play")
        s = self._space(space)
        if not self.layout[s]:
            raise RuleError(f"No chips are left on {SPACE_LABELS[space]}.", "space_empty")
        return self._pick_up(BonanzaStep(SETTLE, player, space), s, player)

    def _with(self, step: BonanzaStep, **changes) -> BonanzaLedger:
        values = {
            "players": self.players,
            "spaces": self.spaces,
            "start_chips": self.start_chips,
            "net": self.net,
            "layout": self.layout,
            "hand": self.hand,
            "dealer": self.dealer,
            "in_hand": self.in_hand,
            "widow_sold": self.widow_sold,
            "taken": self.taken,
            "steps": self.steps + (step,),
        }
        values.update(changes)
        return BonanzaLedger(**values)

    def _pick_up(
        self, step: BonanzaStep, s: int, player: Hashable, taken: str | None = None
    ) -> BonanzaLedger:
        p = self._index(player)
        net, layout = list(self.net), list(self.layout)
        net[p] += layout[s]
        layout[s] = 0
        return self._with(
            step,
            net=tuple(net),
            layout=tuple(layout),
            taken=self.taken | ({taken} if taken else set()),
        )

    def _playing(self) -> None:
        if not self.in_hand:
            raise RuleError("Deal a hand first.", "no_hand")

    def _index(self, player: Hashable) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise RuleError(f"{player!r} is not at this table.", "not_playing") from None

    def _space(self, space: str) -> int:
        if space not in self.spaces:
            raise RuleError(f"There is no space {space!r} on this layout.", "bad_space")
        return self.spaces.index(space)

    @staticmethod
    def _check_chips(chips: int) -> None:
        if isinstance(chips, bool) or not isinstance(chips, int) or not chips >= 1:
            raise RuleError("Chips are a whole number, 1 or more.", "bad_chips")


def bonanza_ledger(
    players: Sequence[Hashable], *, start_chips: int = 0, poker: bool = True
) -> BonanzaLedger:
    """A new ledger for ``players`` in seat order (the first deals first); ``poker`` False
    leaves out the Poker space."""
    order = tuple(players)
    if not MIN_PLAYERS <= len(order) <= MAX_PLAYERS:
        raise RuleError(
            f"Bonanza is played by {MIN_PLAYERS} to {MAX_PLAYERS} players.", "bad_player_count"
        )
    if len(set(order)) != len(order):
        raise RuleError("A player is listed twice.", "duplicate_player")
    if isinstance(start_chips, bool) or not isinstance(start_chips, int) or start_chips < 0:
        raise RuleError("Starting chips are a whole number, 0 or more.", "bad_chips")
    spaces = SPACES if poker else tuple(s for s in SPACES if s != POKER)
    return BonanzaLedger(order, spaces, start_chips, (0,) * len(order), (0,) * len(spaces))


def bonanza_replay(
    players: Sequence[Hashable],
    steps: Iterable[BonanzaStep],
    *,
    start_chips: int = 0,
    poker: bool = True,
) -> BonanzaLedger:
    """The ledger after ``steps``, in order."""
    ledger = bonanza_ledger(players, start_chips=start_chips, poker=poker)
    for step in steps:
        ledger = ledger.apply(step)
    return ledger
