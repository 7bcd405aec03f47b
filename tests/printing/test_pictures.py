"""Parts of the tally sheets drawn as pictures (bunco_night/printing/pictures.py): on
paper the same as the text and boxes they stand for, and the text where a picture cannot
be."""

import pytest
from PIL import ImageChops

from bunco_night.groups.services import rules_update
from bunco_night.nights.models import Night, Round, Seat
from bunco_night.printing import documents, pictures, printouts
from bunco_night.printing.grid import FRAME_PT, tally_grid
from bunco_night.rules.presets import GroupMark
from tests.factories import make_group, make_night
from tests.printing.conftest import play_rounds
from tests.printing.helpers import get_pdf, playing
from tests.printing.pdftools import page_image, pages_text

pytestmark = pytest.mark.django_db

DPI = 300
MARGIN_PT = 36  # the tally sheet's page margin (print.css: @page bare)


def px(points: float) -> int:
    return round((MARGIN_PT + points) * DPI / 72)


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


# name: preset, rule changes, sets, paper, rounds played (winners by table) or "finished"
# for a night over with none played (its sheets have no sets, only the totals).
NIGHTS = {
    "house rules, roomy": ("house", {}, 2, "letter", None),
    "a group mark, compact, A4, played": (
        "house",
        {"group_marks": (GroupMark("wipeout", "Wipeouts"),)},
        3,
        "a4",
        [[1, 2], [2, 1]],
    ),
    "dense": ("house", {}, 5, "letter", None),
    "the card party": ("card_1904", {}, 2, "letter", None),
    "over before a round was played": ("house", {}, 2, "letter", "finished"),
}


def same_ink(table, picture, box, what) -> None:
    """The type in ``box`` is where the text put it, within a pixel or two at 300 dpi (a
    third of a point: the two smooth edges differently)."""
    expected, drawn = ink_box(table, box), ink_box(picture, box)
    assert expected is not None and drawn is not None, what
    assert all(abs(a - b) <= 2 for a, b in zip(expected, drawn, strict=True)), what


@pytest.mark.parametrize("name", NIGHTS)
def test_the_pictures_print_what_the_text_printed(client, host, name, request):
    preset, changes, sets, paper, played = NIGHTS[name]
    group = make_group(user=host, rules=preset, regulars=8, substitutes=0)
    if changes:
        rules_update(group=group, changes=changes)
    group.paper_size = paper
    group.save(update_fields=["paper_size"])
    night = make_night(group, sets=sets)
    if played == "finished":
        night.status = Night.Status.FINISHED
        night.save(update_fields=["status"])
    elif played:
        play_rounds(night, played)
    doc = tally_doc(night)
    assert doc.header_png is not None and doc.sets_png is not None
    picture = page_image(get_pdf(client, night, "tally_sheets"), dpi=DPI)
    request.getfixturevalue("no_picture")
    assert tally_doc(night).header_png is None and tally_doc(night).sets_png is None
    table_pdf = get_pdf(client, night, "tally_sheets")
    table = page_image(table_pdf, dpi=DPI)
    # The table's headings are text; the picture's are not, but they are the same words.
    letters = "".join(pages_text(table_pdf)[0].split())
    assert "".join("".join(label.split()) for label in doc.header_labels) in letters

    top = header_top(table)
    assert header_top(picture) == top
    # The header row: the borders and each heading where the table put them.
    scale, grid = DPI / 72, doc.grid
    bottom = top + round(pictures.HEIGHT_PT * scale)
    edges = pictures.header_edges(grid)
    middle = top + round((FRAME_PT + 2) * scale)
    for x in edges:
        window = range(px(x) - 6, px(x) + 7)
        border = [
            [i for i in window if image.getpixel((i, middle)) < 100] for image in (table, picture)
        ]
        assert border[0] and border[1], x
        centres = [(b[0] + b[-1]) / 2 for b in border]
        assert abs(centres[0] - centres[1]) <= 1.5 and len(border[1]) >= 2, x
    row = (top + 5, bottom - round(pictures.UNDER_PT * scale) - 2)
    for label, left, right in zip(doc.header_labels, edges, edges[1:], strict=False):
        same_ink(table, picture, (px(left) + 5, row[0], px(right) - 5, row[1]), label)

    # Below it: each set's number, its rounds' numbers and marks, and "Totals" where the
    # text put them, and nothing else on the page moved by a pixel.
    def y(points: float) -> int:
        return round(top + (pictures.HEIGHT_PT + points) * scale)

    inset, regions, at = pictures.INSET_PT, [], 0.0
    # The columns of the rounds' numbers and marks (none at a card party), from the set's.
    columns = [("round", grid.set, grid.set + grid.round)]
    if grid.has_mark:
        columns.append(("mark", grid.set + grid.round, grid.set + grid.round + grid.mark))
    for grid_set in doc.sheets[0].sets:
        tall = grid.set_height(grid_set.rows)
        box = (px(inset), y(at), px(inset + grid.set_pt), y(at + tall))
        regions.append((f"set {grid_set.number}", box))
        for what, left, right in columns:
            box = (
                px(inset + left * grid.digit),
                y(at),
                px(inset + right * grid.digit),
                y(at + tall),
            )
            regions.append((f"set {grid_set.number}'s {what}s", box))
        at += tall + pictures.SET_GAP_PT
    at = at if regions else pictures.SET_GAP_PT
    totals = (px(inset), y(at), px(inset + grid.wl_left_pt), y(at + pictures.TOTALS_ROW_PT))
    regions.append(("Totals", totals))
    assert len(regions) == (0 if played == "finished" else sets) * (1 + len(columns)) + 1
    for what, (x0, y0, x1, y1) in regions:
        same_ink(table, picture, (x0 + 3, y0 + 3, x1 - 3, y1 - 3), what)
    difference = ImageChops.difference(table, picture).point(lambda v: 255 if v > 40 else 0)
    for _, box in regions:
        difference.paste(0, box)
    assert difference.crop((0, bottom + 2, table.width, table.height)).getbbox() is None


def test_a_heading_the_font_lacks_or_that_would_wrap_prints_as_a_table(client, host):
    grid = tally_grid("compact", card_game=False, marks=1)
    labels = ["Set", "Round", "Mark", "Table", "W / L", "Buncos", "Mini buncos", "Wipeouts"]
    assert pictures.header_png(grid, labels, padding=2) is not None
    assert pictures.header_png(grid, [*labels[:-1], "王冠"], padding=2) is None
    assert pictures.header_png(grid, [*labels[:-1], "Wipeouts and more"], padding=2) is None
    assert pictures.header_png(grid, labels[:-1], padding=2) is None  # a column short
    # On the sheet: the table, with the heading in full.
    group = make_group(user=host, rules="house", regulars=8, substitutes=0)
    rules_update(group=group, changes={"group_marks": (GroupMark("crown", "王冠"),)})
    night = make_night(group, sets=1)
    assert tally_doc(night).header_png is None and tally_doc(night).sets_png is not None
    first = pages_text(get_pdf(client, night, "tally_sheets"))[0]
    assert "王冠" in first and "Mini buncos" in first


def test_the_header_s_columns_meet_the_grid_s_rules():
    grid = tally_grid("compact", card_game=False, marks=0)
    edges = pictures.header_edges(grid)
    assert len(edges) == grid.columns + 1
    assert edges[0] == pytest.approx(FRAME_PT / 2)
    assert edges[-1] == pytest.approx(grid.width - FRAME_PT / 2)
    # The narrow columns' borders are where the grid's rules below them are (a table's
    # collapsed borders are half a point further left than the drawing's centres).
    rules = [FRAME_PT + r.at * grid.digit for r in grid.rules]
    for edge in edges[1:5]:
        assert min(abs(edge + FRAME_PT / 2 - x) for x in rules) < 0.01


def test_each_round_won_is_shaded_behind_its_w_and_no_other_round_is(client, played):
    doc = tally_doc(played)
    grid, scale = doc.grid, DPI / 72
    pdf = get_pdf(client, played, "tally_sheets")
    won = {
        (s.player_id, s.round.number): s.won
        for s in Seat.objects.filter(round__night=played, round__status=Round.Status.CLOSED)
    }
    assert len(won) == 24  # twelve players, two rounds closed
    left = FRAME_PT + grid.wl_left * grid.digit  # the sets are a point in from the frame
    shade_x, letter = (
        px(left + 2),
        (px(left + grid.wl_box_pt / 3), px(left + 2 * grid.wl_box_pt / 3)),
    )
    shaded = 0
    for page, attendance in enumerate(playing(played)[:4], start=1):
        image = page_image(pdf, page, dpi=DPI)
        sets_top = header_top(image) + pictures.HEIGHT_PT * scale
        for i in range(doc.sheets[0].sets[0].rows):
            centre = round(sets_top + (i * grid.pitch + (grid.pitch - 1) / 2) * scale)
            result = won.get((attendance.plays.pk, i + 1))
            row_top = sets_top + i * grid.pitch * scale
            row_bottom = row_top + (grid.pitch - 1) * scale  # the rule under the row
            # Across the whole column and down the whole row, not over the rule under it.
            samples = [
                (shade_x, centre),
                (px(left + grid.wl_box_pt - 2), centre),
                (shade_x, round(row_top + 2)),
                (shade_x, round(row_bottom - 2)),
            ]
            greys = [image.getpixel(at) for at in samples]
            if result:
                assert all(200 < g < 235 for g in greys), (page, i, greys)
                shaded += 1
            else:
                assert all(g > 245 for g in greys), (page, i, greys)
            assert image.getpixel((shade_x, round(row_bottom + scale / 2))) < 100, (page, i)
            # The W or L shows over the shading; an unplayed round has neither.
            box = (
                letter[0],
                centre - round(grid.pitch * scale / 4),
                letter[1],
                centre + round(grid.pitch * scale / 4),
            )
            assert (ink_box(image, box) is not None) == (result is not None), (page, i)
    assert shaded


def test_w_and_l_take_the_rest_of_the_width_at_a_card_party_without_marks():
    grid = tally_grid("roomy", card_game=True, marks=0)
    assert grid.wl is None
    # The last rule down the sets is W / L's left edge; the frame is its right.
    assert FRAME_PT + grid.wl_left * grid.digit == pytest.approx(
        FRAME_PT + grid.rules[-1].at * grid.digit
    )
    assert grid.wl_box_pt == pytest.approx(
        grid.width - 2 * FRAME_PT - grid.wl_left * grid.digit, abs=0.001
    )
