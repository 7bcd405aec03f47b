"""Who may print, the print page, and how a PDF is made from a template."""

import pytest
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.printing.documents import check_blank_count
from bunco_night.printing.pdf import StaticFetcher, render_pdf
from tests.factories import make_group, make_night, make_user

from .helpers import url
from .pdftools import page_size

pytestmark = pytest.mark.django_db

DOCUMENTS = [
    "table_cards",
    "tally_sheets",
    "score_pads",
    "master_sheet",
    "prizes",
    "rules_card",
    "roster",
]


@pytest.mark.parametrize("name", ["index", *DOCUMENTS])
def test_a_visitor_who_is_not_logged_in_is_sent_to_log_in(client, name):
    night = make_night(make_group())
    response = client.get(url(name, night))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", ["index", *DOCUMENTS])
def test_a_host_of_another_group_gets_a_404(client, name):
    night = make_night(make_group())
    other = make_user("other-host")
    make_group(user=other, name="Other group")
    client.force_login(other)
    assert client.get(url(name, night)).status_code == 404


def test_the_pdfs_are_not_cached_because_they_carry_secret_links(client, night):
    response = client.get(url("tally_sheets", night))
    assert "no-store" in response["Cache-Control"]
    assert "private" in response["Cache-Control"]


def test_the_file_name_says_group_date_and_document(client, night):
    response = client.get(url("tally_sheets", night))
    assert response["Content-Disposition"] == (
        'inline; filename="maple-street-bunco-2026-12-05-tally-sheets.pdf"'
    )


@pytest.mark.parametrize("value", ["x", "-1", "9999", "1.5"])
def test_a_bad_blank_sheet_count_is_refused(client, night, value):
    response = client.get(url("tally_sheets", night), {"blank": value})
    assert response.status_code == 400


def test_blank_counts_are_whole_numbers_within_the_limit():
    assert check_blank_count(None, limit=10) == 0
    assert check_blank_count("", limit=10) == 0
    assert check_blank_count("7", limit=10) == 7
    with pytest.raises(ServiceError) as error:
        check_blank_count("11", limit=10)
    assert error.value.code == "bad_blank"


def test_the_print_page_links_every_document(client, night):
    response = client.get(url("index", night))
    assert response.status_code == 200
    page = response.content.decode()
    for name in DOCUMENTS:
        assert url(name, night) in page
    assert f"{url('table_cards', night)}?fold=tent" in page
    assert f"{url('score_pads', night)}?blank=1" in page
    assert 'name="blank"' in page  # blank tally sheets, as many as the host asks


def test_the_print_links_partial_needs_only_the_night(night):
    from django.template.loader import render_to_string

    html = render_to_string("printing/_print_links.html", {"night": night})
    assert html.count("<a ") == 9
    for name in DOCUMENTS:
        assert url(name, night) in html


def test_render_pdf_makes_a_pdf_on_the_paper_asked_for():
    context = {"title": "Test", "paper": "A4", "group": {"name": "G"}, "night": {}}
    pdf = render_pdf("printing/base.html", context)
    assert pdf.startswith(b"%PDF-")
    assert "A4" in page_size(pdf)


def test_weasyprint_reads_static_files_from_disk_and_nothing_from_the_network():
    fetcher = StaticFetcher()
    css = fetcher.fetch("http://testserver/static/css/print.css")
    assert css.content_type == "text/css"
    assert b"@page" in css.read()
    for refused in [
        "http://example.com/images/logo.png",
        "file:///etc/passwd",
        "http://testserver/static/../settings.py",
        "http://testserver/static/css/missing.css",
    ]:
        with pytest.raises(ValueError):
            fetcher.fetch(refused)
