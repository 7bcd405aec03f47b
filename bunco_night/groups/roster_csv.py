"""A roster in and out as CSV (name, phone, e-mail, kind, notes): ``read_roster`` never raises
for the file's content; ``roster_csv``'s export reads back in."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from bunco_night.core.csvfile import BOM

from .models import Group, Player

MAX_BYTES = 256 * 1024
MAX_ROWS = 500

# Column headings people use, after lower-casing and trimming.
HEADINGS = {
    "name": {"name", "names", "player", "player name", "full name"},
    "phone": {"phone", "phone number", "cell", "cell phone", "mobile", "telephone", "tel"},
    "email": {"email", "e-mail", "email address", "e-mail address", "mail"},
    "kind": {
        "kind",
        "type",
        "role",
        "plays as",
        "regular or substitute",
        "regular/substitute",
        "regular / substitute",
        "status",
    },
    "notes": {"notes", "note", "comments", "comment"},
}
# Without a heading row, the columns are in this order.
DEFAULT_ORDER = ["name", "phone", "email", "kind", "notes"]
REGULAR_WORDS = {"", "regular", "regulars", "reg", "r", "member"}
SUBSTITUTE_WORDS = {"substitute", "substitutes", "sub", "subs", "s", "alternate", "alt", "spare"}
# A cell a spreadsheet would run as a formula; the export puts a ' in front of it.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class RosterRow:
    """One line of the file and what importing it would do."""

    line: int
    name: str
    phone: str = ""
    email: str = ""
    kind: str = Player.Kind.REGULAR
    notes: str = ""
    errors: list[str] = field(default_factory=list)
    action: str = "add"  # "add", "update" or "same"
    changes: list[str] = field(default_factory=list)
    player: Player | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def kind_label(self) -> str:
        return Player.Kind(self.kind).label


@dataclass
class RosterFile:
    rows: list[RosterRow] = field(default_factory=list)
    problem: str = ""  # why the whole file cannot be read

    @property
    def good(self) -> list[RosterRow]:
        return [r for r in self.rows if r.ok]

    @property
    def bad(self) -> list[RosterRow]:
        return [r for r in self.rows if not r.ok]

    @property
    def to_change(self) -> list[RosterRow]:
        """The good rows that add or update a player."""
        return [r for r in self.good if r.action != "same"]


def decode(data: bytes) -> str:
    """A file's text: UTF-8 (with or without the mark Excel adds), else Windows-1252."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _clean(cell: str) -> str:
    cell = " ".join((cell or "").split())
    if cell.startswith("'") and cell[1:2] and cell[1:].startswith(FORMULA_START):
        cell = cell[1:]
    return cell


def _columns(first: list[str]) -> dict[str, int] | None:
    """Column positions from a heading row, or None if the row is not headings."""
    found = {}
    for i, cell in enumerate(first):
        heading = " ".join(cell.lower().replace("_", " ").split())
        for key, words in HEADINGS.items():
            if heading in words and key not in found:
                found[key] = i
    return found or None


def _rows(text: str) -> list[tuple[int, list[str]]]:
    """Each non-empty row with its first line number, split on the first line's commonest
    separator (comma, semicolon or tab)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = max(",;\t", key=lambda d: (first.count(d), d == ","))
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows, line = [], 1
    for cells in reader:
        if any(cell.strip() for cell in cells):
            rows.append((line, cells))
        line = reader.line_num + 1
    return rows


def read_roster(text: str, group: Group) -> RosterFile:
    """Read a roster file: what importing each row into ``group`` would do (BOM ignored)."""
    text = text.lstrip(BOM)
    if not text.strip():
        return RosterFile(problem="The file is empty.")
    try:
        table = _rows(text)
    except csv.Error as error:
        return RosterFile(problem=f"This does not read as a CSV file ({error}).")
    if not table:
        return RosterFile(problem="The file has no rows.")
    columns = _columns(table[0][1])
    if columns is None:
        columns = {key: i for i, key in enumerate(DEFAULT_ORDER)}
    elif "name" not in columns:
        return RosterFile(
            problem="No column is called Name: the first row should name the columns "
            "(Name, Phone, E-mail, Regular or substitute)."
        )
    else:
        table = table[1:]
    if len(table) > MAX_ROWS:
        return RosterFile(problem=f"The file has {len(table)} rows: at most {MAX_ROWS}.")
    existing = {" ".join(p.name.split()).casefold(): p for p in group.players.all()}
    seen: dict[str, int] = {}
    result = RosterFile()
    for line, cells in table:

        def cell(key: str, cells=cells) -> str:
            i = columns.get(key)
            return _clean(cells[i]) if i is not None and i < len(cells) else ""

        row = RosterRow(line, cell("name"), cell("phone"), cell("email"), notes=cell("notes"))
        _check(row, cell("kind"), seen)
        if row.ok:
            _compare(row, existing.get(row.name.casefold()))
        result.rows.append(row)
    return result


def _check(row: RosterRow, kind: str, seen: dict[str, int]) -> None:
    if not row.name:
        row.errors.append("No name: every row needs one.")
    elif len(row.name) > 80:
        row.errors.append("The name is longer than 80 characters.")
    else:
        key = row.name.casefold()
        if key in seen:
            row.errors.append(f"{row.name} is already on line {seen[key]}.")
        else:
            seen[key] = row.line
    if len(row.phone) > 40:
        row.errors.append("The phone number is longer than 40 characters.")
    elif row.phone and not any(c.isdigit() for c in row.phone):
        row.errors.append(f"“{row.phone}” does not look like a phone number.")
    if row.email:
        try:
            validate_email(row.email)
        except ValidationError:
            row.errors.append(f"“{row.email}” is not an e-mail address.")
    word = kind.lower().strip(" .")
    if word in REGULAR_WORDS:
        row.kind = Player.Kind.REGULAR
    elif word in SUBSTITUTE_WORDS:
        row.kind = Player.Kind.SUBSTITUTE
    else:
        row.errors.append(f"Plays as “{kind}”: write regular or substitute.")
    if len(row.notes) > 1000:
        row.errors.append("The notes are longer than 1,000 characters.")


def _compare(row: RosterRow, player: Player | None) -> None:
    """Add a new player; for someone already on the roster, update what the file gives."""
    if player is None:
        return
    row.player = player
    for key, label in (("phone", "phone"), ("email", "e-mail"), ("notes", "notes")):
        new = getattr(row, key)
        if new and new != getattr(player, key):
            row.changes.append(f"{label}: {getattr(player, key) or '(none)'} → {new}")
    if row.kind != player.kind:
        row.changes.append(f"plays as: {player.get_kind_display()} → {row.kind_label}")
    row.action = "update" if row.changes else "same"


def _safe(cell: str) -> str:
    """A cell a spreadsheet will not run as a formula; phone numbers such as +1 555 stay."""
    if cell.startswith(FORMULA_START) and not (
        cell[:1] in "+-" and all(c.isdigit() or c in " +-().#" for c in cell)
    ):
        return "'" + cell
    return cell


def roster_csv(group: Group) -> str:
    """The roster as CSV: everyone, regulars first, then substitutes, then the retired."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["Name", "Phone", "E-mail", "Plays as", "Notes", "Usual substitute", "Retired"])
    players = group.players.select_related("usual_substitute")
    order = {Player.Kind.REGULAR: 0, Player.Kind.SUBSTITUTE: 1}
    for p in sorted(players, key=lambda p: (p.retired, order[p.kind], p.name.casefold())):
        writer.writerow(
            [
                _safe(p.name),
                _safe(p.phone),
                _safe(p.email),
                p.get_kind_display(),
                _safe(" ".join(p.notes.split())),
                _safe(p.usual_substitute.name) if p.usual_substitute else "",
                "yes" if p.retired else "",
            ]
        )
    return out.getvalue()
