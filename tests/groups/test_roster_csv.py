"""A roster in and out as CSV: the shape people keep in a spreadsheet, a preview with a
clear message per bad row, and an export that reads back in."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Player
from bunco_night.groups.roster_csv import decode, read_roster, roster_csv
from bunco_night.groups.services import player_update, roster_import
from tests.factories import make_group

pytestmark = pytest.mark.django_db

SHEET = """Name,Phone,E-mail,Regular or substitute,Notes
Ann Baker,555-0101,ann@example.com,Regular,Brings the bell
Bea Cruz,555-0102,,sub,
,555-0199,nobody@example.com,regular,
Carol Diaz,555-0103,carol@,regular,
Dana Evans,555-0104,dana@example.com,maybe,
ann baker,555-0105,,regular,
Regular 1,555-9999,,Regular,
Regular 2,555-0102,regular2@example.com,regular,
"""


def rows_by_line(roster):
    return {r.line: r for r in roster.rows}


@pytest.fixture
def group():
    return make_group(regulars=2, substitutes=0)


def test_the_preview_says_what_each_row_would_do_and_why_a_row_cannot(group):
    roster = read_roster(SHEET, group)
    assert roster.problem == ""
    rows = rows_by_line(roster)
    assert (rows[2].action, rows[2].kind, rows[2].notes) == ("add", "regular", "Brings the bell")
    assert (rows[3].action, rows[3].kind) == ("add", "substitute")
    assert rows[4].errors == ["No name: every row needs one."]
    assert rows[5].errors == ["“carol@” is not an e-mail address."]
    assert rows[6].errors == ["Plays as “maybe”: write regular or substitute."]
    assert rows[7].errors == ["ann baker is already on line 2."]
    assert (rows[8].action, rows[8].changes) == ("update", ["phone: 555-0101 → 555-9999"])
    assert rows[9].action == "same"
    assert len(roster.good) == 4 and len(roster.bad) == 4 and len(roster.to_change) == 3


def test_import_adds_and_updates_the_good_rows_and_skips_the_rest(group):
    result = roster_import(group=group, text=SHEET)
    assert sorted(p.name for p in result.added) == ["Ann Baker", "Bea Cruz"]
    assert [p.name for p in result.updated] == ["Regular 1"]
    assert result.skipped == 4
    bea = group.players.get(name="Bea Cruz")
    assert bea.kind == Player.Kind.SUBSTITUTE and bea.phone == "555-0102"
    assert group.players.get(name="Regular 1").phone == "555-9999"
    assert group.players.get(name="Regular 1").email == "regular1@example.com"  # kept


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "The file is empty."),
        ("Phone,E-mail\n555-0101,ann@example.com\n", "No column is called Name"),
        ("\n\n  \n", "The file is empty."),
    ],
)
def test_a_file_that_cannot_be_read_says_why(group, text, problem):
    assert read_roster(text, group).problem.startswith(problem)
    with pytest.raises(ServiceError) as caught:
        roster_import(group=group, text=text)
    assert caught.value.code == "bad_file"


def test_without_a_heading_row_the_columns_are_name_phone_email_kind(group):
    rows = read_roster("Ann Baker;555-0101;ann@example.com;substitute\nWho;When\n", group).rows
    assert [(r.line, r.name, r.phone, r.email, r.kind) for r in rows] == [
        (1, "Ann Baker", "555-0101", "ann@example.com", "substitute"),
        (2, "Who", "When", "", "regular"),
    ]
    assert rows[1].errors == ["“When” does not look like a phone number."]


def test_each_row_is_named_by_the_line_it_is_on_in_the_file(group):
    """A blank line (pasted rows often have one) and a note over two lines still count,
    so "Line" in the preview and "already on line N" point where the host looks."""
    text = (
        "\n"
        "Name,Phone,Notes\n"
        "Ann Baker,555-0101,\n"
        "\n"
        'Bea Cruz,555-0102,"Brings the bell\n'
        'and the dice"\n'
        "Ann Baker,555-0103,\n"
    )
    rows = read_roster(text, group).rows
    assert [(r.line, r.name) for r in rows] == [
        (3, "Ann Baker"),
        (5, "Bea Cruz"),
        (7, "Ann Baker"),
    ]
    assert rows[2].errors == ["Ann Baker is already on line 3."]


def test_a_spreadsheet_saved_by_excel_reads_in_either_encoding():
    assert decode("\ufeffName\nJosé\n".encode()) == "Name\nJosé\n"
    assert decode("Name\nJosé\n".encode("cp1252")) == "Name\nJosé\n"


def test_the_export_reads_back_in_and_never_runs_as_a_formula(group):
    player_update(
        player=group.players.get(name="Regular 2"), notes="=HYPERLINK(1)", phone="+1 555 0102"
    )
    exported = roster_csv(group)
    assert "'=HYPERLINK(1)" in exported and ",+1 555 0102," in exported
    roster = read_roster(exported, group)
    assert [r.action for r in roster.rows] == ["same", "same"]
    assert rows_by_line(roster)[3].notes == "=HYPERLINK(1)"


def test_the_host_previews_then_imports(client, host):
    group = make_group(user=host, regulars=1, substitutes=0)
    url = reverse("groups:roster_import", args=[group.slug])
    upload = SimpleUploadedFile("roster.csv", SHEET.encode("utf-8-sig"), "text/csv")
    page = client.post(url, {"file": upload}).content.decode()
    assert "What the import will do" in page
    assert "Plays as “maybe”: write regular or substitute." in page
    assert "Import 4 rows" in page  # Ann, Bea, Regular 1 (phone), Regular 2 (added)
    assert group.players.count() == 1  # nothing changed yet
    csv_text = page.split('<textarea name="csv" hidden>')[1].split("</textarea>")[0]
    import html

    response = client.post(
        reverse("groups:roster_import_confirm", args=[group.slug]), {"csv": html.unescape(csv_text)}
    )
    assert response.status_code == 302
    assert group.players.count() == 4
    page = client.get(response["Location"]).content.decode()
    assert "Added 3, updated 1. Skipped 4 rows with a problem." in page


def test_a_bad_upload_is_a_message(client, host):
    group = make_group(user=host, regulars=1, substitutes=0)
    url = reverse("groups:roster_import", args=[group.slug])
    page = client.post(url, {}).content.decode()
    assert "Choose a CSV file, or paste the rows." in page
    big = SimpleUploadedFile("big.csv", b"a" * (300 * 1024), "text/csv")
    page = client.post(url, {"file": big}).content.decode()
    assert "a roster file is at most 256 KB" in page
    binary = SimpleUploadedFile("photo.csv", bytes(range(256)) * 10, "text/csv")
    response = client.post(url, {"file": binary})
    assert response.status_code == 200


def test_the_export_is_a_csv_file(client, host):
    group = make_group(user=host, regulars=2, substitutes=1)
    response = client.get(reverse("groups:roster_export", args=[group.slug]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="maple-street-roster.csv"'
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "Name,Phone,E-mail,Plays as,Notes,Usual substitute,Retired"
    assert lines[1].startswith("Regular 1,555-0101,regular1@example.com,Regular")
    assert lines[3].startswith("Sub 1,555-0901,,Substitute")
