"""Every CSV the site writes opens in Excel with its accents (a UTF-8 byte-order mark, as
Excel needs), and the roster import reads a file with or without the mark, uploaded or
pasted. Importing a roster that changes nothing says so, not "fix the rows above"."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from bunco_night.core.csvfile import BOM
from bunco_night.groups.services import player_update
from tests.factories import make_night
from tests.play.helpers import play_round, start_night
from tests.printing.helpers import words

pytestmark = pytest.mark.django_db

UTF8_BOM = b"\xef\xbb\xbf"
NAME = "Zoë Müller"


@pytest.fixture
def zoe(group):
    player = group.players.get(name="Regular 1")
    player_update(player=player, name=NAME)
    return player


def test_every_csv_download_starts_with_the_byte_order_mark(client, group, zoe):
    night = make_night(group, sets=1)
    start_night(night)
    play_round(night)
    downloads = {
        "roster": client.get(reverse("groups:roster_export", args=[group.slug])).content,
        "results": client.get(reverse("ops:night_results", args=[night.pk])).content,
    }
    archive = client.get(reverse("ops:group_export", args=[group.slug])).content
    with zipfile.ZipFile(io.BytesIO(archive)) as files:
        downloads |= {name: files.read(name) for name in files.namelist()}
    for name, data in downloads.items():
        assert data.startswith(UTF8_BOM) and not data.startswith(UTF8_BOM * 2), name
    for name in ("roster", "results"):
        assert NAME in downloads[name].decode("utf-8-sig"), name


def preview(client, group, **data) -> str:
    response = client.post(reverse("groups:roster_import", args=[group.slug]), data)
    assert response.status_code == 200
    return words(response.content.decode())


@pytest.mark.parametrize("how", ["file with the mark", "file without", "pasted with the mark"])
def test_the_export_reads_back_unchanged_however_it_comes(client, group, zoe, how):
    exported = client.get(reverse("groups:roster_export", args=[group.slug])).content
    text = exported.decode("utf-8-sig")
    if how == "file with the mark":
        page = preview(client, group, file=SimpleUploadedFile("r.csv", exported))
    elif how == "file without":
        page = preview(client, group, file=SimpleUploadedFile("r.csv", text.encode()))
    else:
        page = preview(client, group, text=BOM + text)
    assert "0 to add or update" in page
    assert "Add" not in page.split("What the import will do", 1)[1].split("Another file")[0]
    assert "Nothing to import: everyone in the file is on the roster as it is." in page
    assert "fix the rows above" not in page


def test_a_file_with_a_bad_row_still_asks_to_fix_it(client, group):
    page = preview(client, group, text="Name,Phone\nRegular 1,555-0101\n,555-0000\n")
    assert "Nothing to import: fix the rows above in your spreadsheet and try again." in page
