"""A regular who picks or names her substitute has answered "I found someone", whatever
radio was left on (docs/rules.md section 8.8): only that person is recorded, the group's
substitutes are not asked, and a form error keeps what she chose on the page."""

import datetime as dt
import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from bunco_night.core.errors import ServiceError
from bunco_night.groups.services import player_update
from bunco_night.invites.messages import Links
from bunco_night.invites.models import Answer, SubstituteCall, SubstituteOffer
from bunco_night.invites.services import answer_record, link_for
from bunco_night.nights.services import night_create
from tests.factories import make_group

pytestmark = pytest.mark.django_db

LINKS = Links(lambda path: f"https://bunco.example.com{path}")


@pytest.fixture
def group():
    group = make_group(regulars=8, substitutes=3)
    for i in (1, 2, 3):
        player_update(player=group.players.get(name=f"Sub {i}"), email=f"sub{i}@example.com")
    return group


@pytest.fixture
def night(group):
    return night_create(group=group, date=timezone.localdate() + dt.timedelta(days=10))


def own_row(night, name="Regular 1"):
    return night.attendances.select_related("substitute").get(player__name=name)


@pytest.mark.parametrize(
    ("extra", "sub_name"),
    [({"substitute": "Sub 2"}, "Sub 2"), ({"new_name": "Walk In"}, "Walk In")],
)
def test_a_picked_or_named_substitute_is_the_answer_even_with_ask_left_on(
    group, night, django_capture_on_commit_callbacks, extra, sub_name
):
    if "substitute" in extra:
        extra = {"substitute": group.players.get(name=extra["substitute"])}
    with django_capture_on_commit_callbacks(execute=True):
        answer = answer_record(
            player=group.players.get(name="Regular 1"),
            night=night,
            choice="ask",
            note="Wedding",
            links=LINKS,
            **extra,
        )
    row = own_row(night)
    assert row.sends_substitute and row.substitute.name == sub_name
    assert answer.choice == Answer.Choice.SUBSTITUTE
    assert not SubstituteCall.objects.exists() and not SubstituteOffer.objects.exists()
    assert mail.outbox == []


def test_asking_with_nobody_picked_still_asks_the_group(
    group, night, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        answer_record(
            player=group.players.get(name="Regular 1"), night=night, choice="ask", links=LINKS
        )
    assert SubstituteCall.objects.get().is_open
    assert len(mail.outbox) == 3


def answer_url(group, night, name="Regular 1"):
    return reverse(
        "invites:mine_answer", args=[link_for(group.players.get(name=name)).token, night.pk]
    )


def test_her_pick_on_the_page_is_what_happens_and_what_she_is_told(
    client, group, night, django_capture_on_commit_callbacks
):
    sally = group.players.get(name="Sub 2")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            answer_url(group, night),
            {"choice": "ask", "substitute": sally.pk, "note": "Sorry!"},
            follow=True,
        )
    page = response.content.decode()
    assert "Sub 2 plays for you" in page
    assert "being asked" not in page
    assert own_row(night).substitute == sally
    assert mail.outbox == []


def checked(page: str, value: str) -> bool:
    """Whether the answer radio of ``value`` is checked in ``page``."""
    tag = re.search(rf'<input type="radio"[^>]*name="choice" value="{value}"[^>]*>', page)
    return tag is not None and " checked" in tag[0]


@pytest.mark.parametrize(
    "data",
    [
        {"choice": "sub", "new_name": "Bo Peep", "new_email": "bo@"},
        {"choice": "ask", "new_name": "Bo Peep", "new_email": "bo@"},
    ],
)
def test_a_form_error_keeps_her_choice_and_what_she_typed(client, group, night, data):
    page = client.post(answer_url(group, night), {**data, "note": "Back soon"}).content.decode()
    assert "Enter an e-mail address like ann@example.com." in page
    assert checked(page, "sub") and not checked(page, "ask")
    assert 'value="Bo Peep"' in page and 'value="bo@"' in page
    assert "Back soon" in page
    assert own_row(night).is_coming and not Answer.objects.exists()


def test_a_form_error_keeps_the_substitute_she_picked(client, group, night):
    sally = group.players.get(name="Sub 2")
    data = {"choice": "sub", "substitute": sally.pk, "new_email": "bo@"}
    page = client.post(answer_url(group, night), data).content.decode()
    assert checked(page, "sub") and not checked(page, "ask")
    assert re.search(rf'<option value="{sally.pk}" selected>Sub 2</option>', page)


def test_asking_the_group_stays_checked_after_an_error_when_she_asked(client, group, night):
    page = client.post(
        answer_url(group, night), {"choice": "ask", "note": "x" * 400}
    ).content.decode()
    assert "Keep the note under 300 characters." in page
    assert checked(page, "ask") and not checked(page, "sub")


def test_a_pick_and_a_typed_name_are_refused_and_both_kept(client, group, night):
    """Two substitutes on one answer: she is asked to keep one, and nothing is recorded."""
    sally = group.players.get(name="Sub 2")
    data = {"choice": "sub", "substitute": sally.pk, "new_name": "Bo Peep", "new_email": ""}
    response = client.post(answer_url(group, night), data)
    page = response.content.decode()
    assert "You picked Sub 2 and typed a new name: keep one." in page
    assert re.search(rf'<option value="{sally.pk}" selected>Sub 2</option>', page)
    assert 'value="Bo Peep"' in page
    assert own_row(night).is_coming and not Answer.objects.exists()
    assert not group.players.filter(name="Bo Peep").exists()


def test_the_service_refuses_a_pick_and_a_new_name(group, night):
    with pytest.raises(ServiceError) as refused:
        answer_record(
            player=group.players.get(name="Regular 1"),
            night=night,
            choice="sub",
            substitute=group.players.get(name="Sub 2"),
            new_name="Bo Peep",
            links=LINKS,
        )
    assert refused.value.code == "two_substitutes"
    assert not group.players.filter(name="Bo Peep").exists()


def test_each_error_is_next_to_its_field(client, group, night):
    """The e-mail's error is beside the E-mail box, the two names' beside the names."""
    sally = group.players.get(name="Sub 2")
    page = client.post(
        answer_url(group, night), {"choice": "sub", "new_name": "Bo Peep", "new_email": "bo@"}
    ).content.decode()
    email_error = page.index("Enter an e-mail address like ann@example.com.")
    assert page.index(f'for="new-email-{night.pk}"') < email_error
    assert email_error < page.index(f'id="new-email-{night.pk}"')
    assert page.index("I'm sending a substitute") < email_error
    page = client.post(
        answer_url(group, night), {"choice": "sub", "substitute": sally.pk, "new_name": "Bo"}
    ).content.decode()
    both = page.index("You picked Sub 2 and typed a new name: keep one.")
    assert page.index(f'id="sub-{night.pk}"') < both < page.index(f'id="new-phone-{night.pk}"')
