"""A table whose winner the host set (docs/rules.md section 6.2: the host overrules the
scores) is done: its phone's poll sees a new version and says the host set the winner,
and asks no more to finish the turn or to tap Done."""

import re

import pytest
from django.urls import reverse

from bunco_night.play.models import TablePlay
from tests.factories import make_night
from tests.play.helpers import ring_the_bell, start_night, tap

pytestmark = pytest.mark.django_db


def words(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_phone_of_a_table_the_host_gave_its_winner_says_so(client, group):
    night = make_night(group, sets=1)
    start_night(night)
    table = night.tables.get(number=2)
    tap(table, 1, "miss")  # seats 2 to 4 have not rolled yet
    ring_the_bell(night)
    night.refresh_from_db()
    url = reverse("play:table_state", args=[table.token])
    before = words(client.get(url))
    assert "BELL! Still to roll once" in before
    table.refresh_from_db()
    version = f"{night.version}.{table.version}"

    fix = reverse("play:table_fix", args=[night.pk, 2]) + "?round=1"
    response = client.post(fix, {"action": "winner", "side": "1", "round": "1"})
    assert response.status_code == 302
    assert TablePlay.objects.get(table=table, round__number=1).winner_side == 1

    # The phone polling at the version it showed gets the new board.
    answer = client.get(url, {"v": version}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    after = words(answer)
    assert "The host set the winner" in after
    assert "Finish the turn" not in after and "Still to roll once" not in after
    assert 'name="done"' not in answer.content.decode()
    assert 'data-news="winner-set"' in answer.content.decode()
    # Nor does the table offer taps any more.
    assert 'id="taps"' not in answer.content.decode()


def test_clearing_the_host_winner_gives_the_table_its_turn_back(client, group):
    night = make_night(group, sets=1)
    start_night(night)
    table = night.tables.get(number=2)
    tap(table, 1, "miss")
    ring_the_bell(night)
    fix = reverse("play:table_fix", args=[night.pk, 2]) + "?round=1"
    client.post(fix, {"action": "winner", "side": "1", "round": "1"})
    client.post(fix, {"action": "winner", "side": "", "round": "1"})
    after = words(client.get(reverse("play:table_state", args=[table.token])))
    assert "BELL! Still to roll once" in after and "The host set the winner" not in after
