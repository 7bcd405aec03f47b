"""A long document is printed in pieces, in worker processes, and the pieces joined.

Each test prints a document whole and in pieces (the pieces made small, so that a
dozen players make several) and reads both back as a person and a phone would.
"""

import dataclasses
import io
import os
import re
from pathlib import Path

import pytest
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader

from bunco_night.nights.services import seating_draw
from bunco_night.printing import engine, parallel, pdf, printouts
from bunco_night.printing.documents import master, parts
from tests.factories import make_night

from .helpers import get_pdf
from .pdftools import page_count, pages_text, qr_codes

pytestmark = pytest.mark.django_db


@pytest.fixture
def pieces_joined(monkeypatch):
    """How many pieces each joined document had."""
    counts = []
    joined = engine.Joiner.pdf

    def counting(joiner):
        counts.append(joiner.count)
        return joined(joiner)

    monkeypatch.setattr(engine.Joiner, "pdf", counting)
    return counts


def outline(pdf_bytes: bytes) -> list[tuple[str, int]]:
    """The bookmarks: (title, page number from 1)."""
    reader = PdfReader(io.BytesIO(pdf_bytes))
    return [
        (item.title, reader.get_destination_page_number(item) + 1)
        for item in reader.outline
        if not isinstance(item, list)
    ]


def footers(pdf_bytes: bytes) -> list[str]:
    return [re.search(r"Page \d+ of \d+", page)[0] for page in pages_text(pdf_bytes)]


def test_tally_sheets_printed_in_pieces_are_the_sheets_printed_whole(
    client, played, monkeypatch, pieces_joined
):
    whole = get_pdf(client, played, "tally_sheets", blank="3")
    monkeypatch.setattr(parts, "PIECE_PAGES", 4)
    pieced = get_pdf(client, played, "tally_sheets", blank="3")
    assert pieces_joined == [1, 4]  # 12 players and 3 blank sheets: 4, 4, 4 and 3
    assert page_count(pieced) == page_count(whole) == 15
    # The same text on each page, in the same order: the sheets by name, the blank ones last.
    assert pages_text(pieced) == pages_text(whole)
    # Every player's code still scans, on the right page.
    assert qr_codes(pieced) == qr_codes(whole)
    # One bookmark per player, pointing at their sheet.
    assert outline(pieced) == outline(whole)
    assert [page for _, page in outline(pieced)] == list(range(1, 13))


def test_table_cards_in_pieces_keep_each_tables_code_on_its_card(
    client, played, monkeypatch, pieces_joined
):
    monkeypatch.setattr(parts, "PIECE_PAGES", 2)
    pdf_bytes = get_pdf(client, played, "table_cards")
    assert pieces_joined == [2]
    tables = list(played.tables.filter(active=True).order_by("number"))
    assert qr_codes(pdf_bytes) == [[f"http://testserver/t/{t.token}/"] for t in tables]


def test_score_pads_in_pieces_number_their_pages_through_the_whole_document(
    client, group, monkeypatch, pieces_joined
):
    night = make_night(group, sets=3)
    seating_draw(night=night, seed=3)
    whole = get_pdf(client, night, "score_pads")
    monkeypatch.setattr(parts, "PIECE_PAGES", 2)
    pieced = get_pdf(client, night, "score_pads")
    assert pieces_joined == [1, 5]  # 3 tables x 3 sets: 2, 2, 2, 2 and 1 pads
    assert footers(pieced) == footers(whole) == [f"Page {i} of 9" for i in range(1, 10)]
    assert pages_text(pieced) == pages_text(whole)


def test_a_piece_longer_than_foreseen_gets_its_numbers_printed_afterwards(client, group):
    night = make_night(group, sets=3)
    seating_draw(night=night, seed=3)
    printout = printouts.printout(
        "score_pads", night, base_url="http://testserver/", options=printouts.Options()
    )
    (whole,) = printout.pieces.contexts
    single = [lambda pad=pad: {**whole(), "pads": [pad]} for pad in whole()["pads"]]
    # Told each pad is two pages long: wrong, so the pieces' own numbers cannot be kept.
    wrong = dataclasses.replace(printout.pieces, contexts=single, pages=[2] * len(single))
    printed = pdf.print_pieces(wrong, base_url="http://testserver/")
    assert footers(printed) == [f"Page {i} of 9" for i in range(1, 10)]


def test_the_master_sheet_in_pieces_goes_on_under_its_headers_with_its_pages_numbered(
    client, played, monkeypatch, pieces_joined
):
    whole = get_pdf(client, played, "master_sheet")
    monkeypatch.setattr(master, "MASTER_PIECE_ROWS", 5)
    pieced = get_pdf(client, played, "master_sheet")
    assert pieces_joined == [1, 3]  # 12 players: 5, 5 and 2 rows
    pages = pages_text(pieced)
    assert footers(pieced) == ["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"]
    # The title once, the column headers on every page, every player's row in order.
    assert [p.lstrip().startswith("Master score sheet") for p in pages] == [True, False, False]
    assert all("Player" in p and "Night totals" in p for p in pages)

    def rows(texts):
        return [line.split()[:3] for t in texts for line in t.splitlines() if "Regular" in line]

    assert rows(pages) == rows(pages_text(whole))
    assert outline(pieced) == outline(whole) == [("Master score sheet", 1)]


def test_small_documents_are_printed_in_one_piece_in_this_process(
    client, played, monkeypatch, pieces_joined
):
    def no_pool(*args, **kwargs):
        raise AssertionError("a dozen players need no worker processes")

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", no_pool)
    for name in ["table_cards", "tally_sheets", "score_pads", "master_sheet", "prizes", "roster"]:
        get_pdf(client, played, name)
    assert pieces_joined == [1] * 6


@pytest.mark.parametrize(
    ("items", "size", "least", "workers", "runs"),
    [
        (12, 25, 4, 2, [12]),  # a dozen: one piece, in this process
        (30, 25, 4, 2, [15, 15]),  # not 25 and 5: both workers finish together
        (60, 25, 4, 2, [15, 15, 15, 15]),  # three pieces would leave a worker one behind
        (500, 25, 4, 2, [25] * 20),
        (26, 25, 4, 8, [5, 5, 4, 4, 4, 4]),  # as many as keep 4 a piece, not 8 of 3 or 4
        (31, 25, 4, 6, [6, 5, 5, 5, 5, 5]),  # never a piece of one sheet
        (52, 25, 4, 1, [18, 17, 17]),  # one worker: no more pieces than needed
        (9, 2, 1, 2, [2, 2, 2, 1, 1, 1]),  # at most the size, and even for the workers
        (85, 40, 40, 2, [40, 40, 5]),  # the master sheet's: runs of the size exactly
    ],
)
def test_a_long_document_is_cut_into_even_pieces_one_or_more_for_each_worker(
    settings, items, size, least, workers, runs
):
    settings.PRINT_WORKERS = workers
    chunks = parts.cut(list(range(items)), size, least)
    assert [len(c) for c in chunks] == runs
    assert [i for c in chunks for i in c] == list(range(items))


@given(
    items=st.integers(min_value=0, max_value=600),
    workers=st.integers(min_value=1, max_value=16),
)
def test_pieces_are_even_never_too_long_and_never_below_the_least_when_cut(items, workers):
    with override_settings(PRINT_WORKERS=workers):
        chunks = parts.cut(list(range(items)), 25)
    sizes = [len(c) for c in chunks]
    assert sum(sizes) == items and max(sizes) <= 25
    assert max(sizes) - min(sizes) <= 1
    if len(chunks) > 1:
        assert min(sizes) >= parts.MIN_PIECE_PAGES or len(chunks) == -(-items // 25)


def forkservers() -> list[int]:
    """This process's children that are multiprocessing's fork server."""
    me = os.getpid()
    children = Path(f"/proc/{me}/task/{me}/children").read_text().split()
    return [
        int(pid) for pid in children if b"forkserver" in Path(f"/proc/{pid}/cmdline").read_bytes()
    ]


@pytest.mark.skipif(
    not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(),
    reason="reads a process's children from Linux's /proc",
)
def test_the_print_page_of_a_big_night_readies_the_print_workers_once(
    client, group, settings, monkeypatch
):
    settings.PRINT_WORKERS = 2
    warmed = []
    monkeypatch.setattr(parallel, "warm", lambda: warmed.append(True))
    small = make_night(group, sets=1)  # a dozen players: every document is one piece
    assert client.get(f"/nights/{small.pk}/print/").status_code == 200
    assert warmed == []
    monkeypatch.setattr(parts, "PIECE_PAGES", 10)  # tally sheets in two pieces
    assert client.get(f"/nights/{small.pk}/print/").status_code == 200
    assert warmed == [True]
    monkeypatch.undo()
    settings.PRINT_WORKERS = 2
    # The fork server runs after it, and a second call starts no other.
    parallel.warm()
    running = forkservers()
    parallel.warm()
    assert len(running) == 1 and forkservers() == running


def test_pieces_are_joined_in_order_whatever_order_they_come_back_in(
    client, played, monkeypatch, settings
):
    whole = get_pdf(client, played, "tally_sheets")
    settings.PRINT_WORKERS = 1
    monkeypatch.setattr(parts, "PIECE_PAGES", 4)
    printout = printouts.printout(
        "tally_sheets", played, base_url="http://testserver/", options=printouts.Options()
    )
    assert len(printout.pieces.contexts) == 3
    # The workers' pieces, coming back last first.
    real = parallel.render_pieces

    def backwards(pieces, count, *, progress=None, arrived=None):
        done = real(pieces, count)
        for i in reversed(range(count)):
            arrived(i, done[i])
        return done

    monkeypatch.setattr(parallel, "render_pieces", backwards)
    pieced = pdf.print_pieces(printout.pieces, base_url="http://testserver/")
    assert pages_text(pieced) == pages_text(whole)
    assert outline(pieced) == outline(whole)


def test_one_piece_is_the_whole_document_as_it_is():
    joiner = engine.Joiner()
    with pytest.raises(ValueError):
        joiner.pdf()
    joiner.add(b"%PDF-1.7 one piece")
    assert joiner.pdf() == b"%PDF-1.7 one piece"
