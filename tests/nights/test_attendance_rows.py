"""An attendance change on the host's night page redraws its row, not the section.

With htmx a tap on a row (coming, not coming, a substitute, leaves) answers with that
row, a late arrival with their new row, put in its place in the list, and out of band
with what the change touches elsewhere: the count playing, the row's dues line and the
dues totals, the late-arrival list, and the seating once there is one (docs/rules.md
section 10: who plays re-seats the next round). A charity night's page is hundreds of
kilobytes; a tap must not cost all of them, nor a query per player.
"""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bunco_night.nights.models import Attendance
from bunco_night.nights.services import guest_add, seating_draw
from tests.factories import make_group, make_night, make_user

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def night(group):
    return make_night(group)


def url(name, night, *args):
    return reverse(f"nights:{name}", args=[night.pk, *args])


def att(night, name):
    return night.attendances.get(player__name=name)


def text(response) -> str:
    return response.content.decode()


def oob_ids(page: str) -> list[str]:
    return re.findall(r'<\w+ [^>]*?id="([\w-]+)"[^>]*hx-swap-oob="true"', page)


def test_a_tap_answers_with_the_row_and_the_counts_and_dues_it_changes(client, night):
    ann = att(night, "Regular 6")
    response = client.post(url("attendance", night, ann.pk), {"status": "absent"}, **HX)
    page = text(response)
    assert page.lstrip().startswith(f'<li class="att-row status-absent" id="att-{ann.pk}"')
    assert '<section id="attendance"' not in page and '<section id="dues"' not in page
    assert page.count('class="att-row') == 1  # no other player's row
    assert oob_ids(page) == [
        "answers-stale",  # the answers panel loads itself again (invites/_answers.html)
        "attendance-version",
        "att-count",
        "guest-form",
        "dues-totals",
        f"dues-{ann.pk}",
        "draw-playing",
        "history-count",  # the change is a line of the night's history
    ]
    assert '<span class="count" id="att-count" hx-swap-oob="true">11 playing</span>' in page
    dues = page[page.index(f'id="dues-{ann.pk}"') :]
    assert "Regular 6" in dues[: dues.index("</li>")]


def pickers(page: str) -> dict[str, list[str]]:
    """Each row's substitute picker: its select's id, and the names it offers."""
    return {
        select: re.findall(r"<option value=\"\d+\"[^>]*>([^<(]+)", options)
        for select, options in re.findall(r'<select id="(sub-\d+)"[^>]*>(.*?)</select>', page, re.S)
    }


def test_a_substitute_sent_or_freed_redraws_every_row_s_picker(client, night):
    """Every row offers the substitutes still free: sending one takes them out of the other
    rows' pickers, and sending them no more puts them back, so the answer is the whole
    attendance section, with the late-arrival list and dues as before."""
    ann, other = att(night, "Regular 6"), att(night, "Regular 7")
    response = client.post(url("attendance", night, ann.pk), {"status": "sub", **sub(night)}, **HX)
    # The row's form targets its row: the answer says to replace the section instead.
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#attendance", "outerHTML")
    page = text(response)
    assert '<section id="attendance"' in page
    assert "Sends a substitute: <strong>Sub 1</strong>" in page
    offered = pickers(page)
    assert [n.strip() for n in offered[f"sub-{other.pk}"]] == ["Sub 2"]
    late = page[page.index('id="guest-form"') :]
    assert "Sub 1" not in late[: late.index("</select>")] and "Sub 2" in late
    dues = page[page.index(f'id="dues-{ann.pk}"') :]
    assert "(sub: Sub 1)" in dues[: dues.index("</li>")]
    page = text(client.post(url("attendance", night, ann.pk), {"status": "coming"}, **HX))
    assert '<section id="attendance"' in page
    assert [n.strip() for n in pickers(page)[f"sub-{other.pk}"]] == ["Sub 1", "Sub 2"]


def test_a_new_substitute_sent_in_place_of_one_frees_the_first(client, night):
    ann, other = att(night, "Regular 6"), att(night, "Regular 7")
    client.post(url("attendance", night, ann.pk), {"status": "sub", **sub(night)})
    page = text(client.post(url("new_substitute", night, ann.pk), {"name": "Nina New"}, **HX))
    assert "Sends a substitute: <strong>Nina New</strong>" in page
    assert [n.strip() for n in pickers(page)[f"sub-{other.pk}"]] == ["Sub 1", "Sub 2"]


def sub(night):
    return {"substitute": night.group.players.get(name="Sub 1").pk}


def test_the_count_and_the_draw_line_follow_a_player_not_coming(client, night):
    ann = att(night, "Regular 3")
    page = text(client.post(url("attendance", night, ann.pk), {"status": "absent"}, **HX))
    assert "11 playing</span>" in page
    assert '<p id="draw-playing" hx-swap-oob="true">11 players tonight' in page


def test_with_a_seating_the_seating_comes_too(client, night):
    seating_draw(night=night, seed=3)
    ann = att(night, "Regular 3")
    page = text(client.post(url("attendance", night, ann.pk), {"status": "absent"}, **HX))
    assert '<section id="seating" class="section"' in page
    assert 'id="draw-playing" hx-swap-oob' not in page  # inside the seating section
    assert oob_ids(page)[-1] == "seating"


def test_a_refused_tap_answers_with_the_row_and_its_error_only(client, night):
    ann, taken = att(night, "Regular 4"), att(night, "Regular 5")
    client.post(url("attendance", night, taken.pk), {"status": "sub", **sub(night)})
    response = client.post(url("attendance", night, ann.pk), {"status": "sub", **sub(night)}, **HX)
    page = text(response)
    assert page.lstrip().startswith(f'<li class="att-row status-coming" id="att-{ann.pk}"')
    assert "Sub 1 is already on tonight&#x27;s list." in page
    assert "hx-swap-oob" not in page  # nothing else changed
    assert att(night, "Regular 4").status == Attendance.Status.COMING


def test_a_guest_removed_before_play_is_offered_as_a_substitute_again(client, night):
    """Someone new by name joins the roster as a substitute: removing them frees a
    substitute, so the whole section comes back, without their row or dues line, and with
    them in every row's picker."""
    guest = guest_add(night=night, name="Zed")
    other = att(night, "Regular 7")
    page = text(client.post(url("leave", night, guest.pk), **HX))
    assert '<section id="attendance"' in page
    assert f'id="att-{guest.pk}"' not in page and f'id="dues-{guest.pk}"' not in page
    assert "Zed" in [n.strip() for n in pickers(page)[f"sub-{other.pk}"]]
    assert not night.attendances.filter(pk=guest.pk).exists()


def test_without_javascript_a_tap_goes_back_to_the_page(client, night):
    ann = att(night, "Regular 6")
    response = client.post(url("attendance", night, ann.pk), {"status": "absent"})
    assert response.status_code == 302
    assert response["Location"] == f"{night.get_absolute_url()}#attendance"
    assert att(night, "Regular 6").status == Attendance.Status.ABSENT


def test_a_dues_line_with_nothing_to_say_is_a_hidden_placeholder_a_tap_can_fill(client, night):
    """A guest who paid, left and had the payment taken back owes nothing: their line is
    hidden but there, so that coming again fills it in out of band."""
    guest = guest_add(night=night, name="Zed")
    Attendance.objects.filter(pk=guest.pk).update(status=Attendance.Status.ABSENT)
    page = text(client.get(night.get_absolute_url()))
    assert f'<li id="dues-{guest.pk}" hidden></li>' in page
    page = text(client.post(url("attendance", night, guest.pk), {"status": "coming"}, **HX))
    assert re.search(
        rf'<li class="dues-row[^"]*" id="dues-{guest.pk}" [^>]*hx-swap-oob="true">', page
    )


def queries_of_a_tap(client, players: int, drawn: bool) -> tuple[int, int]:
    user = make_user(f"host-{players}-{drawn}")
    group = make_group(user=user, regulars=players, substitutes=2, name=f"G {players} {drawn}")
    night = make_night(group, sets=2)
    if drawn:
        seating_draw(night=night, seed=players)
    client.force_login(user)
    a = night.attendances.order_by("pk")[3]
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url("attendance", night, a.pk), {"status": "absent"}, **HX)
    assert response.status_code == 200
    assert text(response).lstrip().startswith(f'<li class="att-row status-absent" id="att-{a.pk}"')
    # The re-seated round's seats are written in batches on SQLite (its limit on a
    # query's parameters): what is pinned is what the tap reads to answer.
    reads = [q for q in captured.captured_queries if not q["sql"].startswith("INSERT")]
    return len(reads), len(response.content)


@pytest.mark.slow
@pytest.mark.parametrize("drawn", [False, True], ids=["before the draw", "seated"])
def test_a_tap_makes_as_many_queries_for_100_players_as_for_12(client, drawn):
    (small, small_bytes), (large, large_bytes) = (
        queries_of_a_tap(client, 12, drawn),
        queries_of_a_tap(client, 100, drawn),
    )
    assert small == large
    if not drawn:  # the row and the totals: the same size whatever the night's size
        assert large_bytes < small_bytes * 1.5


def test_a_substitute_picker_s_error_is_tied_to_its_select(client, night):
    ann = att(night, "Regular 4")
    page = text(client.post(url("attendance", night, ann.pk), {"status": "sub"}, **HX))
    assert (
        f'<select id="sub-{ann.pk}" name="substitute" aria-invalid="true" '
        f'aria-describedby="sub-error-{ann.pk}">' in page
    )
    assert (
        f'<p class="error" role="alert" id="sub-error-{ann.pk}">'
        "Pick the substitute, or add a new one.</p>" in page
    )
    assert f'id="new-name-{ann.pk}" name="name" value="" autocomplete="off">' in page


def test_a_new_substitute_s_error_is_tied_to_the_name_it_is_about(client, night):
    ann = att(night, "Regular 4")
    page = text(client.post(url("new_substitute", night, ann.pk), {"phone": "555"}))
    assert (
        'name="name" value="" autocomplete="off" aria-invalid="true" '
        f'aria-describedby="new-error-{ann.pk}">' in page
    )
    assert 'name="phone" type="tel" value="555" autocomplete="off">' in page  # not invalid
    assert f'<p class="error" role="alert" id="new-error-{ann.pk}">' in page
    assert f'<select id="sub-{ann.pk}" name="substitute">' in page


def test_a_late_arrival_who_needs_a_new_table_says_to_print_its_card(client, group):
    """12 regulars fill three tables of four: the first late arrival opens a fourth."""
    night = make_night(group)
    seating_draw(night=night, seed=3)
    response = client.post(url("guest_add", night), {"name": "Late 1"}, **HX)
    page = text(response)
    notice = page[page.index('id="new-tables"') :]
    notice = notice[: notice.index("</p>")]
    assert "Table 4 is new: print its card or show its QR code." in notice
    assert reverse("printing:table_cards", args=[night.pk]) in notice
    assert reverse("play:links", args=[night.pk]) in notice
    # The next arrival sits at table 4 too: no new table, nothing said about one.
    page = text(client.post(url("guest_add", night), {"name": "Late 2"}, **HX))
    assert 'id="new-tables"' not in page
    # A regular who comes back after all may open one too, from their row.
    ann = att(night, "Regular 2")
    client.post(url("attendance", night, ann.pk), {"status": "absent"})
    for name in ("Late 3", "Late 4", "Late 5"):  # 16 playing: four tables of four
        guest_add(night=night, name=name)
    page = text(client.post(url("attendance", night, ann.pk), {"status": "coming"}, **HX))
    assert "Table 5 is new" in page


def test_without_javascript_the_new_table_is_told_in_a_message(client, group):
    night = make_night(group)
    seating_draw(night=night, seed=3)
    response = client.post(url("guest_add", night), {"name": "Late 1"}, follow=True)
    assert "Table 4 is new: print its card or show its QR code" in text(response)


def queries_of_a_payment(client, players: int) -> tuple[int, int]:
    user = make_user(f"payer-{players}")
    group = make_group(user=user, regulars=players, substitutes=2, name=f"P {players}")
    night = make_night(group, sets=2)
    client.force_login(user)
    a = night.attendances.order_by("pk")[3]
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url("pay", night, a.pk), **HX)
    assert text(response).lstrip().startswith(f'<li class="dues-row paid" id="dues-{a.pk}"')
    return len(captured), len(response.content)


@pytest.mark.slow
def test_a_payment_makes_as_many_queries_for_100_players_as_for_12(client):
    (small, small_bytes), (large, large_bytes) = (
        queries_of_a_payment(client, 12),
        queries_of_a_payment(client, 100),
    )
    assert small == large
    assert large_bytes < small_bytes * 1.5  # the line and the totals, not every line


# A late arrival ----------------------------------------------------------------------------


def test_a_late_arrival_answers_with_their_row_put_in_its_place(client, night):
    """The list is in name order: the new row goes in before the row after it, and its
    dues line before that row's line; everything else comes out of band, as for a tap."""
    first = att(night, "Regular 1")
    response = client.post(url("guest_add", night), {"name": "Lou Late"}, **HX)
    lou = att(night, "Lou Late")
    assert (response["HX-Retarget"], response["HX-Reswap"]) == (f"#att-{first.pk}", "beforebegin")
    page = text(response)
    assert page.lstrip().startswith(f'<li class="att-row status-coming" id="att-{lou.pk}"')
    assert '<section id="attendance"' not in page and '<section id="dues"' not in page
    assert page.count('class="att-row') == 1  # no other player's row
    assert oob_ids(page) == [
        "answers-stale",  # the answers panel loads itself again (invites/_answers.html)
        "attendance-version",
        "att-count",
        "guest-form",
        "dues-totals",
        "draw-playing",
        "history-count",
    ]
    assert '<span class="count" id="att-count" hx-swap-oob="true">13 playing</span>' in page
    assert (
        f'<ul hx-swap-oob="beforebegin:#dues-{first.pk}"><li class="dues-row" id="dues-{lou.pk}"'
        in (re.sub(r">\s+<", "><", page))
    )
    dues = page[page.index(f'id="dues-{lou.pk}"') :]
    assert "$5.00 due" in dues[: dues.index("</li>")]
    assert dues.count("hx-swap-oob") == 0  # the wrapper is what goes in out of band
    assert "<dt>Expected</dt><dd>$65.00</dd>" in page


def test_a_late_arrival_last_in_name_order_goes_at_the_end(client, night):
    response = client.post(url("guest_add", night), {"name": "Zed"}, **HX)
    zed = att(night, "Zed")
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#att-list", "beforeend")
    page = text(response)
    assert page.lstrip().startswith(f'<li class="att-row status-coming" id="att-{zed.pk}"')
    assert '<ul hx-swap-oob="beforeend:#dues-list">' in page
    assert '<ul class="dues-list" id="dues-list">' in text(client.get(night.get_absolute_url()))


def test_a_regular_new_to_the_roster_arriving_late_answers_with_their_row(client, night):
    """Someone added to the roster after the night was planned is not on its list."""
    from bunco_night.groups.services import player_add

    ned = player_add(group=night.group, name="Ned")
    response = client.post(url("guest_add", night), {"player": ned.pk}, **HX)
    assert response["HX-Reswap"] == "beforebegin"
    assert '<section id="attendance"' not in text(response)
    assert f'id="att-{att(night, "Ned").pk}"' in text(response)


def test_a_substitute_from_the_roster_arriving_late_redraws_every_picker(client, night):
    """Sub 1 was free: every row's picker offered them, so the whole section comes back."""
    sub1 = night.group.players.get(name="Sub 1")
    other = att(night, "Regular 7")
    response = client.post(url("guest_add", night), {"player": sub1.pk}, **HX)
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#attendance", "outerHTML")
    page = text(response)
    assert '<section id="attendance"' in page and f'id="att-{att(night, "Sub 1").pk}"' in page
    assert [n.strip() for n in pickers(page)[f"sub-{other.pk}"]] == ["Sub 2"]


def test_with_a_seating_a_late_arrival_brings_the_seating_and_its_new_table(client, group):
    night = make_night(group)
    seating_draw(night=night, seed=3)
    response = client.post(url("guest_add", night), {"name": "Late 1"}, **HX)
    page = text(response)
    assert page.lstrip().startswith('<li class="att-row status-coming"')
    assert '<section id="attendance"' not in page
    assert oob_ids(page)[-1] == "seating" and "Table 4 is new" in page
    assert "Late 1" in page[page.index('<section id="seating"') :]


@pytest.mark.parametrize(
    "data, message",
    [
        ({"name": "  "}, "Choose who arrived, or type a new name."),
        ({"name": "regular 3"}, "already on the roster"),
        ({"player": "abc"}, "Choose someone from the roster."),
        ({"player": "999999"}, "Choose someone from the roster."),
        ({"name": "x" * 81}, "A name has at most 80 characters."),
    ],
    ids=["blank", "duplicate", "not a number", "nobody", "too long"],
)
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_refused_late_arrival_says_why(client, night, data, message, htmx):
    response = client.post(url("guest_add", night), data, **(HX if htmx else {}))
    assert response.status_code == 200
    page = text(response)
    error = page[page.index('id="guest-error"') :]
    assert message in error[: error.index("</p>")]
    assert night.attendances.count() == 12


def test_without_javascript_a_late_arrival_goes_back_to_the_page(client, night):
    response = client.post(url("guest_add", night), {"name": "Lou Late"})
    assert response.status_code == 302
    assert response["Location"] == f"{night.get_absolute_url()}#attendance"
    assert "13 playing" in text(client.get(response["Location"]))


def test_a_guest_gone_with_no_substitute_freed_still_redraws_the_section(client, night):
    """A row that is gone never answers alone (the page would keep it): a retired guest
    removed frees nobody the pickers offer, and the whole section comes back without them."""
    guest = guest_add(night=night, name="Zed")
    guest.player.retired = True
    guest.player.save(update_fields=["retired"])
    response = client.post(url("leave", night, guest.pk), **HX)
    page = text(response)
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#attendance", "outerHTML")
    assert '<section id="attendance"' in page and f'id="att-{guest.pk}"' not in page
    assert f'id="dues-{guest.pk}"' not in page and "12 playing" in page


def queries_of_a_late_arrival(client, players: int, drawn: bool) -> tuple[int, int]:
    user = make_user(f"late-{players}-{drawn}")
    group = make_group(user=user, regulars=players, substitutes=2, name=f"L {players} {drawn}")
    night = make_night(group, sets=2)
    if drawn:
        seating_draw(night=night, seed=players)
    client.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url("guest_add", night), {"name": "Lou Late"}, **HX)
    lou = att(night, "Lou Late")
    assert (
        text(response).lstrip().startswith(f'<li class="att-row status-coming" id="att-{lou.pk}"')
    )
    assert '<section id="attendance"' not in text(response)
    reads = [q for q in captured.captured_queries if not q["sql"].startswith("INSERT")]
    return len(reads), len(response.content)


@pytest.mark.slow
@pytest.mark.parametrize("drawn", [False, True], ids=["before the draw", "seated"])
def test_a_late_arrival_makes_as_many_queries_for_100_players_as_for_12(client, drawn):
    (small, small_bytes), (large, large_bytes) = (
        queries_of_a_late_arrival(client, 12, drawn),
        queries_of_a_late_arrival(client, 100, drawn),
    )
    assert small == large
    if not drawn:  # the row and the totals: the same size whatever the night's size
        assert large_bytes < small_bytes * 1.5


def test_someone_new_sent_as_a_substitute_answers_with_the_row(client, night):
    """Someone new was never offered by a picker: sending them frees and takes nobody, so
    the row answers alone (sending them in place of Sub 1 frees Sub 1: the section, above)."""
    ann = att(night, "Regular 6")
    page = text(client.post(url("new_substitute", night, ann.pk), {"name": "Nina New"}, **HX))
    assert page.lstrip().startswith(f'<li class="att-row status-sub" id="att-{ann.pk}"')
    assert '<section id="attendance"' not in page
    assert "Sends a substitute: <strong>Nina New</strong>" in page
    dues = page[page.index(f'id="dues-{ann.pk}"') :]
    assert "(sub: Nina New)" in dues[: dues.index("</li>")]
