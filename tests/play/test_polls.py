"""The quick answer to an unchanged phone poll (bunco_night/play/speed/polls.py).

An unchanged poll is answered before sessions, authentication and the views, with one
query; anything else goes on to the views and gets the answer it always got.
"""

import pytest
from django.db import connection
from django.test import RequestFactory
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunco_night.play.models import Entry
from bunco_night.play.speed.polls import UnchangedPollMiddleware, poll_routes
from tests.factories import make_group, make_night
from tests.play.helpers import start_night, tap
from tests.search import examples

pytestmark = pytest.mark.django_db

# Unknown, too long, or with characters no token has (a NUL, which PostgreSQL refuses in text).
UNKNOWN = ["not-a-real-token-at-all", "x" * 22, "x" * 44, "a.b", "%C3%A9t%C3%A9", "%00", "a%00b"]


@pytest.fixture
def night():
    night = make_night(make_group(), sets=1)
    start_night(night)
    night.refresh_from_db()
    return night


def table_poll(night, number=1):
    """The head table's (or another table's) poll URL and its current version."""
    t = night.tables.get(number=number)
    night.refresh_from_db()
    return reverse("play:table_state", args=[t.token]), f"{night.version}.{t.version}"


def player_poll(night):
    a = night.attendances.order_by("pk").first()
    night.refresh_from_db()
    return reverse("play:player_state", args=[a.token]), str(night.version)


POLLS = [table_poll, player_poll]


@pytest.mark.parametrize("poll", POLLS)
def test_an_unchanged_poll_is_an_empty_204_from_one_query_with_no_cookie(
    client, night, poll, django_assert_max_num_queries
):
    url, version = poll(night)
    with django_assert_max_num_queries(1):
        response = client.get(url, {"v": version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response.content == b""
    assert response.cookies == {} and "Set-Cookie" not in response.headers
    # Nothing on the way may keep the answer: the night moves on.
    assert "no-store" in response.headers["Cache-Control"]


@pytest.mark.parametrize("poll", POLLS)
def test_the_middleware_answers_an_unchanged_poll_without_the_view(night, poll):
    url, version = poll(night)

    def view(request):
        raise AssertionError("the unchanged poll went on to the view")

    request = RequestFactory().get(url, {"v": version})
    response = UnchangedPollMiddleware(view)(request)
    assert response.status_code == 204
    assert not hasattr(request, "session") and not hasattr(request, "user")


def test_a_host_signed_in_gets_no_cookie_from_a_poll_either(client, night):
    client.login(username="host", password="bunco")
    url, version = table_poll(night)
    response = client.get(url, {"v": version})
    assert response.status_code == 204 and "Set-Cookie" not in response.headers


def test_a_changed_table_falls_through_to_its_board_fragment(client, night):
    url, version = table_poll(night)
    t = night.tables.get(number=1)
    tap(t, 1, "points", 1)
    response = client.get(url, {"v": version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="board"') and "<html" not in html
    new_url, new_version = table_poll(night)
    assert new_version != version and f"{new_url}?v={new_version}" in html
    assert "no-store" in response.headers["Cache-Control"]
    # The fragment's version is the one the quick path then finds unchanged.
    assert client.get(url, {"v": new_version}).status_code == 204


def test_a_tap_at_another_table_leaves_a_table_poll_unchanged(client, night):
    url, version = table_poll(night)
    tap(night.tables.get(number=2), 1, "points", 1)
    assert client.get(url, {"v": version}).status_code == 204


def test_a_changed_night_falls_through_to_the_players_card(client, night):
    url, version = player_poll(night)
    night.version += 1
    night.save(update_fields=["version"])
    response = client.get(url, {"v": version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="card"') and f"?v={night.version}" in html


@pytest.mark.parametrize("kind", ["t", "p"])
@pytest.mark.parametrize("token", UNKNOWN)
@pytest.mark.parametrize("v", [None, "", "1", "1.1", "2.1", "abc"])
def test_an_unknown_link_is_404_whatever_v_says(client, night, kind, token, v):
    query = "" if v is None else f"?v={v}"
    assert client.get(f"/{kind}/{token}/state/{query}").status_code == 404


def test_another_tables_version_does_not_pass_for_this_table(client, night):
    url, _ = table_poll(night, 1)
    tap(night.tables.get(number=2), 1, "points", 1)
    _, other = table_poll(night, 2)
    assert client.get(url, {"v": other}, HTTP_HX_REQUEST="true").status_code == 200


@pytest.mark.parametrize("poll", POLLS)
def test_other_methods_go_on_to_the_view(client, night, poll):
    url, version = poll(night)
    assert client.post(f"{url}?v={version}").status_code == 405
    assert client.head(f"{url}?v={version}").status_code == 405


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(v=st.one_of(st.text(), st.from_regex(r"\A[0-9]{1,12}(\.[0-9]{0,12}){0,3}\Z")))
def test_no_v_ever_makes_a_poll_fail(client, night, v):
    for poll in POLLS:
        url, version = poll(night)
        response = client.get(url, {"v": v})
        assert response.status_code == (204 if v == version else 200)


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(query=st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E)))
def test_no_raw_query_string_makes_a_poll_fail(client, night, query):
    for poll in POLLS:
        url, _ = poll(night)
        assert client.get(f"{url}?{query}").status_code in (200, 204)
        assert client.get(f"/t/not-a-real-token-at-all/state/?{query}").status_code == 404


def test_the_routes_follow_the_urlconf(night):
    t = night.tables.get(number=1)
    a = night.attendances.first()
    table_route, player_route = poll_routes()
    assert table_route.token(reverse("play:table_state", args=[t.token])) == t.token
    assert player_route.token(reverse("play:player_state", args=[a.token])) == a.token
    for path in [
        reverse("play:table", args=[t.token]),
        f"/t/{t.token}/state/extra/",
        f"/t/{t.token}/entry/",
        "/t//state/",
        "/t/state/",
        "/t/a/b/state/",
    ]:
        assert table_route.token(path) is None, path


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("poll", POLLS)
def test_a_poll_on_a_lost_connection_asks_again_on_a_new_one(
    client, night, poll, monkeypatch, caplog
):
    """A poll skips Django's health check (its own query is one): where the connection
    has gone since the last request, the poll is still answered, on a new connection."""
    url, v = poll(night)
    assert client.get(url, {"v": v}).status_code == 204  # the connection is open
    checks = []
    usable = connection.is_usable
    monkeypatch.setattr(connection, "is_usable", lambda: checks.append(1) or usable())
    # What every request starts with outside tests (the test client leaves it out): the
    # connection is to be checked again before the request's first query.
    connection.close_if_unusable_or_obsolete()
    assert client.get(url, {"v": v}).status_code == 204
    assert checks == []  # no health check (on PostgreSQL a SELECT 1) before the poll's query
    connection.close_if_unusable_or_obsolete()
    client.get(reverse("login"))
    assert checks == [1]  # while a page with no phone's link has it checked as before
    lost = connection.connection
    lost.close()  # as a database restart or a dropped idle connection leaves it
    assert client.get(url, {"v": v}).status_code == 204
    assert connection.connection is not lost
    assert "asking again on a new connection" in caplog.text  # and the log says so
    assert client.get(url, {"v": "0.0"}).status_code == 200  # and the views use it


@pytest.mark.django_db(transaction=True)
def test_a_tap_on_a_lost_connection_is_stored_on_a_new_one(client, night, monkeypatch, caplog):
    """A table phone's request reads its table first; that read is the connection's
    health check too (no SELECT 1 before it), and a tap that finds the connection gone
    is stored on a new one."""
    table = night.tables.order_by("number")[1]
    url = reverse("play:table_entry", args=[table.token])
    checks = []
    usable = connection.is_usable
    monkeypatch.setattr(connection, "is_usable", lambda: checks.append(1) or usable())

    def tap(nonce):
        data = {"seat": 1, "tap": "points:1", "round": "1", "nonce": nonce}
        response = client.post(url, data, HTTP_ACCEPT="application/json")
        assert response.status_code == 200 and response.json()["ok"]

    connection.close_if_unusable_or_obsolete()
    tap("lost-connection-0001")
    assert checks == []
    lost = connection.connection
    lost.close()
    connection.close_if_unusable_or_obsolete()
    tap("lost-connection-0002")
    assert connection.connection is not lost and checks == []
    assert "asking again on a new connection" in caplog.text
    assert set(Entry.objects.filter(table=table).values_list("nonce", flat=True)) == {
        "lost-connection-0001",
        "lost-connection-0002",
    }
