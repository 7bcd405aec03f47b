"""``update_each``: many rows' fields written in one batch, as ``bulk_update`` would."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bunco_night.core.bulk import update_each
from bunco_night.nights.models import Seat
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = pytest.mark.django_db


def test_each_row_gets_its_own_values_json_and_nulls_included_in_one_statement():
    night = make_night(make_group())
    rnd = start_night(night)
    seats = list(Seat.objects.filter(round=rnd).order_by("pk"))
    others = list(Seat.objects.exclude(round=rnd).values_list("pk", "won", "score", "marks"))
    for i, seat in enumerate(seats):
        seat.won = None if i == 0 else i % 2 == 0
        seat.buncos, seat.score = i, None if i == 1 else 3 * i
        seat.marks = {"pig": i, 'it\'s "quoted"': 1} if i % 3 else {}
    with CaptureQueriesContext(connection) as queries:
        update_each(seats, ["won", "buncos", "score", "marks"])
    assert len(queries) == 1
    stored = {s.pk: s for s in Seat.objects.filter(round=rnd)}
    for seat in seats:
        got = stored[seat.pk]
        assert (got.won, got.buncos, got.score, got.marks) == (
            seat.won,
            seat.buncos,
            seat.score,
            seat.marks,
        )
    assert list(Seat.objects.exclude(round=rnd).values_list("pk", "won", "score", "marks")) == (
        others
    )


def test_no_rows_is_no_statement():
    with CaptureQueriesContext(connection) as queries:
        update_each([], ["won"])
    assert queries.captured_queries == []
