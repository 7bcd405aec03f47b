"""Poll versions kept in each process while PostgreSQL says nothing changed
(bunco_night/play/speed/listening.py, the triggers of migration nights 0009).

The first tests are of the memory alone, on a clock the test moves; the rest run on
PostgreSQL, committing, with the listener thread a web process would run.
"""

import time

import psycopg
import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_started
from django.db import connection, transaction
from django.db.models import F
from django.test import RequestFactory
from django.urls import reverse

from bunco_night import wsgi
from bunco_night.nights.models import Attendance, Night, Table
from bunco_night.play.models import Board
from bunco_night.play.speed import listening
from bunco_night.play.speed.listening import Heard, heard
from bunco_night.play.speed.polls import QuickPolls
from tests.factories import make_group, make_night
from tests.play.helpers import start_night, tap

postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="notifications are PostgreSQL's"
)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def memory(clock=None):
    """A ``Heard`` whose listener is alive (as if its beat had just come back)."""
    clock = clock or Clock()
    kept = Heard(connect=None, live_for=5.0, clock=clock)
    kept.alive(clock())
    return kept


# -- the memory ---------------------------------------------------------------------------


def test_a_version_read_is_answered_until_a_notification_names_its_rows():
    kept = memory()
    kept.keep("table poll A", "3.7", ("n1", "t10"), kept.epoch)
    kept.keep("table poll B", "3.2", ("n1", "t11"), kept.epoch)
    kept.keep("player poll", "3", ("n1", "a5"), kept.epoch)
    assert kept.version("table poll A") == "3.7"
    kept.hear("t10")  # a tap at table 10
    assert kept.version("table poll A") is None
    assert kept.version("table poll B") == "3.2" and kept.version("player poll") == "3"
    kept.hear("n1")  # the night moved: every poll of it reads again
    assert kept.version("table poll B") is None and kept.version("player poll") is None


def test_a_read_overtaken_by_a_notification_is_not_kept():
    kept = memory()
    began = kept.epoch
    kept.hear("t99")  # any change, heard while the read ran: the read may be older
    kept.keep("table poll", "3.7", ("n1", "t10"), began)
    assert kept.version("table poll") is None
    kept.keep("table poll", "3.8", ("n1", "t10"), kept.epoch)
    assert kept.version("table poll") == "3.8"


def test_nothing_is_answered_more_than_live_for_after_the_last_beat_that_came_back():
    clock = Clock()
    kept = memory(clock)
    kept.keep("poll", "1.1", ("n1", "t1"), kept.epoch)
    sent = clock.now + 4.0
    clock.now += 4.9
    assert kept.version("poll") == "1.1"
    kept.alive(sent)  # a beat sent 0.9 s ago came back
    clock.now += 4.0
    assert kept.version("poll") == "1.1"
    clock.now += 0.2  # 5 s after that beat was sent: the database answers
    assert not kept.answering() and kept.version("poll") is None
    kept.keep("poll", "1.2", ("n1", "t1"), kept.epoch)  # and nothing is kept meanwhile
    kept.alive(clock.now - 10)  # a beat older than the last one changes nothing
    assert not kept.answering()
    # A late beat on the same connection: every notification before it has been heard,
    # so what was kept while it was live still stands.
    kept.alive(clock.now)
    assert kept.version("poll") == "1.1"


def test_a_lost_listener_forgets_everything_and_a_new_one_starts_empty():
    clock = Clock()
    kept = memory(clock)
    began = kept.epoch
    kept.keep("poll", "1.1", ("n1", "t1"), began)
    kept.deaf()
    assert not kept.answering() and kept.version("poll") is None
    kept.alive(clock())  # listening again
    assert kept.answering() and kept.version("poll") is None
    kept.keep("poll", "1.1", ("n1", "t1"), began)  # a read from before the loss is not kept
    assert kept.version("poll") is None


def test_an_emptied_table_forgets_everything():
    kept = memory()
    kept.keep("a", "1.1", ("n1", "t1"), kept.epoch)
    kept.keep("b", "1", ("n2", "a3"), kept.epoch)
    kept.hear(listening.EVERYTHING)
    assert kept.version("a") is None and kept.version("b") is None


def test_a_key_read_again_is_forgotten_by_its_new_rows_only(monkeypatch):
    kept = memory()
    kept.keep("poll", "1.1", ("n1", "t1"), kept.epoch)
    kept.keep("poll", "2.1", ("n2", "t1"), kept.epoch)  # its table moved to another night
    kept.hear("n1")
    assert kept.version("poll") == "2.1"
    monkeypatch.setattr(listening, "MOST_KEPT", 2)
    kept.keep("other", "1", ("n3", "a1"), kept.epoch)
    kept.keep("third", "1", ("n3", "a2"), kept.epoch)  # past the most kept: starts again
    assert kept.version("third") == "1" and kept.version("poll") is None


# -- on PostgreSQL: the triggers ------------------------------------------------------------


def notes_from(change):
    """The payloads ``bunco_polls`` carries while ``change()`` runs and commits."""
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as listener:
        listener.execute("LISTEN bunco_polls")
        change()
        # A marker sent last: every notification committed before it arrives before it.
        with psycopg.connect(**params, autocommit=True) as other:
            other.execute("NOTIFY bunco_polls, 'end'")
        notes = []
        for note in listener.notifies(timeout=10):
            if note.payload == "end":
                return notes
            notes.append(note.payload)
    raise AssertionError(f"the marker never came; heard {notes}")


@pytest.fixture
def night(transactional_db):
    night = make_night(make_group(), sets=1)
    start_night(night)
    night.refresh_from_db()
    return night


@postgresql
def test_the_triggers_name_each_row_a_poll_reads_when_it_changes(night):
    t = night.tables.get(number=1)
    a = night.attendances.order_by("pk").first()
    assert notes_from(lambda: tap(t, 1, "points", 1)) == [f"t{t.pk}"]
    assert notes_from(
        lambda: Night.objects.filter(pk=night.pk).update(version=F("version") + 1)
    ) == [f"n{night.pk}"]
    assert notes_from(lambda: Attendance.objects.filter(pk=a.pk).update(token="new-link")) == [
        f"a{a.pk}"
    ]
    assert notes_from(lambda: Table.objects.filter(pk=t.pk).update(token="new-table-link")) == [
        f"t{t.pk}"
    ]
    # What polls do not read moves nothing.
    assert notes_from(lambda: Night.objects.filter(pk=night.pk).update(place="Elsewhere")) == []
    # A change rolled back is never told.

    def rolled_back():
        with pytest.raises(RuntimeError), transaction.atomic():
            Table.objects.filter(pk=t.pk).update(version=F("version") + 1)
            raise RuntimeError

    assert notes_from(rolled_back) == []
    assert notes_from(lambda: Attendance.objects.filter(pk=a.pk).delete()) == [f"a{a.pk}"]

    def emptied():
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE nights_attendance CASCADE")

    assert "*" in notes_from(emptied)
    ids = [f"t{pk}" for pk in night.tables.values_list("pk", flat=True)]
    notes = notes_from(lambda: Night.objects.filter(pk=night.pk).delete())
    assert f"n{night.pk}" in notes and set(ids) <= set(notes)


# -- on PostgreSQL: polls answered from memory ------------------------------------------------


def until(condition, seconds=10.0):
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("waited in vain")
        time.sleep(0.01)


@pytest.fixture
def listen(settings):
    settings.POLL_LISTEN = True
    try:  # the listener's connection must be closed before the test database is dropped
        memory = heard()
        until(memory.answering)
        yield memory
    finally:
        listening.stop_listening()


def table_poll(night, number=1):
    t = Table.objects.get(night=night, number=number)
    night.refresh_from_db()
    return reverse("play:table_state", args=[t.token]), f"{night.version}.{t.version}"


@postgresql
def test_an_unchanged_poll_needs_no_query_until_its_table_changes(
    client, night, listen, django_assert_num_queries
):
    url, v = table_poll(night)
    with django_assert_num_queries(1):
        assert client.get(url, {"v": v}).status_code == 204  # read, and kept
    with django_assert_num_queries(0):
        assert client.get(url, {"v": v}).status_code == 204
    # A tap at another table leaves it kept.
    epoch = listen.epoch
    tap(night.tables.get(number=2), 1, "points", 1)
    until(lambda: listen.epoch != epoch)
    with django_assert_num_queries(0):
        assert client.get(url, {"v": v}).status_code == 204
    # A tap at this one: the next poll reads the change.
    epoch = listen.epoch
    tap(night.tables.get(number=1), 1, "points", 1)
    until(lambda: listen.epoch != epoch)
    response = client.get(url, {"v": v}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    _, new = table_poll(night)
    assert new != v and f"?v={new}" in response.content.decode()
    # The board drawn for that poll was kept (on its own, outside any transaction).
    assert Board.objects.filter(table__token=url.split("/")[2], version=new).exists()
    assert client.get(url, {"v": new}).status_code == 204
    with django_assert_num_queries(0):
        assert client.get(url, {"v": new}).status_code == 204


@postgresql
def test_a_players_poll_reads_again_when_the_night_or_the_link_changes(client, night, listen):
    a = night.attendances.order_by("pk").first()
    url = reverse("play:player_state", args=[a.token])
    v = str(night.version)
    assert client.get(url, {"v": v}).status_code == 204
    until(lambda: listen.version(("/p/", a.token)) == v)
    epoch = listen.epoch
    Night.objects.filter(pk=night.pk).update(version=F("version") + 1)  # as the admin might
    until(lambda: listen.epoch != epoch)
    assert client.get(url, {"v": v}, HTTP_HX_REQUEST="true").status_code == 200
    v = str(int(v) + 1)
    assert client.get(url, {"v": v}).status_code == 204
    epoch = listen.epoch
    Attendance.objects.filter(pk=a.pk).update(token="a-renewed-link")
    until(lambda: listen.epoch != epoch)
    assert client.get(url, {"v": v}).status_code == 404  # the old link is no link


@postgresql
def test_a_lost_listener_leaves_polls_to_the_database_until_it_is_back(
    client, night, listen, django_assert_num_queries, caplog
):
    url, v = table_poll(night)
    client.get(url, {"v": v})
    with django_assert_num_queries(0):
        assert client.get(url, {"v": v}).status_code == 204
    with connection.cursor() as cursor:  # as a database restart would
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = %s",
            [listening.APPLICATION_NAME],
        )
    until(lambda: not listen.answering())
    assert "Poll notifications lost" in caplog.text
    # Changed while nobody listened: once listening again, the poll reads the change
    # (what was kept before the loss was forgotten with it).
    tap(night.tables.get(number=1), 1, "points", 1)
    until(listen.answering)
    assert client.get(url, {"v": v}).status_code == 200
    _, new = table_poll(night)
    client.get(url, {"v": new})
    with django_assert_num_queries(0):
        assert client.get(url, {"v": new}).status_code == 204


@postgresql
def test_without_the_triggers_polls_read_the_database(client, night, listen, caplog):
    """Triggers missing or disabled (code newer than the database's migrations, a restore
    with triggers off): no notification would come, so memory does not answer."""
    url, v = table_poll(night)
    client.get(url, {"v": v})
    until(lambda: listen.version(("/t/", url.split("/")[2])) == v)
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE nights_table DISABLE TRIGGER bunco_polls_row")
    try:
        until(lambda: not listen.answering())
        assert "5 of the 6 poll triggers are in place" in caplog.text
        tap(night.tables.get(number=1), 1, "points", 1)  # not notified
        assert client.get(url, {"v": v}).status_code == 200  # read from the database
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE nights_table ENABLE TRIGGER bunco_polls_row")
    until(listen.answering)
    assert listen.version(("/t/", url.split("/")[2])) is None  # forgotten meanwhile


# -- on PostgreSQL: polls answered before Django (play/speed/polls.py: QuickPolls) ---


def wsgi_get(application, path, data=None, **headers):
    """``application``'s answer to a GET of ``path``, as gunicorn would call it: (status,
    headers, body)."""
    environ = RequestFactory().get(path, data or {}, **headers).environ
    said = {}

    def start_response(status, response_headers, exc_info=None):
        said.update(status=status, headers=response_headers)

    response = application(environ, start_response)
    try:
        body = b"".join(response)
    finally:
        if hasattr(response, "close"):
            response.close()  # Django's request_finished, as a server would
    return said["status"], said["headers"], body


@pytest.fixture
def requests_to_django():
    """The paths of the requests that reached Django (its request_started signal)."""
    paths = []

    def started(sender, environ, **kwargs):
        paths.append(environ["PATH_INFO"])

    request_started.connect(started)
    yield paths
    request_started.disconnect(started)


@postgresql
def test_a_poll_memory_knows_unchanged_is_answered_before_django_as_django_answered(
    night, listen, requests_to_django, django_assert_num_queries
):
    application = QuickPolls(WSGIHandler())
    url, v = table_poll(night)
    first = wsgi_get(application, url, {"v": v})  # read, kept; Django's answer
    assert first[0].startswith("204") and first[2] == b"" and requests_to_django == [url]
    assert ("Cache-Control", "no-store") in first[1]
    assert ("X-Content-Type-Options", "nosniff") in first[1]
    with django_assert_num_queries(0):
        assert wsgi_get(application, url, {"v": v}) == first
    assert requests_to_django == [url]  # not again
    # Another version than memory's (an old page, a typo): Django answers.
    status, _, body = wsgi_get(application, url, {"v": "0.0"}, HTTP_HX_REQUEST="true")
    assert status.startswith("200") and f"?v={v}" in body.decode()
    assert requests_to_django == [url, url]
    # A tap at the table: memory forgets, and Django answers with the new board.
    epoch = listen.epoch
    tap(night.tables.get(number=1), 1, "points", 1)
    until(lambda: listen.epoch != epoch)
    status, _, body = wsgi_get(application, url, {"v": v}, HTTP_HX_REQUEST="true")
    _, new = table_poll(night)
    assert status.startswith("200") and f"?v={new}" in body.decode()
    assert len(requests_to_django) == 3


@postgresql
def test_only_a_get_of_a_poll_of_ours_is_answered_before_django(night, listen, requests_to_django):
    application = QuickPolls(WSGIHandler())
    url, v = table_poll(night)
    page = url.replace("/state/", "/")
    a = night.attendances.order_by("pk").first()
    player_url, player_v = reverse("play:player_state", args=[a.token]), str(night.version)
    for path, version in ((url, v), (player_url, player_v)):
        django_said = wsgi_get(application, path, {"v": version})
        assert django_said[0].startswith("204")
        assert wsgi_get(application, path, {"v": version}) == django_said
    assert requests_to_django == [url, player_url]  # each poll's second from memory
    # A HEAD, a poll without its version, the page: Django's, each as it always was.
    said = []
    environ = RequestFactory().head(url, {"v": v}).environ
    application(environ, lambda status, headers, exc_info=None: said.append(status)).close()
    assert said == ["405 Method Not Allowed"]  # the view takes GET only
    assert wsgi_get(application, url)[0].startswith("200")
    assert wsgi_get(application, page)[0].startswith("200")
    # A token no link of ours has (a dot): Django's 404.
    assert wsgi_get(application, "/t/a.b/state/", {"v": v})[0].startswith("404")
    assert requests_to_django[2:] == [url, url, page, "/t/a.b/state/"]


@postgresql
def test_a_poll_django_would_read_otherwise_goes_to_django(
    night, listen, requests_to_django, settings
):
    """Too many fields (Django's 400), a charset for its query string, paths exempt from
    the HTTPS redirect: Django's answer may depend on more than the poll's kind."""
    application = QuickPolls(WSGIHandler())
    url, v = table_poll(night)
    for _ in range(2):
        wsgi_get(application, url, {"v": v})
    assert requests_to_django == [url]
    fields = "&".join(["a=1"] * 1001)
    environ = RequestFactory().get(url).environ | {"QUERY_STRING": f"{fields}&v={v}"}
    said = []
    application(environ, lambda status, headers, exc_info=None: said.append(status)).close()
    assert said == ["400 Bad Request"]
    charset = {"CONTENT_TYPE": "text/plain; charset=utf-8"}
    assert wsgi_get(application, url, {"v": v}, **charset)[0].startswith("204")
    assert requests_to_django == [url, url, url]
    settings.SECURE_REDIRECT_EXEMPT = [r"^t/"]
    assert wsgi_get(application, url, {"v": v})[0].startswith("204")
    assert requests_to_django == [url] * 4


@postgresql
def test_a_poll_over_http_that_django_sends_to_https_is_never_answered_before_it(
    night, listen, requests_to_django, settings
):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    application = QuickPolls(WSGIHandler())  # its middleware made with these settings
    url, v = table_poll(night)
    secure = {"HTTP_X_FORWARDED_PROTO": "https"}
    assert wsgi_get(application, url, {"v": v}, **secure)[0].startswith("204")
    status, headers, _ = wsgi_get(application, url, {"v": v}, **secure)
    assert status.startswith("204") and requests_to_django == [url]
    assert ("Strict-Transport-Security", "max-age=3600") in headers  # as Django said it
    for _ in range(2):  # the same poll over HTTP: Django's redirect each time
        status, headers, _ = wsgi_get(application, url, {"v": v})
        assert (
            status.startswith("301") and ("Location", f"https://testserver{url}?v={v}") in headers
        )
    assert requests_to_django == [url, url, url]


def test_without_memory_every_poll_goes_to_django(night, requests_to_django, settings):
    """SQLite (and PostgreSQL with POLL_LISTEN off): the middleware's one query answers."""
    settings.POLL_LISTEN = False
    application = wsgi.application  # what gunicorn serves
    assert isinstance(application, QuickPolls)
    assert isinstance(application.application, WSGIHandler)
    url, v = table_poll(night)
    for _ in range(3):
        assert wsgi_get(application, url, {"v": v})[0].startswith("204")
    assert requests_to_django == [url] * 3
