"""The night page's first lines say what the host does next before a night to come: send
the invitations while nobody has been asked, then how the answers stand."""

import datetime as dt
import html
import re

import pytest

from bunco_night.invites.messages import Links
from bunco_night.invites.services import answer_record, invitations_send
from tests.conftest import TESTS_TODAY
from tests.factories import make_night

pytestmark = pytest.mark.django_db

LINKS = Links(lambda path: "http://testserver" + path)


def next_step(client, night) -> str:
    page = client.get(night.get_absolute_url()).content.decode()
    block = re.search(r'<div class="next-step">(.*?)</div>', page, re.S).group(1)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", block)).split())


def test_a_night_to_come_says_how_its_answers_stand(client, group):
    night = make_night(group, date=TESTS_TODAY + dt.timedelta(days=30))
    assert next_step(client, night) == (
        "Invitations & answers Send the invitations; answers come in below."
    )
    invitations_send(night=night, kind="invitation", links=LINKS)
    assert next_step(client, night) == (
        "Invitations & answers Invitations sent; nobody has answered yet."
    )
    regulars = [a.player for a in night.attendances.order_by("pk")]
    for player in regulars[:3]:
        answer_record(player=player, night=night, choice="coming", links=LINKS)
    answer_record(player=regulars[3], night=night, choice="absent", links=LINKS)
    said = next_step(client, night)
    assert said == ("Invitations & answers 4 of 12 answered. 1 not coming, no substitute yet."), (
        said
    )
