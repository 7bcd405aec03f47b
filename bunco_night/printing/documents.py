"""What each printed document shows, read from the database (no writes here).

One function per document returns plain values; a template lays them out and
``pdf.render_pdf`` prints them. A night's seats are read once, as value tuples,
so a night of 500 players prints without a query per player or per round.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property

from django.urls import reverse
from django.utils.safestring import SafeString

from bunco_night.core.errors import ServiceError
from bunco_night.core.money import format_cents
from bunco_night.core.qr import qr_image
from bunco_night.groups.models import Group, Season
from bunco_night.groups.selectors import rules_explained
from bunco_night.nights.models import Night, Round, Seat
from bunco_night.nights.played import who_played
from bunco_night.nights.selectors import (
    DuesRow,
    dues_summary,
    night_rules_explained,
    players_tonight,
)
from bunco_night.play.standings import night_standings
from bunco_night.rules.errors import RuleError
from bunco_night.rules.explain import Section
from bunco_night.rules.layouts import plan_layout, table_game
from bunco_night.rules.presets import ANY_TABLE, FILL_GHOSTS, HEAD_TABLE, PRESET_NAMES, Rules
from bunco_night.rules.prizes import DOOR_PRIZE
from bunco_night.rules.season import BEST_ATTENDANCE
from bunco_night.rules.season import MOST_MINI_BUNCOS as SEASON_MOST_MINIS
from bunco_night.rules.standings import FEWEST_WINS, MOST_BUNCOS, MOST_LOSSES, MOST_WINS
from bunco_night.seasons.charts import BUNCOS, WINS, Bar, bar_chart
from bunco_night.seasons.standings import season_table

from . import pictures
from .grid import (
    FRAME_PT,
    TOTALS_LINE_PT,
    TOTALS_ROW_PT,
    GridRow,
    GridSet,
    TallyGrid,
    grid_set,
    lines_svg,
    tally_grid,
)

# The master sheet shows at most this many rounds side by side (two sets of six).
MASTER_ROUNDS_PER_BLOCK = 12


def paper(group: Group) -> str:
    """The CSS page size for the group's paper."""
    return "A4" if group.paper_size == Group.PaperSize.A4 else "letter"


# The paper's width, points, and the text width of a page in print.css's "bare" margins
# (half an inch each side): what a tally sheet's grid spans.
PAPER_WIDTH_PT = {"letter": 612.0, "A4": 595.2756}
BARE_MARGINS_PT = 72.0


@dataclass(frozen=True)
class PlayLinks:
    """Absolute links to the play pages, as a phone opens them from a QR code.

    ``absolute`` turns a path into a full URL: ``request.build_absolute_uri`` in a view.
    """

    absolute: Callable[[str], str]

    def table(self, token: str) -> str:
        """The table phone's page."""
        return self.absolute(reverse("play:table", kwargs={"token": token}))

    def player(self, token: str) -> str:
        """A player's own page."""
        return self.absolute(reverse("play:player", kwargs={"token": token}))


# ---------------------------------------------------------------------------
# Rounds and results, as every sheet prints them


@dataclass(frozen=True)
class Slot:
    """One round of the night: its number overall and in its set, and its mark."""

    number: int
    set_number: int
    in_set: int
    mark: int | None
    closed: bool

    @property
    def starts_set(self) -> bool:
        """The first round of a set (the sheets draw a thick line above it)."""
        return self.in_set == 1


def night_slots(night: Night, *, every_round: bool = False) -> list[Slot]:
    """Every round of the night; a finished night keeps only the rounds it played,
    unless ``every_round`` is asked for."""
    rules = night.rules_obj
    rounds = {r.number: r for r in night.rounds.all()}
    if night.is_over and not every_round:
        numbers = sorted(n for n, r in rounds.items() if r.is_closed)
    else:
        numbers = list(range(1, night.total_rounds + 1))
    slots = []
    for number in numbers:
        rnd = rounds.get(number)
        mark = rnd.mark if rnd is not None else rules.planned_mark(number)
        slots.append(
            Slot(
                number=number,
                set_number=rules.set_of(number),
                in_set=rules.place_in_set(number),
                mark=mark,
                closed=rnd is not None and rnd.is_closed,
            )
        )
    return slots


@dataclass(frozen=True)
class Result:
    """Where a player sat in a round and, once it is closed, how they did."""

    table: int
    won: bool | None
    buncos: int | None
    mini_buncos: int | None
    marks: tuple[int | None, ...]

    @property
    def stars(self) -> str:
        """Buncos as stars for the master sheet: one star each, a count past three."""
        if not self.buncos:
            return ""
        return "★" * self.buncos if self.buncos <= 3 else f"★×{self.buncos}"


def seat_results(night: Night, mark_codes: tuple[str, ...]) -> dict[int, dict[int, Result]]:
    """Player id -> round number -> result, from one query over the night's seats."""
    rows = Seat.objects.filter(round__night=night, player__isnull=False).values_list(
        "player_id",
        "round__number",
        "round__status",
        "table__number",
        "won",
        "buncos",
        "mini_buncos",
        "marks",
    )
    results: dict[int, dict[int, Result]] = {}
    for player_id, number, status, table, won, buncos, minis, marks in rows:
        if status == Round.Status.CLOSED:
            marks = marks or {}
            result = Result(table, won, buncos, minis, tuple(marks.get(c, 0) for c in mark_codes))
        else:
            result = Result(table, None, None, None, tuple(None for _ in mark_codes))
        results.setdefault(player_id, {})[number] = result
    return results


@dataclass(frozen=True)
class Totals:
    """A player's night so far."""

    wins: int = 0
    losses: int = 0
    buncos: int = 0
    mini_buncos: int = 0
    marks: tuple[int, ...] = ()
    played: int = 0


def totals(results: Iterable[Result], marks: int) -> Totals:
    """Add up the closed rounds among ``results``."""
    closed = [r for r in results if r.won is not None]
    return Totals(
        wins=sum(1 for r in closed if r.won),
        losses=sum(1 for r in closed if not r.won),
        buncos=sum(r.buncos for r in closed),
        mini_buncos=sum(r.mini_buncos for r in closed),
        marks=tuple(sum(r.marks[i] or 0 for r in closed) for i in range(marks)),
        played=len(closed),
    )


@dataclass(frozen=True)
class Columns:
    """The counters a night's sheets have columns for."""

    mini_label: str
    mark_labels: tuple[str, ...]
    mark_codes: tuple[str, ...]
    is_card_game: bool


def columns(rules: Rules) -> Columns:
    """Mini buncos (or low/high buncos under Deluxe) and each group-defined mark."""
    return Columns(
        mini_label="Low/high buncos" if rules.split_low_high else "Mini buncos",
        mark_labels=tuple(m.label for m in rules.group_marks),
        mark_codes=tuple(m.code for m in rules.group_marks),
        is_card_game=rules.is_card_game,
    )


def _density(rounds: int) -> str:
    """How tightly a sheet's rows are set, so one player's night fits on one page."""
    if rounds <= 12:
        return "roomy"
    if rounds <= 24:
        return "compact"
    return "dense"


# ---------------------------------------------------------------------------
# 1. Table cards


@dataclass(frozen=True)
class TableCard:
    number: int
    head: bool
    link: str

    @property
    def qr(self) -> SafeString:
        """The link as a QR code (made by the PDF engine, with the piece it is in)."""
        return qr_image(self.link)

    @property
    def digits(self) -> int:
        """How many digits the number has (the card sizes it to fit)."""
        return len(str(self.number))


def table_cards(*, night: Night, links: PlayLinks) -> list[TableCard]:
    """One card per active table, head table first, with its phone link as a QR code."""
    cards = []
    for t in night.tables.filter(active=True).order_by("number"):
        link = links.table(t.token)
        cards.append(TableCard(t.number, t.is_head, link))
    return cards


# ---------------------------------------------------------------------------
# 2. Tally sheets


@dataclass(frozen=True)
class TallySheet:
    """One player's card for the night (a blank one has no name and no QR code)."""

    name: str
    link: str
    sets: list[GridSet]
    totals: Totals | None
    card_game: bool = False
    note: str = ""  # "Left after round 1": a player who played and went home

    @property
    def wide_totals(self) -> tuple[int, ...]:
        """The totals under the wide columns: buncos and mini buncos (not at a card
        party), then each group mark."""
        t = self.totals
        if t is None:
            return ()
        return t.marks if self.card_game else (t.buncos, t.mini_buncos, *t.marks)

    @property
    def qr(self) -> SafeString | str:
        """The player's link as a QR code (made by the PDF engine, with the piece)."""
        return qr_image(self.link) if self.link else ""


@dataclass(frozen=True)
class TallySheets:
    sheets: list[TallySheet]
    columns: Columns
    density: str
    grid: TallyGrid
    blank_marks: tuple[None, ...]

    # The grid's rules (``grid.lines_svg``) and the pictures of its header row, its set
    # numbers and "Totals", and each set's rounds won (``pictures``), handed to the PDF
    # engine with each piece.
    lines_url = "made:tally-lines.svg"
    header_url = "made:tally-header.png"
    sets_url = "made:tally-sets.png"

    @property
    def header_labels(self) -> list[str]:
        """The grid's column headings, left to right."""
        cols = self.columns
        labels = ["Set", "Game" if cols.is_card_game else "Round"]
        if not cols.is_card_game:
            labels.append("Mark")
        labels += ["Table", "W / L"]
        if not cols.is_card_game:
            labels += ["Buncos", cols.mini_label]
        return labels + list(cols.mark_labels)

    @property
    def header_png(self) -> bytes | None:
        """The header row as a PNG; None where it prints as a table (``pictures``)."""
        padding = 2.0 if self.columns.mark_labels else 4.0  # print.css: thead th
        return pictures.header_png(self.grid, self.header_labels, padding=padding)

    @property
    def header_height(self) -> float:
        return pictures.HEIGHT_PT

    @property
    def sets_png(self) -> bytes | None:
        """The set numbers, the rounds' numbers and marks, and "Totals" as a picture;
        None where they print as text."""
        sets = [(s.number, s.rounds) for s in self.sheets[0].sets] if self.sheets else []
        return pictures.sets_png(self.grid, sets, self.lines_height)

    @property
    def sets_width(self) -> float:
        """The picture's width: from the grid's left edge to W / L."""
        return round(pictures.INSET_PT + self.grid.wl_left_pt, 3)

    @property
    def set_rows(self) -> list[int]:
        """Each set's rounds (every sheet has the same)."""
        return [s.rows for s in self.sheets[0].sets] if self.sheets else []

    @property
    def files(self) -> dict[str, tuple[bytes, str]]:
        svg = lines_svg(self.grid, self.set_rows)
        files = {self.lines_url: (svg.encode(), "image/svg+xml")}
        for url, png in ((self.header_url, self.header_png), (self.sets_url, self.sets_png)):
            if png is not None:
                files[url] = (png, "image/png")
        pitch = round(self.grid.pitch)
        for sheet in self.sheets:
            for s in sheet.sets:
                # One picture for every set with the same rounds won.
                if s.wins and s.wins_url not in files:
                    files[s.wins_url] = (pictures.wins_png(pitch, s.rows, s.wins), "image/png")
        return files

    @property
    def lines_height(self) -> float:
        """The drawing's height: the sets, the totals, the frame under them."""
        return self.grid_height + TOTALS_LINE_PT + TOTALS_ROW_PT + FRAME_PT

    @cached_property
    def set_heights(self) -> list[tuple[int, float]]:
        """(rounds, height in points) of the sets (every sheet has the same rounds)."""
        sizes = sorted({s.rows for sheet in self.sheets[:1] for s in sheet.sets})
        return [(n, self.grid.set_height(n)) for n in sizes]

    @property
    def grid_height(self) -> float:
        """The sets one under the other, with a thick line (3 pt) between two."""
        sets = self.sheets[0].sets if self.sheets else []
        return sum(self.grid.set_height(s.rows) for s in sets) + 3 * max(len(sets) - 1, 0)


def _grid_sets(
    grid: TallyGrid, slots: list[Slot], mine: dict[int, Result], card_game: bool, pictured: bool
) -> list[GridSet]:
    """A sheet's sets as the grid prints them (``mine``: round number -> result)."""
    by_set: dict[int, list[GridRow]] = {}
    for s in slots:
        r = mine.get(s.number)
        counts = () if card_game else (r and r.buncos, r and r.mini_buncos)
        marks = r.marks if r else ()
        by_set.setdefault(s.set_number, []).append(
            GridRow(
                round=s.in_set,
                mark=s.mark,
                table=r.table if r else None,
                won=r.won if r else None,
                extras=tuple(str(n) if n else "" for n in (*counts, *marks)),
            )
        )
    return [grid_set(grid, number, rows, pictured=pictured) for number, rows in by_set.items()]


def tally_sheets(*, night: Night, links: PlayLinks, blank: int = 0) -> TallySheets:
    """A sheet per player who plays or played tonight (by name; one who left too), filled
    for closed rounds, then ``blank``."""
    cols = columns(night.rules_obj)
    slots = night_slots(night)
    density = _density(len(slots))
    width = PAPER_WIDTH_PT[paper(night.group)] - BARE_MARGINS_PT
    grid = tally_grid(density, card_game=cols.is_card_game, marks=len(cols.mark_codes), width=width)
    results = seat_results(night, cols.mark_codes)
    any_closed = any(s.closed for s in slots)
    pictured = pictures.sets_drawable()  # the rounds and marks: in the picture, or text
    sheets = []
    for p in who_played(night):
        mine = results.get(p.player.pk, {})
        sheets.append(
            TallySheet(
                name=p.player.name,
                link=links.player(p.attendance.token) if p.attendance else "",
                sets=_grid_sets(grid, slots, mine, cols.is_card_game, pictured),
                totals=totals(mine.values(), len(cols.mark_codes)) if any_closed else None,
                card_game=cols.is_card_game,
                note=f"Left after round {p.last_round}" if p.left else "",
            )
        )
    empty = _grid_sets(grid, slots, {}, cols.is_card_game, pictured)
    sheets += [TallySheet("", "", empty, None) for _ in range(blank)]
    return TallySheets(sheets, cols, density, grid, tuple(None for _ in cols.mark_codes))


# ---------------------------------------------------------------------------
# 3. Score pads


@dataclass(frozen=True)
class ScorePad:
    """A table's pad for one set: a row per round, a column per side. ``ghosts``: the
    group fills empty seats with ghosts and this table plays in teams, so the pad reminds
    the table who rolls for a ghost (docs/rules.md section 4.2)."""

    table: int | None
    head: bool
    set_number: int
    sides: list[str]
    rule: str
    slots: list[Slot]
    is_card_game: bool
    ghosts: bool = False


def _pad_tables(night: Night, rules: Rules) -> list[tuple[int, int]]:
    """(number, seats) of tonight's tables: the active ones, else the layout to come."""
    tables = [(t.number, t.seats) for t in night.tables.filter(active=True).order_by("number")]
    if tables:
        return tables
    try:
        layout = plan_layout(len(players_tonight(night)), rules)
    except RuleError:
        return []
    return [(t.number, t.seats) for t in layout.tables]


def pad_rule(rules: Rules, *, target: int, head: bool | None) -> str:
    """How a round ends at this table, in one line (docs/rules.md section 3).

    ``head`` is None on a blank pad, which may end up at any table.
    """
    if rules.is_card_game:
        return "The host enters each game's winner"
    clock = f"; the bell rings after {rules.round_minutes} minutes" if rules.is_timed else ""
    if rules.round_end == HEAD_TABLE:
        if head is None:
            return f"Head table: first to {target} rings the bell{clock}"
        if head:
            return f"First to {target} rings the bell for every table{clock}"
        return f"Play until the bell rings: the higher score wins{clock}"
    # Two dice: three doubles in a row are the bunco (section 9.2).
    bunco = "three doubles in a row win" if rules.is_two_dice else "a bunco wins"
    if rules.round_end == ANY_TABLE:  # section 3.9
        rule = f"The first side anywhere to {target} stops every table: the higher score wins"
        if rules.bunco_ends_round:
            rule = f"{rule}; {bunco} at once"
        return f"{rule}{clock}"
    rule = f"First to {target} wins the round"
    if rules.bunco_ends_round:
        rule = f"{rule}; {bunco.removesuffix(' win').removesuffix(' wins')} ends it everywhere"
    return f"{rule}{clock}"


def score_pads(*, night: Night, blank: bool = False) -> list[ScorePad]:
    """One pad per table per set; ``blank`` pads (Us/Them, no table number) one per set."""
    rules = night.rules_obj
    card = rules.is_card_game
    slots = night_slots(night, every_round=True)
    sets = [[s for s in slots if s.set_number == n] for n in range(1, night.sets + 1)]
    tables = [] if blank else _pad_tables(night, rules)
    ghosts = rules.fill == FILL_GHOSTS and not card
    if not tables:
        rule = pad_rule(rules, target=table_game(rules, seats=4, tables=2).target, head=None)
        sides = ["Winner"] if card else ["Us", "Them"]
        return [
            ScorePad(None, False, n, sides, rule, s, card, ghosts) for n, s in enumerate(sets, 1)
        ]
    pads = []
    for number, seats in tables:
        game = table_game(rules, seats=seats, tables=len(tables))
        sides = ["Us", "Them"] if game.teams else [f"Seat {i}" for i in range(1, seats + 1)]
        rule = pad_rule(rules, target=game.target, head=number == 1)
        for set_number, set_slots in enumerate(sets, start=1):
            pads.append(
                ScorePad(
                    number,
                    number == 1,
                    set_number,
                    sides,
                    rule,
                    set_slots,
                    card,
                    ghosts and game.teams,
                )
            )
    return pads


@dataclass(frozen=True)
class BuckPad:
    """A Buck Dice pad (docs/rules.md section 9.3): one game, a column per player (at most
    ``BUCK_PAD_COLUMNS``, so a big game takes two sheets), a row per turn for the running
    total, and the order the players went out in. ``wide`` pads print landscape."""

    game: int
    sheet: int
    sheets: int
    names: list[str]
    rules: tuple[str, ...]
    turns: int

    @property
    def wide(self) -> bool:
        return len(self.names) > BUCK_PAD_PORTRAIT

    @property
    def rows(self) -> range:
        """The turns, numbered from 1: a player writes their running total."""
        return range(1, self.turns + 1)

    @property
    def density(self) -> str:
        return "many" if len(self.names) > BUCK_PAD_PORTRAIT else "few"


BUCK_PAD_COLUMNS = 10  # players on one sheet
BUCK_PAD_PORTRAIT = 6  # more players than this print landscape
BUCK_PAD_BLANK = 6  # columns of a blank pad


def buck_pads(*, night: Night, blank: bool = False) -> list[BuckPad]:
    """A Buck Dice pad per game of the night (its sets), a column per player tonight in list
    order, then anyone who played and left (``blank``: empty columns to write names in),
    with the scoring in words."""
    names = [] if blank else [p.name for p in players_tonight(night)]
    names += [] if blank else [p.player.name for p in who_played(night) if p.left]
    names = names or [""] * BUCK_PAD_BLANK
    scoring = next(s for s in night_rules_explained(night))
    chunks = [names[i : i + BUCK_PAD_COLUMNS] for i in range(0, len(names), BUCK_PAD_COLUMNS)]
    return [
        BuckPad(
            game,
            sheet,
            len(chunks),
            chunk,
            scoring.lines,
            turns=9 if len(chunk) > BUCK_PAD_PORTRAIT else 12,
        )
        for game in range(1, night.sets + 1)
        for sheet, chunk in enumerate(chunks, start=1)
    ]


# ---------------------------------------------------------------------------
# 4. Master score sheet


@dataclass(frozen=True)
class MasterRow:
    name: str
    cells: list[Result | None]
    totals: Totals


@dataclass(frozen=True)
class MasterBlock:
    """Up to twelve rounds side by side, every player down the page."""

    sets: list[int]
    slots: list[Slot]
    rows: list[MasterRow]
    continued: bool = False  # more rows of the block before (printed in pieces)

    @property
    def set_headers(self) -> list[tuple[int, int]]:
        """(set number, rounds of it in this block), for the header row above the rounds."""
        spans: list[tuple[int, int]] = []
        for s in self.slots:
            if spans and spans[-1][0] == s.set_number:
                spans[-1] = (s.set_number, spans[-1][1] + 1)
            else:
                spans.append((s.set_number, 1))
        return spans

    @cached_property
    def set_starts(self) -> set[int]:
        """Positions of the rounds that start a set (a thick line on their left)."""
        return {i for i, s in enumerate(self.slots) if s.starts_set}


@dataclass(frozen=True)
class MasterSheet:
    blocks: list[MasterBlock]
    columns: Columns
    started: bool
    density: str
    block_count: int  # of the whole sheet, when ``blocks`` are a piece of it

    @property
    def totals_span(self) -> int:
        """Columns under "Night totals": wins, losses, buncos, minis and each group mark."""
        counters = 2 if self.columns.is_card_game else 4
        return counters + len(self.columns.mark_codes)

    @property
    def totals_range(self) -> range:
        return range(self.totals_span)


def _blocks(slots: list[Slot]) -> list[list[Slot]]:
    """Whole sets packed side by side, at most ``MASTER_ROUNDS_PER_BLOCK`` rounds a block."""
    blocks: list[list[Slot]] = []
    by_set: dict[int, list[Slot]] = {}
    for s in slots:
        by_set.setdefault(s.set_number, []).append(s)
    for set_slots in by_set.values():
        for i in range(0, len(set_slots), MASTER_ROUNDS_PER_BLOCK):
            chunk = set_slots[i : i + MASTER_ROUNDS_PER_BLOCK]
            if blocks and len(blocks[-1]) + len(chunk) <= MASTER_ROUNDS_PER_BLOCK:
                blocks[-1].extend(chunk)
            else:
                blocks.append(list(chunk))
    return blocks


def master_sheet(*, night: Night) -> MasterSheet:
    """Every player's win or loss and buncos in every round, as the night stands."""
    cols = columns(night.rules_obj)
    slots = night_slots(night)
    results = seat_results(night, cols.mark_codes)
    players = [p.player for p in who_played(night)]
    player_totals = {
        p.pk: totals(results.get(p.pk, {}).values(), len(cols.mark_codes)) for p in players
    }
    blocks = []
    for block in _blocks(slots):
        rows = []
        for p in players:
            mine = results.get(p.pk, {})
            cells = [mine.get(s.number) if s.closed else None for s in block]
            rows.append(MasterRow(p.name, cells, player_totals[p.pk]))
        blocks.append(MasterBlock(sorted({s.set_number for s in block}), block, rows))
    # Up to twelve players fit one landscape page with tall rows.
    density = "roomy" if len(players) <= 12 else "compact"
    return MasterSheet(blocks, cols, any(s.closed for s in slots), density, len(blocks))


# ---------------------------------------------------------------------------
# 5. Prize standings and payout


@dataclass(frozen=True)
class PrizeLine:
    title: str
    amount_cents: int
    names: list[str]
    tied: bool
    broken_by_host: bool
    detail: str
    percent: int | None = None
    split: bool = False
    # Each share paid: who won it, whom it is paid to when not them (the regular a
    # substitute came for, docs/rules.md section 7.7; else ""), and its cents.
    payouts: tuple[tuple[str, str, int], ...] = ()
    # The money left over that was added to this prize (the first, docs/rules.md section
    # 7.8): the amount is its own share plus this, so the percent is of the share only.
    leftover_cents: int = 0
    # The door prize (section 7.5): not drawn yet among ``present`` people, or drawn with
    # the number ``seed``.
    door_pending: bool = False
    present: int = 0
    seed: int | None = None

    @property
    def share_cents(self) -> int:
        """The prize's own share of the pot, without the money left over added to it."""
        return self.amount_cents - self.leftover_cents


@dataclass(frozen=True)
class StandingLine:
    rank: int
    tied: bool
    name: str
    wins: int
    losses: int
    buncos: int
    mini_buncos: int
    marks: tuple[int, ...]


@dataclass(frozen=True)
class LastBunco:
    name: str
    when: object
    table: int
    round: int
    mark: int | None


@dataclass(frozen=True)
class DoorDrawSheet:
    """The door prize's draw as the standings page shows it (docs/rules.md section 7.5):
    the list it was drawn from, in name order and numbered from 1, the draw's number,
    the number it picked and who that is. ``without_substitutes``: substitutes were
    present and left off the list, since they cannot win (section 7.7)."""

    seed: int
    number: int
    winner: str
    names: list[str]
    without_substitutes: bool = False


@dataclass(frozen=True)
class PrizeSheet:
    pot_cents: int
    payout_error: str
    buncos_rolled: int
    last_bunco: LastBunco | None
    fuzzy_die: str | None
    prizes: list[PrizeLine]
    standings: list[StandingLine]
    rounds_closed: int
    rounds_total: int
    columns: Columns
    rounding_text: str = "the cent"
    leftover_lines: tuple[tuple[str, int, str], ...] = ()
    # Whether the night awards the fuzzy die (its prizes, docs/rules.md section 8.5).
    plays_fuzzy_die: bool = False
    door: DoorDrawSheet | None = None
    over_text: str = ""  # how the night ended, once it is over (docs/rules.md section 7.4)


_UNITS = {
    MOST_BUNCOS: ("bunco", "buncos"),
    MOST_WINS: ("win", "wins"),
    MOST_LOSSES: ("loss", "losses"),
    FEWEST_WINS: ("win", "wins"),
}


def _prize_line(
    prize, names: list[str], detail: str, percents: dict, payouts: tuple = ()
) -> PrizeLine:
    """A night's or a season's prize (an engine ``PrizeResult``) as the sheets print it;
    ``percents`` are the pot's percents by prize key, ``payouts`` as ``PrizeLine``'s."""
    return PrizeLine(
        title=prize.title,
        amount_cents=prize.amount_cents,
        names=names,
        tied=prize.tied,
        broken_by_host=prize.broken_by_host,
        detail=detail,
        percent=percents.get(prize.key),
        split=prize.split,
        payouts=payouts,
    )


def _detail(code: str, value: int | None) -> str:
    if code not in _UNITS or value is None:
        return ""
    one, many = _UNITS[code]
    return f"{value} {one if value == 1 else many}"


def prize_sheet(*, night: Night) -> PrizeSheet:
    """Each prize's winner (or the tie), its money from the pot, and the ranked standings."""
    ns = night_standings(night)
    cols = columns(night.rules_obj)
    name = {pk: p.name for pk, p in ns.players.items()}
    # Beside amounts of $0.00 (less collected than the fixed amounts need) a percent would
    # say what nobody is paid yet: none is printed.
    percents = {} if ns.payout_error else {c.key: c.percent for c in night.prize_categories}
    to_first = ns.awards.first_prize_cents if ns.awards else 0
    prizes = []
    for i, (p, row) in enumerate(zip(ns.prizes, ns.prize_rows, strict=True)):
        pending = p.code == DOOR_PRIZE and p.seed is None
        if pending:  # everyone present is in line for it: nobody is its winner yet
            names = []
        elif p.winner is not None:
            names = [name[p.winner]]
        else:
            names = [name[c] for c in p.candidates]
        payouts = tuple(
            (won.name, "" if paid == won else paid.name, cents) for won, paid, cents in row.lines
        )
        line = _prize_line(p, names, _detail(p.code, p.value), percents, payouts)
        prizes.append(
            dataclasses.replace(
                line,
                leftover_cents=to_first if i == 0 else 0,
                door_pending=pending,
                present=len(p.candidates) if pending else 0,
                seed=p.seed,
            )
        )
    door = None
    if ns.door is not None:
        door = DoorDrawSheet(
            seed=ns.door.seed,
            number=ns.door.number,
            winner=ns.door_winner.name,
            names=[p.name for _, p in ns.door_rows],
            without_substitutes=ns.door_without_substitutes,
        )
    standings = [
        StandingLine(
            s.rank,
            s.tied,
            player.name,
            s.wins,
            s.losses,
            s.buncos,
            s.mini_buncos,
            tuple(s.marks.get(c, 0) for c in cols.mark_codes),
        )
        for s, player in ns.rows  # a shared place in name order, as the standings page
    ]
    last = ns.last_bunco
    return PrizeSheet(
        pot_cents=ns.pot_cents,
        payout_error=ns.payout_error,
        buncos_rolled=ns.buncos_rolled,
        last_bunco=LastBunco(
            last.roller.name, last.created, last.table.number, last.round.number, last.round.mark
        )
        if last
        else None,
        fuzzy_die=ns.fuzzy_die.name if ns.fuzzy_die else None,
        prizes=prizes,
        standings=standings,
        rounds_closed=ns.rounds_closed,
        rounds_total=len(night_slots(night)),
        over_text=ns.over_text,
        columns=cols,
        rounding_text=ns.rounding_text,
        leftover_lines=tuple(ns.leftover_lines),
        plays_fuzzy_die=ns.plays_fuzzy_die,
        door=door,
    )


# ---------------------------------------------------------------------------
# 6. Roster and dues


@dataclass(frozen=True)
class DuesLine:
    """Someone on the roster sheet: who, why they are listed, their dues, and what to ask
    them for (``due_cents``: a substitute is asked for the seat's dues tonight, never for
    what the regular owes from earlier nights, which the note says)."""

    name: str
    note: str
    phone: str
    dues: DuesRow
    due_cents: int = -1  # -1: the row's own balance due

    @property
    def asked_cents(self) -> int:
        return self.dues.due_cents if self.due_cents < 0 else self.due_cents


@dataclass(frozen=True)
class DuesSection:
    title: str
    lines: list[DuesLine]
    note: str = ""


@dataclass(frozen=True)
class RosterSheet:
    sections: list[DuesSection]
    dues_cents: int
    playing: int
    expected_cents: int
    collected_cents: int
    outstanding_cents: int
    payouts: list = field(default_factory=list)
    payout_error: str = ""
    pot_cents: int = 0  # the prize pot: the collection less the season's share
    season_share_cents: int = 0
    season: Season | None = None


def roster_sheet(*, night: Night) -> RosterSheet:
    """Who came, who sent a substitute, who is absent (and owes), who paid and who owes."""
    summary = dues_summary(night)
    ghosts = set(
        Seat.objects.filter(round__night=night, ghost_for__isnull=False).values_list(
            "ghost_for_id", flat=True
        )
    )
    coming, subs, absent, left = [], [], [], []
    for row in summary.rows:
        a = row.attendance
        player = a.player
        if a.sends_substitute:
            tonight = max(row.owes_cents - row.prepaid_cents - row.paid_cents, 0)
            note = f"for {player.name}"
            if row.due_cents > tonight:
                earlier = format_cents(row.due_cents - tonight)
                note += f"; {player.name} still owes {earlier} from earlier nights"
            subs.append(DuesLine(a.substitute.name, note, a.substitute.phone, row, tonight))
        elif a.is_absent:
            note = "a ghost plays for them" if a.pk in ghosts else "not coming"
            if not row.owes_cents:
                note = "not coming (substitute: owes nothing)"
            absent.append(DuesLine(player.name, note, player.phone, row))
        elif a.has_left:
            left.append(DuesLine(player.name, "left early", player.phone, row))
        else:
            note = "" if player.is_regular else "guest"
            coming.append(DuesLine(player.name, note, player.phone, row))
    sections = [
        DuesSection("Coming", coming),
        DuesSection("Substitutes", subs, "A substitute plays for a regular; dues are the seat's."),
        DuesSection(
            "Absent, no substitute",
            absent,
            "A regular who sends nobody still owes the dues (the group's rule).",
        ),
        DuesSection("Left early", left),
    ]
    return RosterSheet(
        sections=[s for s in sections if s.lines or s.title == "Coming"],
        dues_cents=night.dues_cents,
        playing=len(coming) + len(subs),
        expected_cents=summary.expected_cents,
        collected_cents=summary.collected_cents,
        outstanding_cents=summary.outstanding_cents,
        payouts=summary.payouts,
        payout_error=summary.payout_error,
        pot_cents=summary.pot_cents,
        season_share_cents=summary.season_share_cents,
        season=summary.season,
    )


def check_blank_count(value: str | None, *, limit: int) -> int:
    """A ``?blank=N`` count: 0 when absent, refused when not a whole number up to ``limit``."""
    if value in (None, ""):
        return 0
    try:
        count = int(value)
    except ValueError:
        raise ServiceError("Blank sheets: give a whole number.", "bad_blank") from None
    if not 0 <= count <= limit:
        raise ServiceError(f"Blank sheets: 0 to {limit}.", "bad_blank")
    return count


# ---------------------------------------------------------------------------
# 7. A season's standings and year-end prizes


@dataclass(frozen=True)
class SeasonLine:
    rank: int
    tied: bool
    name: str
    substitute: bool
    nights: int
    wins: int
    losses: int
    buncos: int
    mini_buncos: int
    marks: tuple[int, ...]
    prizes: int
    money_cents: int


@dataclass(frozen=True)
class SeasonSheet:
    name: str
    starts: object
    ends: object
    nights: int
    pot_cents: int
    pot_percent: int
    regulars_only: bool
    payout_error: str
    prizes: list[PrizeLine]
    standings: list[SeasonLine]
    mark_labels: tuple[str, ...]
    wins_chart: SafeString


def season_sheet(*, season: Season) -> SeasonSheet:
    """The year-end prizes (ties shown as ties) and the season's ranked standings."""
    table = season_table(season)
    percents = {p.key: p.percent for p in season.prizes.all()}
    prizes = []
    for prize, candidates, winner in table.prize_rows:
        names = [winner.name] if winner is not None else [p.name for p in candidates]
        prizes.append(_prize_line(prize, names, _season_detail(prize.code, prize.value), percents))
    standings = [
        SeasonLine(
            s.rank,
            s.tied,
            player.name,
            not player.is_regular,
            s.nights,
            s.standing.wins,
            s.standing.losses,
            s.standing.buncos,
            s.standing.mini_buncos,
            marks,
            s.prizes,
            s.money_cents,
        )
        for s, player, marks in table.rows
    ]
    chart = bar_chart(
        "season-wins",
        f"Wins in the {season.name} season",
        [Bar(line.name, (line.wins, line.buncos)) for line in standings],
        [("Wins", WINS), ("Buncos", BUNCOS)],
    )
    return SeasonSheet(
        name=season.name,
        starts=season.starts,
        ends=season.ends,
        nights=len(table.nights),
        pot_cents=table.pot_cents,
        pot_percent=season.pot_percent,
        regulars_only=season.regulars_only,
        payout_error=table.payout_error,
        prizes=prizes,
        standings=standings,
        mark_labels=table.mark_labels,
        wins_chart=chart,
    )


_SEASON_UNITS = {
    **_UNITS,
    BEST_ATTENDANCE: ("night", "nights"),
    SEASON_MOST_MINIS: ("mini bunco", "mini buncos"),
}


def _season_detail(code: str, value: int | None) -> str:
    if code not in _SEASON_UNITS or value is None:
        return ""
    one, many = _SEASON_UNITS[code]
    return f"{value} {one if value == 1 else many}"


# ---------------------------------------------------------------------------
# 7. The rules card


@dataclass(frozen=True)
class RulesCard:
    """A group's rules in words (or a night's, which keeps the rules it was planned with),
    on one page to leave on the tables: the same sections as "How do we play?"
    (bunco_night/rules/explain.py, after docs/rules.md). ``density`` is "roomy",
    "compact" or "tight": a long set of rules prints smaller so the card stays one page."""

    rules_label: str
    sections: list[Section]
    density: str


# Characters of rules text that fit one page in two columns at each size of print.css's
# rules card, biggest first; longer rules print at the "tight" size.
DENSITIES = (("roomy", 2500), ("compact", 3700))


def rules_card(*, group: Group, night: Night | None = None) -> RulesCard:
    """The rules card of ``group``, or of ``night`` (its rules and its number of sets)."""
    rules = night.rules_obj if night is not None else group.rules_obj
    sections = night_rules_explained(night) if night is not None else rules_explained(group)
    chars = sum(len(line) for s in sections for line in s.lines)
    return RulesCard(
        PRESET_NAMES.get(rules.name, ""),
        sections,
        next((name for name, most in DENSITIES if chars <= most), "tight"),
    )
