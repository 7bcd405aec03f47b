"""A group's data as CSV files in a zip, and a night's results as CSV."""

import csv
import io
import zipfile

import pytest
from django.urls import reverse

from bunco_night.core.csvfile import cell
from bunco_night.groups.services import player_add
from bunco_night.nights.services import payment_record
from bunco_night.play.models import Entry
from tests.factories import make_night, make_user
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db

FILES = [
    "roster.csv",
    "nights.csv",
    "attendance.csv",
    "payments.csv",
    "rounds.csv",
    "seats.csv",
    "entries.csv",
]


def read_csv(data: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


@pytest.fixture
def played(group):
    night = make_night(group, sets=1)
    for a in night.attendances.all()[:3]:
        payment_record(attendance=a, amount_cents=500)
    start_night(night)
    play_round(night)
    return night


def test_a_group_downloads_every_table_of_its_data(client, group, played):
    response = client.get(reverse("ops:group_export", args=[group.slug]))
    assert response["Content-Type"] == "application/zip"
    assert "attachment" in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = {name.split("/", 1)[1]: name for name in archive.namelist()}
    assert sorted(names) == sorted(FILES)
    rows = {f: read_csv(archive.read(names[f])) for f in FILES}
    assert len(rows["roster.csv"]) == 14
    assert {r["name"] for r in rows["roster.csv"]} >= {"Regular 1", "Sub 2"}
    assert rows["nights.csv"][0]["date"] == played.date.isoformat()
    assert len(rows["attendance.csv"]) == 12
    assert [r["amount"] for r in rows["payments.csv"]] == ["5.00"] * 3
    assert [r["status"] for r in rows["rounds.csv"]][:2] == ["closed", "pending"]
    assert len(rows["entries.csv"]) == Entry.objects.count() > 0
    assert {r["won"] for r in rows["seats.csv"] if r["round"] == "1"} == {"yes", "no"}


def test_a_nights_results_are_one_csv_best_first(client, group, played):
    response = client.get(reverse("ops:night_results", args=[played.pk]))
    assert response["Content-Type"].startswith("text/csv")
    rows = read_csv(response.content)
    assert len(rows) == 12
    assert [int(r["rank"]) for r in rows] == sorted(int(r["rank"]) for r in rows)
    assert sum(int(r["wins"]) for r in rows) == 6  # 3 tables, 2 winners each
    assert any("Most wins" in r["prizes"] for r in rows)


def test_downloads_are_404_for_anyone_but_the_groups_hosts(client, group, played):
    client.force_login(make_user("stranger"))
    assert client.get(reverse("ops:group_export", args=[group.slug])).status_code == 404
    assert client.get(reverse("ops:night_results", args=[played.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("ops:group_export", args=[group.slug])).status_code == 302


def test_a_name_a_spreadsheet_would_run_is_written_as_text(client, group):
    player_add(group=group, name='=HYPERLINK("http://x")', phone="+1 555 0100")
    archive = zipfile.ZipFile(
        io.BytesIO(client.get(reverse("ops:group_export", args=[group.slug])).content)
    )
    roster = read_csv(archive.read(next(n for n in archive.namelist() if "roster" in n)))
    row = next(r for r in roster if "HYPERLINK" in r["name"])
    assert row["name"].startswith("'=") and row["phone"] == "'+1 555 0100"


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (None, ""),
        (True, "yes"),
        (False, "no"),
        (-5, -5),
        ("-5", "'-5"),
        ("@x", "'@x"),
        ("Ann", "Ann"),
    ],
)
def test_cells(value, written):
    assert cell(value) == written
