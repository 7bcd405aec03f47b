"""The room screen's pages: as many tables a page as hold their names at a size read across
the room, in the grid the largest page needs."""

import re

import pytest
from django.urls import reverse

from bunco_night.nights.selectors import seated_tables
from bunco_night.nights.services import seating_draw
from bunco_night.play.room import (
    ROOM_SMALLEST_NAME,
    RoomGrid,
    room_grid,
    room_pages,
    room_screen,
    wrapped_lines,
)
from bunco_night.play.services import bell_ring, round_start
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import start_night


@pytest.mark.parametrize(
    ("text", "chars", "lines"),
    [
        ("Bo Li", 14, 1),
        ("Sally Rivers-Lee", 14, 2),  # "Sally Rivers-" / "Lee"
        ("Christopher Fitzgerald-Worthington", 14, 3),
        ("Christopher Fitzgerald-Worthington", 30, 2),
        ("Wolfeschlegelsteinhausenberger", 14, 3),  # one word longer than a line
    ],
)
def test_a_name_takes_the_lines_its_words_need(text, chars, lines):
    assert wrapped_lines(text, chars) == lines


@pytest.mark.parametrize(
    ("most", "grid"),
    [(1, (1, 1)), (2, (2, 1)), (3, (2, 2)), (5, (3, 2)), (7, (3, 3)), (12, (4, 3))],
)
def test_a_page_of_tables_fills_a_grid_that_holds_them(most, grid):
    assert (room_grid(most).columns, room_grid(most).rows) == grid
    assert room_grid(most).css_class == f"room-grid-{grid[0]}x{grid[1]}"


def test_names_are_never_made_smaller_than_a_size_read_across_the_room():
    for most in (1, 2, 4, 6, 9, 12):
        grid = room_grid(most)
        assert ROOM_SMALLEST_NAME <= float(grid.fit) * grid.size < ROOM_SMALLEST_NAME + 0.05
    assert RoomGrid(4, 3, 1.0).fit == "1.00"  # never larger than the grid's own size


def seated_night(names):
    group = make_group(regulars=len(names), substitutes=0)
    for player, name in zip(group.players.order_by("pk"), names, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    night = make_night(group, sets=1)
    seating_draw(night=night, seed=2)
    return night


@pytest.mark.django_db
def test_short_names_come_twelve_tables_a_page():
    night = seated_night([f"Player {n}" for n in range(1, 53)])  # 13 tables
    screen = room_screen(night)
    assert [len(p) for p in screen.seating] == [7, 6]
    assert (screen.grid.columns, screen.grid.rows) == (3, 3)


@pytest.mark.django_db
def test_long_names_come_in_pages_of_fewer_tables():
    names = [f"Evangeline {n:02} Montgomery-Smythe" for n in range(1, 49)]  # 12 tables
    night = seated_night(names)
    pages, grid = room_pages(seated_tables(night.rounds.get()))
    assert [len(p) for p in pages] == [6, 6]
    assert (grid.columns, grid.rows) == (3, 2)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("tables", "free", "where"),
    [
        (1, 0, "side"),
        (3, 1, "grid"),
        (4, 0, "strip"),
        (5, 1, "grid"),
        (7, 2, "side"),
        (13, 0, "side"),
    ],  # fmt: skip
)
def test_the_prizes_fill_the_cells_one_page_of_tables_leaves_empty(tables, free, where):
    """3 tables in a grid of 2 by 2, 5 in one of 3 by 2: the prizes take the empty cell and
    the side column keeps its height for the standings. 4 tables fill their 2 by 2: the
    prizes go in a strip under them, the side column's height left to the standings. A
    cell of a grid of 3 rows (7 tables) is too low for them, and 13 tables come in pages
    that turn (7 and 6): the prizes stay in the side column, as beside one table."""
    screen = room_screen(seated_night([f"Player {n}" for n in range(1, 4 * tables + 1)]))
    assert screen.board.standings.prizes
    assert screen.free_cells == free
    placed = {"grid": screen.grid_prizes, "side": screen.side_prizes, "strip": screen.strip_prizes}
    assert [w for w, on in placed.items() if on] == [where]
    assert screen.roomy == (tables <= 4)


@pytest.mark.django_db
@pytest.mark.parametrize(("tables", "where"), [(4, "strip"), (3, "grid"), (5, "grid"), (7, "side")])
def test_the_bell_over_four_tables_holds_the_prizes_strip_back(tables, where):
    """4 tables fill their 2 by 2, the prizes in a strip under them. While the bell rings
    its banner takes that height: the strip waits for the round to close (the prizes are
    the same until then), and the side column stays the standings'. Elsewhere the prizes
    stay where they were."""
    night = seated_night([f"Player {n}" for n in range(1, 4 * tables + 1)])
    round_start(night=night)
    screen = room_screen(night)
    placed = {"grid": screen.grid_prizes, "side": screen.side_prizes, "strip": screen.strip_prizes}
    assert [w for w, on in placed.items() if on] == [where]
    bell_ring(night=night)
    screen = room_screen(night)
    assert screen.board.bell
    placed = {"grid": screen.grid_prizes, "side": screen.side_prizes, "strip": screen.strip_prizes}
    assert [w for w, on in placed.items() if on] == ([] if where == "strip" else [where])
    assert screen.bell_hides_prizes == (where == "strip")


def card_tops(client, night) -> dict[int, str]:
    """What each table card of the room screen says beside its number."""
    html = client.get(reverse("play:room", args=[night.pk])).content.decode()
    return {
        int(number): re.sub(r"<[^>]+>", "", meta)
        for number, meta in re.findall(
            r'<article id="room-table-(\d+)"(?:(?!</article>).)*?<p class="room-meta">(.*?)</p>',
            html,
            re.S,
        )
    }


@pytest.mark.django_db
def test_every_table_card_says_its_target_as_the_table_phone_does(client):
    """docs/rules.md section 3.3: 21 for a table of four (teams), 11 for a table of two or
    three (everyone for themselves). The card party has no targets (section 9.1)."""
    user = make_user()
    client.force_login(user)
    night = make_night(make_group(user=user, regulars=13, substitutes=0), sets=1)
    start_night(night)
    assert card_tops(client, night) == {
        1: "to 21",
        2: "to 21",
        3: "Everyone for themselves · to 11",
        4: "Everyone for themselves · to 11",
    }
    cards = make_night(
        make_group(user=user, name="Card Club", rules="card_1904", regulars=13, substitutes=0),
        sets=1,
    )
    start_night(cards)
    assert set(card_tops(client, cards).values()) == {"Everyone for themselves"}
