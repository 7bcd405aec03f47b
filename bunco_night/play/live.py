"""The host's live board (``live_board``) and what changed since a screen's version
(``board_update``); read only."""

from __future__ import annotations

from dataclasses import dataclass, field

from bunco_night.nights.models import Night, Round
from bunco_night.nights.selectors import current_round

from .models import Entry
from .moves import next_round
from .speed.boards import kept_screens
from .standings import BuncoFacts, NightStandings, bunco_facts, night_standings
from .state import RoundBoard, TableRound, round_board, round_seconds_left, screen_board


@dataclass
class LiveBoard:
    night: Night
    version: str
    round: Round | None
    board: RoundBoard | None
    next_round: Round | None
    rounds_total: int
    standings: NightStandings
    late: list[Entry]
    clock: int | None = None

    @property
    def late_rows(self) -> list[tuple[Entry, str]]:
        """Late entries waiting for the host, each with what it scored in words."""
        rules = self.night.rules_obj
        return [(e, e.describe(rules)) for e in self.late]

    @property
    def tables(self) -> list[TableRound]:
        return self.board.tables if self.board else []

    @property
    def bell(self) -> bool:
        return bool(self.board and self.round.is_playing and self.board.bell)

    @property
    def standings_shown(self) -> list:
        """The first ``LIVE_STANDINGS_ROWS`` standings' rows."""
        return self.standings.rows[:LIVE_STANDINGS_ROWS]

    @property
    def standings_more(self) -> int:
        return len(self.standings.standings) - len(self.standings_shown)


# Four full tables' players; the rest are on Prize standings.
LIVE_STANDINGS_ROWS = 16


def live_board(night: Night) -> LiveBoard:
    """The host's board: every table's score and state, and the night's headline facts."""
    rnd = current_round(night)
    nxt = None
    if rnd and rnd.is_closed:
        nxt = next_round(night, rnd)
    elif rnd and rnd.is_pending:
        nxt = rnd
    return LiveBoard(
        night=night,
        version=f"{night.version}.{night.scores_version}",
        round=rnd,
        board=round_board(rnd) if rnd else None,
        next_round=nxt,
        rounds_total=night.total_rounds,
        standings=night_standings(night),
        late=_late_entries(night),
        clock=round_seconds_left(rnd, night.rules_obj) if rnd else None,
    )


@dataclass
class BoardUpdate:
    """What changed on the host's screens since their scores version, in play: tables,
    bell, late entries, buncos; ``kept`` tables come as kept drawings."""

    night: Night
    version: str
    round: Round
    board: RoundBoard
    tables: list[TableRound]
    standings: BuncoFacts
    late: list[Entry]
    kept: list[str] = field(default_factory=list)  # the other changed tables, as kept

    @property
    def bell(self) -> bool:
        return self.board.bell

    @property
    def clock(self) -> int | None:
        """Seconds left in a timed round (docs/rules.md section 3.8), for the bell's words."""
        return round_seconds_left(self.round, self.night.rules_obj)

    @property
    def late_rows(self) -> list[tuple[Entry, str]]:
        rules = self.night.rules_obj
        return [(e, e.describe(rules)) for e in self.late]


def board_update(night: Night, since: str, screen: str) -> BoardUpdate | None:
    """The update for ``screen`` ("live" or "room") at ``since`` ("night.scores"), or None
    to re-render whole. Current kept drawings are sent as kept (``boards.kept_screens``)."""
    shown, _, scores = since.partition(".")
    rnd = current_round(night)
    if shown != str(night.version) or not scores.isdecimal() or len(scores) > 12:
        return None
    if rnd is None or not rnd.is_playing:
        return None
    changed = dict(night.tables.filter(scores_mark__gt=int(scores)).values_list("pk", "version"))
    kept = kept_screens(screen, night.version, changed)
    board = screen_board(rnd, changed, kept={pk: bell for pk, (bell, _) in kept.items()})
    return BoardUpdate(
        night=night,
        version=f"{night.version}.{night.scores_version}",
        round=rnd,
        board=board,
        tables=board.tables,
        standings=bunco_facts(night),
        late=_late_entries(night),
        kept=[kept[pk][1] for pk in board.kept],
    )


def _late_entries(night: Night) -> list[Entry]:
    return list(
        Entry.objects.late_pending()
        .filter(round__night=night)
        .select_related("roller", "round", "table")
        .order_by("round__number", "table__number", "created")
    )
