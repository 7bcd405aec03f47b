"""The room screen's seating says whose seat a substitute takes ("sub for Deb", by first
name: a TV's line is short) and marks a guest as one, never as a substitute, as the
seating TV does (tests/nights/test_seat_tags.py)."""

import re

import pytest
from django.urls import reverse

from tests.nights.test_seat_tags import seated  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def room_lines(page: str) -> list[str]:
    """Each seat of the room screen's seating as a person reads it."""
    page = re.sub(r'<span class="visually-hidden">[^<]*</span>', "", page)
    names = re.findall(r'<span class="room-name">(.*?)</span>\s*</li>', page, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", n).split()) for n in names]


def test_the_room_screen_says_whose_seat_a_substitute_takes(client, host, seated):  # noqa: F811
    page = client.get(reverse("play:room", args=[seated.pk])).content.decode()
    lines = room_lines(page)
    assert len(lines) == 13
    assert "Sally Fox sub for Deb" in lines
    assert "Gina Ruiz guest" in lines
    assert [line for line in lines if "sub" in line] == ["Sally Fox sub for Deb"]
    assert "substitute for Deb Jones" in page
