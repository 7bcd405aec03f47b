"""The seating chart (the host's seating and its TV) says whose seat a substitute takes
("Sally Fox · sub for Deb Jones"; "sub for Deb" on the TV, where space is short), and
marks a late arrival who plays for no regular as a guest, never as a substitute."""

import html
import re

import pytest
from django.urls import reverse

from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set, guest_add, seating_draw
from tests.factories import make_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(group):
    """Deb Jones sends Sally Fox; Gina Ruiz comes as a guest, for nobody."""
    named = {"Regular 2": "Deb Jones", "Sub 1": "Sally Fox", "Sub 2": "Gina Ruiz"}
    for old, new in named.items():
        group.players.filter(name=old).update(name=new)
    night = make_night(group)
    attendance_set(
        attendance=night.attendances.get(player__name="Deb Jones"),
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sally Fox"),
    )
    guest_add(night=night, player=group.players.get(name="Gina Ruiz"))
    seating_draw(night=night, seed=4)
    return night


def chart_lines(page: str) -> list[str]:
    """Each seat of the chart as a person reads it: its name and what follows it, without
    the words only a screen reader says."""
    page = re.sub(r'<span class="visually-hidden">[^<]*</span>', "", page)
    seats = re.findall(
        r'<span class="seat-who">(.*?)(?:<span class="partner">|</span>\s*</)', page, re.S
    )
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", s)).split()) for s in seats]


@pytest.mark.parametrize(("screen", "sub"), [("nights:detail", "Deb Jones"), ("nights:tv", "Deb")])
def test_a_substitute_says_whose_seat_and_a_guest_is_no_substitute(
    client, host, seated, screen, sub
):
    page = client.get(reverse(screen, args=[seated.pk])).content.decode()
    lines = chart_lines(page)
    assert len(lines) == 13  # twelve regulars' places and the guest
    assert f"Sally Fox sub for {sub}" in lines
    assert "Gina Ruiz guest" in lines
    # Regulars have no tag; nobody else is called a substitute.
    assert "Regular 1" in lines
    assert [line for line in lines if "sub" in line] == [f"Sally Fox sub for {sub}"]
    # A screen reader hears the word in full.
    assert "substitute for Deb Jones" in page
