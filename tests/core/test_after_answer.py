"""Work a request leaves for after its answer has gone out (bunco_night/core/speed/after_answer.py).

A table's kept board is written once the phone has its answer: the answer is what a
WSGI server sends first, the work is done when the server closes the response.
"""

import io
import json
import logging
from contextlib import contextmanager
from urllib.parse import urlencode
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse

from bunco_night.core.speed.after_answer import AfterAnswerMiddleware, after_answer
from bunco_night.nights.models import Table
from bunco_night.play.models import Board
from tests.factories import make_group, make_night
from tests.play.helpers import poll_without_view, start_night


def leaving(*works):
    """A view that leaves ``works`` for after its answer."""

    def view(request):
        for work in works:
            after_answer(request, work)
        return HttpResponse("the answer")

    return view


@contextmanager
def connection_kept():
    """As Django's test client does: the test's database connection (in the test's
    transaction) is not closed at the start and end of a request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def test_the_work_is_done_when_the_answer_is_closed_before_request_finished():
    done = []

    def finished(**kwargs):
        done.append("request_finished")

    response = AfterAnswerMiddleware(leaving(lambda: done.append("work")))(
        RequestFactory().get("/")
    )
    assert response.content == b"the answer" and done == []
    request_finished.connect(finished)
    try:
        with connection_kept():
            response.close()
    finally:
        request_finished.disconnect(finished)
    # Before request_finished, which may close the database connection the work uses.
    assert done == ["work", "request_finished"]


def test_a_failing_piece_of_work_is_logged_and_the_rest_is_done(caplog):
    done = []

    def fails():
        raise RuntimeError("the database went away")

    response = AfterAnswerMiddleware(leaving(fails, lambda: done.append("second")))(
        RequestFactory().get("/")
    )
    with (
        caplog.at_level(logging.ERROR, logger="bunco_night.core.speed.after_answer"),
        connection_kept(),
    ):
        response.close()
    assert done == ["second"] and response.closed
    with connection_kept():
        response.close()  # closed again: the work is not done twice
    assert done == ["second"]
    assert "Work left for after an answer failed." in caplog.text
    assert "the database went away" in caplog.text


def test_without_the_middleware_the_work_is_done_at_once():
    done = []
    leaving(lambda: done.append("work"))(RequestFactory().get("/"))
    assert done == ["work"]


def test_an_answer_that_leaves_no_work_closes_as_django_s_own():
    response = AfterAnswerMiddleware(leaving())(RequestFactory().get("/"))
    assert "close" not in vars(response)


def wsgi_post(path: str, data: dict, **headers):
    """POST ``data`` to the site as a WSGI server does: the status, the body as sent, and
    the response, not closed yet."""
    body = urlencode(data).encode()
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "CONTENT_TYPE": "application/x-www-form-urlencoded",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        **{f"HTTP_{k.upper()}": v for k, v in headers.items()},
    }
    setup_testing_defaults(environ)
    statuses = []
    response = WSGIHandler()(
        environ, lambda status, headers, exc_info=None: statuses.append(status)
    )
    return statuses[0], b"".join(response), response


@pytest.mark.django_db
def test_a_tap_s_board_is_kept_after_the_answer_has_gone():
    night = make_night(make_group(), sets=1)
    start_night(night)
    table = Table.objects.select_related("night").get(night=night, number=2)
    before = f"{table.night.version}.{table.version}"
    data = {"nonce": "after-answer-0001", "seat": "1", "tap": "points:1", "round": "1"}
    with connection_kept():
        status, sent, response = wsgi_post(
            reverse("play:table_entry", args=[table.token]), data, accept="application/json"
        )
        assert status.startswith("200")
        answer = json.loads(sent)
        assert answer["ok"] and answer["board"]
        assert not Board.objects.filter(table=table).exists()  # not yet: the answer is out
        response.close()
    table = Table.objects.select_related("night").get(pk=table.pk)
    kept = Board.objects.get(table=table)
    assert kept.version == f"{table.night.version}.{table.version}"
    assert kept.html == answer["board"] and kept.live and kept.state
    # The next phone's poll at the table gets the board the tap's answer carried.
    polled = poll_without_view(table, before)
    assert polled.status_code == 200 and polled.content.decode() == answer["board"]
