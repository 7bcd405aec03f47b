"""Every printed document is a real PDF, read back as a person (and a phone) would.

Each test fetches a document as the host, then reads the PDF with poppler (pages and
text) and zbar (QR codes scanned from a 150 dpi image of each page).
"""

import datetime as dt
import re

import pytest

from bunco_night.groups.models import Group
from bunco_night.groups.services import player_add, season_create
from bunco_night.nights.models import Attendance, Round, Seat
from bunco_night.nights.services import (
    attendance_set,
    guest_add,
    night_create,
    payment_record,
    seating_draw,
)
from bunco_night.play.services import round_start
from bunco_night.play.standings import night_standings
from bunco_night.printing import documents, printouts
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap

from .conftest import play_rounds
from .helpers import get_pdf, playing, prize_rows
from .pdftools import page_count, page_size, pages_text, qr_codes, text, word_boxes

pytestmark = pytest.mark.django_db

LONG_NAME = "Maria-Guadalupe Fernández de la Cruz-Villanueva"
CJK_NAMES = ["王秀英", "佐藤花子"]


def squeeze(page: str) -> str:
    return re.sub(r"\s+", "", page)


# 1. Table cards -------------------------------------------------------------------------


def test_table_cards_one_per_table_with_the_number_and_a_qr_code_that_opens_the_table(
    client, played
):
    pdf = get_pdf(client, played, "table_cards")
    tables = list(played.tables.filter(active=True).order_by("number"))
    assert page_count(pdf) == len(tables) == 3
    pages = pages_text(pdf)
    assert "HEAD TABLE" in pages[0]
    assert not any("HEAD TABLE" in page for page in pages[1:])
    for table, page, codes in zip(tables, pages, qr_codes(pdf), strict=True):
        link = f"http://testserver/t/{table.token}/"
        assert codes == [link]
        assert re.search(rf"^\s*{table.number}\s*$", page, re.M), "the number, on its own"
        assert link in squeeze(page), "the link is written under the code"
    # A phone scanning table 2's card lands on table 2's page.
    response = client.get(f"http://testserver/t/{tables[1].token}/")
    assert response.status_code == 200
    assert "Table 2" in response.content.decode()


def test_tent_cards_print_each_table_twice_on_one_page_to_fold(client, played):
    pdf = get_pdf(client, played, "table_cards", fold="tent")
    tables = list(played.tables.filter(active=True).order_by("number"))
    assert page_count(pdf) == len(tables)
    for table, codes in zip(tables, qr_codes(pdf), strict=True):
        assert codes == [f"http://testserver/t/{table.token}/"] * 2


def test_table_cards_before_the_seating_is_drawn_say_to_draw_it(client, night):
    pdf = get_pdf(client, night, "table_cards")
    assert page_count(pdf) == 1
    assert "Draw the seating" in text(pdf)


# 2. Tally sheets ------------------------------------------------------------------------


def _closed_results(night) -> dict[int, list[Seat]]:
    seats = Seat.objects.filter(
        round__night=night, round__status=Round.Status.CLOSED, player__isnull=False
    ).select_related("round", "table")
    by_player: dict[int, list[Seat]] = {}
    for s in seats.order_by("round__number"):
        by_player.setdefault(s.player_id, []).append(s)
    return by_player


def test_tally_sheets_one_per_player_filled_for_closed_rounds_with_their_own_qr_code(
    client, played
):
    pdf = get_pdf(client, played, "tally_sheets", blank="2")
    attendances = playing(played)
    assert len(attendances) == 12
    assert page_count(pdf) == 12 + 2
    pages, codes = pages_text(pdf), qr_codes(pdf)
    results = _closed_results(played)
    for a, page, found in zip(attendances, pages, codes, strict=False):
        name = a.plays.name
        assert page.lstrip().startswith(name)
        assert "Maple Street Bunco" in page
        assert "Saturday, December 5, 2026" in page
        mine = results[a.plays.pk]
        assert len(mine) == 2
        wins = sum(s.won for s in mine)
        assert f"Wins {wins} · Losses {2 - wins}" in re.sub(r"[ ]+", " ", page)
        for s in mine:
            # Table, W or L, then the buncos and mini buncos (a zero is left blank); the
            # round and its mark are in the night's picture (test_pictures.py).
            cells = [s.table.number, "W" if s.won else "L"]
            cells += [n for n in (s.buncos, s.mini_buncos) if n]
            assert re.search(r"\s+".join(map(str, cells)) + r"\s*$", page, re.M), name
        assert found == [f"http://testserver/p/{a.token}/"]
    # The two blank sheets: a line for the name, no QR code, no totals.
    for page, found in zip(pages[12:], codes[12:], strict=True):
        assert "Name" in page and "Wins" not in page
        assert found == []
    # The code on Regular 1's sheet opens Regular 1's own page.
    response = client.get(codes[0][0])
    assert response.status_code == 200
    assert attendances[0].plays.name in response.content.decode()


def test_tally_sheets_of_a_night_not_started_list_every_round_and_mark(client, night, request):
    # house rules: rounds 1-6 roll for 1s-6s, in the night's picture ...
    doc = documents.tally_sheets(night=night, links=printouts.links_at("http://testserver"))
    assert [s.rounds for s in doc.sheets[0].sets] == [tuple((n, n) for n in range(1, 7))]
    assert doc.sets_png is not None
    # ... or, where it cannot be drawn, in the text.
    request.getfixturevalue("no_picture")
    pdf = get_pdf(client, night, "tally_sheets")
    assert page_count(pdf) == 12
    first = pages_text(pdf)[0]
    assert "Wins" not in first
    for number in range(1, 7):
        assert re.search(rf"^\s*(1\s+)?{number}\s+{number}\s*$", first, re.M)


def test_a_substitute_gets_the_sheet_and_the_regular_who_sent_them_does_not(client, night):
    att = night.attendances.get(player__name="Regular 3")
    sub = night.group.players.get(name="Sub 1")
    attendance_set(attendance=att, status=Attendance.Status.SENT_SUB, substitute=sub)
    all_text = text(get_pdf(client, night, "tally_sheets"))
    assert "Sub 1" in all_text
    assert "Regular 3" not in all_text


def test_long_and_cjk_names_print_whole_on_one_page_each_and_nothing_leaves_the_page(
    client, group, night
):
    for name in [LONG_NAME, *CJK_NAMES]:
        guest_add(night=night, player=player_add(group=group, name=name))
    pdf = get_pdf(client, night, "tally_sheets")
    assert page_count(pdf) == 15
    all_text = text(pdf)
    for word in [*LONG_NAME.split(), *CJK_NAMES]:
        assert word in all_text
    assert_inside_the_margins(pdf)


def assert_inside_the_margins(pdf: bytes, *, margin_pt: float = 18) -> None:
    """Every word sits at least a quarter inch (18 pt) inside the paper's edges."""
    boxes = word_boxes(pdf)
    assert boxes
    for box in boxes:
        assert box.x_min >= margin_pt and box.y_min >= margin_pt, box
        assert box.x_max <= box.page_width - margin_pt, box
        assert box.y_max <= box.page_height - margin_pt, box


# 3. Score pads --------------------------------------------------------------------------


def test_score_pads_one_per_table_per_set_us_and_them(client, group):
    night = make_night(group, sets=2)
    seating_draw(night=night, seed=3)
    pdf = get_pdf(client, night, "score_pads")
    assert page_count(pdf) == 3 * 2
    pages = pages_text(pdf)
    for page in pages:
        assert "Us" in page and "Them" in page
        assert "Roll for" in page
        assert "6s" in page
    assert "Table 1" in pages[0] and "Set 1" in pages[0] and "HEAD TABLE" in pages[0]
    assert "Table 1" in pages[1] and "Set 2" in pages[1]
    assert "Table 3" in pages[5] and "Set 2" in pages[5]
    assert "First to 21 rings the bell" in pages[0]
    assert not any("ghost" in page for page in pages)  # the house rules fill no seats


@pytest.mark.parametrize("rounds", [6, 8, 10])
@pytest.mark.parametrize("fill", ["tables", "ghosts"])
def test_each_score_pad_is_one_page_and_reminds_a_table_who_rolls_for_a_ghost(
    client, host, fill, rounds
):
    """A pad is one page, the head table's too (a line more), with a set of 6, 8 or 10
    rounds. Where the group fills seats with ghosts, each pad says who rolls for one
    (section 4.2), and it still fits."""
    marks = [1, 2, 3, 4, 5, 6, 1, 2, 3, 4][:rounds]
    group = make_group(user=host, regulars=10, name="Ten", fill=fill, marks=marks)
    night = make_night(group, sets=2)
    seating_draw(night=night, seed=3)
    tables = night.tables.filter(active=True).count()
    pdf = get_pdf(client, night, "score_pads")
    assert page_count(pdf) == tables * 2
    note = squeeze("A ghost at the table? Its partner rolls for it and gets anything rolled.")
    assert all((note in squeeze(page)) == (fill == "ghosts") for page in pages_text(pdf))
    blank = pages_text(get_pdf(client, night, "score_pads", blank="1"))
    assert len(blank) == 2
    assert all((note in squeeze(page)) == (fill == "ghosts") for page in blank)


def test_score_pads_at_a_table_of_individuals_have_a_column_per_seat(client, host):
    group = make_group(user=host, regulars=11, name="Eleven")  # tables of 4, 4 and 3
    night = make_night(group, sets=1)
    pages = pages_text(get_pdf(client, night, "score_pads"))
    assert len(pages) == 3
    assert "Us" in pages[0]
    assert re.search(r"Seat 1\s+Seat 2\s+Seat 3", pages[2])
    assert "Us" not in pages[2]


def test_blank_score_pads_one_per_set_without_a_table_number(client, group):
    night = make_night(group, sets=3)
    pdf = get_pdf(client, night, "score_pads", blank="1")
    pages = pages_text(pdf)
    assert len(pages) == 3
    assert all("Us" in p and "Them" in p for p in pages)
    assert not re.search(r"Table \d", "".join(pages))


# 4. Master score sheet ------------------------------------------------------------------


def test_master_sheet_shows_every_players_rounds_and_totals(client, played):
    pdf = get_pdf(client, played, "master_sheet")
    assert page_count(pdf) == 1
    assert "landscape" not in page_size(pdf)  # pdfinfo names no orientation...
    width, height = (float(n) for n in re.findall(r"[\d.]+", page_size(pdf))[:2])
    assert width > height  # ...but the page is wider than tall
    page = pages_text(pdf)[0]
    results = _closed_results(played)
    for a in playing(played):
        seats = results[a.plays.pk]
        cells = r"\s+".join(("W" if s.won else "L") + "★" * s.buncos for s in seats)
        wins = sum(s.won for s in seats)
        buncos = sum(s.buncos for s in seats)
        minis = sum(s.mini_buncos for s in seats)
        totals = rf"{wins}\s+{len(seats) - wins}\s+{buncos}\s+{minis}"
        assert re.search(rf"{a.plays.name}\s+{cells}\s+{totals}\s*$", page, re.M), a.plays


def test_master_sheet_before_the_night_starts_has_names_and_empty_boxes(client, night):
    page = pages_text(get_pdf(client, night, "master_sheet"))[0]
    assert "No round played yet" in page
    for a in playing(night):
        assert re.search(rf"^\s*{a.plays.name}\s*$", page, re.M)


# 5. Prizes and standings ----------------------------------------------------------------


@pytest.fixture
def prize_night(night):
    """Everyone paid $5 (a $60 pot); two players each roll a bunco in round 1, a tie."""
    for a in night.attendances.all():
        payment_record(attendance=a, amount_cents=500)
    rnd = start_night(night)
    t2, t3 = (rnd.seats.get(table__number=n, number=1) for n in (2, 3))
    tap(t2.table, 1, "points", 3)
    tap(t3.table, 1, "points", 3)
    play_round(night, winners=[1, 1, 1])
    round_start(night=night)
    play_round(night, winners=[2, 2, 2])
    return night, t2.player, t3.player


def test_prizes_show_winners_ties_and_amounts_from_the_pot(client, prize_night):
    night, first, last = prize_night
    standings = night_standings(night)
    pdf = get_pdf(client, night, "prizes")
    assert page_count(pdf) == 1
    page = re.sub(r"[ ]+", " ", pages_text(pdf)[0])
    facts, prizes = page.split("\nPrizes\n", 1)
    # The headline facts: the pot, two buncos rolled, the last one's roller, when and where;
    # the house prizes give no fuzzy die, so no box says who holds it.
    assert re.search(r"\$60\.00\s+2\b", facts)
    assert facts.count(last.name) == 1
    assert "FUZZY DIE" not in facts
    assert "Table3·Round1" in squeeze(facts)
    # House prizes: 42% / 33% / 17% / 8% of $60, each rounded down to whole dollars
    # ($25, $19, $10, $4), and the $2 left over added to the first prize (docs/rules.md
    # section 7.8), which the sheet says beside it; a tie is shown as a tie, with every name.
    assert prize_rows(night)["Most wins"][1] == "$27.00 42% of the pot: $25.00 + $2.00 left over"
    assert "+ $2.00 left over" in prizes
    assert re.search(
        rf"Most buncos TIE ({first.name}, {last.name}|{last.name}, {first.name})", prizes
    )
    assert re.search(r"\$19\.00", prizes)
    assert re.search(rf"Last bunco of the night {last.name} \$10\.00", prizes)
    assert re.search(r"Fewest wins \$4\.00", prizes)
    said = " ".join(prizes.split())
    assert (
        "rounded down to whole dollars. Most wins includes the $2.00 left over when the pot "
        "is split." in said
    )
    assert sum(p.amount_cents for p in standings.prizes) == 6000
    assert prizes.count("Tied: the host breaks the tie") == 3
    # The full standings, best first.
    for s in standings.standings:
        name = standings.players[s.player].name
        assert re.search(rf"{s.rank}=?\s+{name}\s+{s.wins}\s+{s.losses}\s+{s.buncos}", page)


def test_prizes_before_the_night_starts_list_the_categories(client, night):
    page = pages_text(get_pdf(client, night, "prizes"))[0]
    assert "No round played yet" in page
    assert "Most wins" in page and "Fewest wins" in page
    assert "Nobody yet" in page


# 6. Roster and dues ---------------------------------------------------------------------


def test_roster_shows_who_came_substitutes_absentees_payments_and_the_pot(client, night):
    att = {a.player.name: a for a in night.attendances.select_related("player")}
    attendance_set(
        attendance=att["Regular 3"],
        status=Attendance.Status.SENT_SUB,
        substitute=night.group.players.get(name="Sub 1"),
    )
    attendance_set(attendance=att["Regular 4"], status=Attendance.Status.ABSENT)
    payment_record(attendance=att["Regular 1"], amount_cents=500)
    payment_record(attendance=att["Regular 3"], amount_cents=500)
    pdf = get_pdf(client, night, "roster")
    lines = re.sub(r"[ ]+", " ", "\n".join(pages_text(pdf)))
    all_text = text(pdf)
    assert "Coming 10" in all_text
    assert "Substitutes 1" in all_text
    assert re.search(r"^ ?Sub 1 555-0901 \$5\.00 \$5\.00 paid$", lines, re.M)
    assert "for Regular 3" in all_text
    assert "Absent, no substitute 1" in all_text
    assert re.search(r"^ ?Regular 4 555-0104 \$5\.00 \$5\.00$", lines, re.M), "owes, unpaid"
    assert re.search(r"^ ?Regular 1 555-0101 \$5\.00 \$5\.00 paid$", lines, re.M)
    assert re.search(r"^ ?Regular 2 555-0102 \$5\.00 \$5\.00$", lines, re.M), "owes, unpaid"
    # 12 owe (10 coming, the substitute's seat, the absent regular): $60 expected, $10 paid.
    assert re.search(r"EXPECTED COLLECTED STILL OWED", all_text)
    assert "$60.00 $10.00 $50.00" in all_text
    # 42% of the $10 pot is $4.20: $4 in whole dollars, with the $2 that rounding the four
    # shares left over (docs/rules.md section 7.8).
    assert "Most wins $6.00" in all_text
    assert "The prize pot $10.00" in all_text


def test_roster_asks_a_substitute_for_the_seat_only_and_shows_the_season_s_share(client, group):
    """A regular's debt from earlier nights stays the regular's (docs/rules.md section 8.6):
    their substitute is asked for tonight's seat, and the note says what the regular still
    owes. The prize pot is the collection less the season's share (section 8.7)."""
    season_create(
        group=group,
        name="2027",
        starts=dt.date(2027, 1, 1),
        ends=dt.date(2027, 12, 31),
        pot_percent=10,
    )
    first = night_create(group=group, date=dt.date(2027, 1, 5))
    for a in first.attendances.select_related("player"):
        if a.player.name == "Regular 3":
            attendance_set(attendance=a, status=Attendance.Status.ABSENT)  # owes, unpaid
        else:
            payment_record(attendance=a, amount_cents=500)
    second = night_create(group=group, date=dt.date(2027, 2, 2))
    att = {a.player.name: a for a in second.attendances.select_related("player")}
    attendance_set(
        attendance=att["Regular 3"],
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sub 1"),
    )
    for name, a in att.items():
        if name != "Regular 3":
            payment_record(attendance=a, amount_cents=500)
    lines = re.sub(r"[ ]+", " ", "\n".join(pages_text(get_pdf(client, second, "roster"))))
    # The note sits under the name; the row reads on: phone, dues $5, owes $5 (not $10).
    seat = r"^ ?for Regular 3; Regular 3 still owes \$5\.00 555-0901 \$5\.00 \$5\.00"
    assert re.search(seat + "$", lines, re.M), "the seat, not $10"
    # 11 paid $5: $55 collected, $5.50 to the season, a $49.50 prize pot.
    flat = " ".join(lines.split())
    assert "The prize pot: $55.00 collected, less $5.50 $49.50 to the 2027 pot (10%)" in flat
    # The substitute pays: the seat is paid, and the regular's debt is still said.
    payment_record(attendance=att["Regular 3"], amount_cents=500)
    lines = re.sub(r"[ ]+", " ", "\n".join(pages_text(get_pdf(client, second, "roster"))))
    assert re.search(seat + " paid$", lines, re.M)


def test_a_monthly_nights_roster_and_dues_fits_on_one_page(client, night):
    """The demo's December night: 9 coming, a substitute, 2 absent, and the prizes from
    the pot, on one page (no second page with the last prize and the pot alone)."""
    att = {a.player.name: a for a in night.attendances.select_related("player")}
    attendance_set(
        attendance=att["Regular 4"],
        status=Attendance.Status.SENT_SUB,
        substitute=night.group.players.get(name="Sub 1"),
    )
    attendance_set(attendance=att["Regular 5"], status=Attendance.Status.ABSENT)
    attendance_set(attendance=att["Regular 9"], status=Attendance.Status.ABSENT)
    pdf = get_pdf(client, night, "roster")
    assert page_count(pdf) == 1
    page = " ".join(pages_text(pdf)[0].split())
    assert "Coming 9" in page
    assert "Fewest wins" in page
    assert "The prize pot $0.00" in page


def test_a_long_roster_keeps_the_prizes_from_the_pot_together_on_its_last_page(client, group):
    for i in range(40):
        player_add(group=group, name=f"Guest {i:02d}")
    night = make_night(group, sets=1)
    pdf = get_pdf(client, night, "roster")
    pages = [" ".join(page.split()) for page in pages_text(pdf)]
    assert len(pages) >= 2
    # The heading, every prize and the pot on one page, after the last rows of names.
    assert "Prizes from the pot" in pages[-1]
    assert "Most wins" in pages[-1]
    assert "The prize pot" in pages[-1]


# Every document, on either paper -----------------------------------------------------------

DOCUMENTS = ["table_cards", "tally_sheets", "score_pads", "master_sheet", "prizes", "roster"]


@pytest.mark.parametrize(
    ("paper", "size"), [(Group.PaperSize.LETTER, "letter"), (Group.PaperSize.A4, "A4")]
)
def test_every_document_prints_on_the_groups_paper_with_nothing_off_the_page(
    client, group, paper, size
):
    group.paper_size = paper
    group.save(update_fields=["paper_size"])
    night = make_night(group, sets=1)
    for name in [LONG_NAME, *CJK_NAMES]:
        guest_add(night=night, player=player_add(group=group, name=name))
    play_rounds(night, [[1, 1, 1, 1]])
    for document in DOCUMENTS:
        pdf = get_pdf(client, night, document)
        assert size in page_size(pdf), document
        assert_inside_the_margins(pdf)
        if document not in ("table_cards", "score_pads"):  # the others name the players
            words = re.split(r"[\s-]+", text(pdf))  # a long name may wrap, even at a hyphen
            assert all(w in words for w in re.split(r"[\s-]+", LONG_NAME)), document
