"""The tally sheet's header row as one picture per night (bunco_night/printing/heading.py):
on paper the same row the sheet's table drew, and the table where the picture cannot be."""

import pytest

from bunco_night.groups.services import rules_update
from bunco_night.printing import documents, heading, printouts
from bunco_night.printing.grid import FRAME_PT, tally_grid
from bunco_night.rules.presets import GroupMark
from tests.factories import make_group, make_night
from tests.printing.helpers import get_pdf
from tests.printing.pdftools import page_image, pages_text

pytestmark = pytest.mark.django_db

DPI = 300
MARGIN_PT = 36  # the tally sheet's page margin (print.css: @page bare)


def px(points: float) -> int:
    return round((MARGIN_PT + points) * DPI / 72)


@pytest.fixture
def no_picture(monkeypatch):
    """A machine without DejaVu Sans Bold: the header prints as a table."""

    def forget():
        heading.font_file.cache_clear()
        heading._header_png.cache_clear()

    forget()
    monkeypatch.setattr(heading.shutil, "which", lambda name: None)
    yield
    monkeypatch.undo()
    forget()


def tally_doc(night):
    return documents.tally_sheets(night=night, links=printouts.links_at("http://testserver"))


def header_top(image) -> int:
    """The first row of pixels dark across nearly the whole grid: the header's top border."""
    left, right = px(0), px(500)
    for y in range(image.height):
        if all(image.getpixel((x, y)) < 100 for x in range(left, right, 10)):
            return y
    raise AssertionError("no header on the page")


def ink_box(image, box) -> tuple[int, int, int, int] | None:
    """The box round the dark pixels (type, not the grey) inside ``box``."""
    return image.crop(box).point(lambda v: 255 if v < 100 else 0).getbbox()


NIGHTS = {
    "house rules": ("house", {}),
    "a group mark": ("house", {"group_marks": (GroupMark("wipeout", "Wipeouts"),)}),
    "the card party": ("card_1904", {}),
}


@pytest.mark.parametrize("name", NIGHTS)
def test_the_header_picture_prints_the_row_the_table_printed(client, host, name, request):
    preset, changes = NIGHTS[name]
    group = make_group(user=host, rules=preset, regulars=8, substitutes=0)
    if changes:
        rules_update(group=group, changes=changes)
    night = make_night(group, sets=1)
    doc = tally_doc(night)
    assert doc.header_png is not None
    picture = page_image(get_pdf(client, night, "tally_sheets"), dpi=DPI)
    request.getfixturevalue("no_picture")
    assert tally_doc(night).header_png is None
    table_pdf = get_pdf(client, night, "tally_sheets")
    table = page_image(table_pdf, dpi=DPI)
    # The table's headings are text; the picture's are not, but they are the same words.
    letters = "".join(pages_text(table_pdf)[0].split())
    assert "".join("".join(label.split()) for label in doc.header_labels) in letters

    top = header_top(table)
    assert header_top(picture) == top
    # Below the header, the sheets are the same to the pixel: the row is as high.
    bottom = top + round(heading.HEIGHT_PT * DPI / 72)
    below = (0, bottom + 2, table.width, table.height)
    assert picture.crop(below).tobytes() == table.crop(below).tobytes()
    # In the row, the borders and each heading are where the table put them, within a
    # pixel or two at 300 dpi (a third of a point: the two smooth edges differently).
    edges = heading.header_edges(doc.grid)
    middle = top + round((FRAME_PT + 2) * DPI / 72)
    for x in edges:
        window = range(px(x) - 6, px(x) + 7)
        border = [
            [i for i in window if image.getpixel((i, middle)) < 100] for image in (table, picture)
        ]
        assert border[0] and border[1], x
        centres = [(b[0] + b[-1]) / 2 for b in border]
        assert abs(centres[0] - centres[1]) <= 1.5 and len(border[1]) >= 3, x
    row = (top + 5, bottom - round(heading.UNDER_PT * DPI / 72) - 2)
    for label, left, right in zip(doc.header_labels, edges, edges[1:], strict=False):
        box = (px(left) + 5, row[0], px(right) - 5, row[1])
        expected, drawn = ink_box(table, box), ink_box(picture, box)
        assert expected is not None and drawn is not None, label
        assert all(abs(a - b) <= 2 for a, b in zip(expected, drawn, strict=True)), label


def test_a_heading_the_font_lacks_or_that_would_wrap_prints_as_a_table(client, host):
    grid = tally_grid("compact", card_game=False, marks=1)
    labels = ["Set", "Round", "Mark", "Table", "W / L", "Buncos", "Mini buncos", "Wipeouts"]
    assert heading.header_png(grid, labels, padding=2) is not None
    assert heading.header_png(grid, [*labels[:-1], "王冠"], padding=2) is None
    assert heading.header_png(grid, [*labels[:-1], "Wipeouts and more"], padding=2) is None
    assert heading.header_png(grid, labels[:-1], padding=2) is None  # a column short
    # On the sheet: the table, with the heading in full.
    group = make_group(user=host, rules="house", regulars=8, substitutes=0)
    rules_update(group=group, changes={"group_marks": (GroupMark("crown", "王冠"),)})
    night = make_night(group, sets=1)
    assert tally_doc(night).header_png is None
    first = pages_text(get_pdf(client, night, "tally_sheets"))[0]
    assert "王冠" in first and "Mini buncos" in first


def test_the_header_s_columns_meet_the_grid_s_rules():
    grid = tally_grid("compact", card_game=False, marks=0)
    edges = heading.header_edges(grid)
    assert len(edges) == grid.columns + 1
    assert edges[0] == pytest.approx(FRAME_PT / 2)
    assert edges[-1] == pytest.approx(grid.width - FRAME_PT / 2)
    # The narrow columns' borders are where the grid's rules below them are (a table's
    # collapsed borders are half a point further left than the drawing's centres).
    rules = [FRAME_PT + r.at * grid.digit for r in grid.rules]
    for edge in edges[1:5]:
        assert min(abs(edge + FRAME_PT / 2 - x) for x in rules) < 0.01
