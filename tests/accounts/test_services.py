"""Who hosts a group: invitations that work once, leaving, removing a co-host."""

from datetime import timedelta

import pytest
from django.utils import timezone

from bunco_night.accounts import services
from bunco_night.accounts.models import Invitation
from bunco_night.core.errors import ServiceError
from tests.factories import make_group, make_user

pytestmark = pytest.mark.django_db


def code_of(call) -> str:
    with pytest.raises(ServiceError) as error:
        call()
    return error.value.code


def test_an_invitation_makes_its_first_user_a_host_and_then_stops_working():
    host, ann, bea = make_user("host"), make_user("ann"), make_user("bea")
    group = make_group(user=host, regulars=0, substitutes=0)
    invitation = services.invitation_create(group=group, by=host, email="ann@example.com")
    assert len(invitation.token) >= 32 and invitation.is_usable

    assert services.invitation_accept(token=invitation.token, user=ann) == group
    assert group.is_host(ann)
    invitation.refresh_from_db()
    assert invitation.accepted_by == ann and not invitation.is_usable
    assert code_of(lambda: services.invitation_accept(token=invitation.token, user=bea)) == (
        "invitation_unusable"
    )
    assert not group.is_host(bea)


def test_an_expired_cancelled_or_unknown_invitation_is_refused_alike():
    host, ann = make_user("host"), make_user("ann")
    group = make_group(user=host, regulars=0, substitutes=0)
    expired = services.invitation_create(group=group, by=host)
    Invitation.objects.filter(pk=expired.pk).update(expires=timezone.now() - timedelta(seconds=1))
    cancelled = services.invitation_create(group=group, by=host)
    services.invitation_cancel(invitation=cancelled)
    for token in (expired.token, cancelled.token, "no-such-token"):
        assert code_of(lambda t=token: services.invitation_accept(token=t, user=ann)) == (
            "invitation_unusable"
        )
    assert not group.is_host(ann)


def test_a_host_who_opens_an_invitation_does_not_use_it_up():
    host = make_user("host")
    group = make_group(user=host, regulars=0, substitutes=0)
    invitation = services.invitation_create(group=group, by=host)
    services.invitation_accept(token=invitation.token, user=host)
    invitation.refresh_from_db()
    assert invitation.is_usable


def test_only_a_host_invites_and_open_invitations_are_capped():
    host, stranger = make_user("host"), make_user("stranger")
    group = make_group(user=host, regulars=0, substitutes=0)
    assert code_of(lambda: services.invitation_create(group=group, by=stranger)) == "not_host"
    for _ in range(services.MAX_PENDING_INVITATIONS):
        services.invitation_create(group=group, by=host)
    assert code_of(lambda: services.invitation_create(group=group, by=host)) == (
        "too_many_invitations"
    )


def test_a_co_host_leaves_but_the_last_host_cannot():
    host, ann = make_user("host"), make_user("ann")
    group = make_group(user=host, regulars=0, substitutes=0)
    services.invitation_accept(
        token=services.invitation_create(group=group, by=host).token, user=ann
    )
    services.host_leave(group=group, user=ann)
    assert not group.is_host(ann)
    assert code_of(lambda: services.host_leave(group=group, user=host)) == "last_host"
    assert group.is_host(host)
    assert code_of(lambda: services.host_leave(group=group, user=ann)) == "not_host"


def test_a_host_removes_a_co_host_but_not_themself():
    host, ann, stranger = make_user("host"), make_user("ann"), make_user("stranger")
    group = make_group(user=host, regulars=0, substitutes=0)
    services.invitation_accept(
        token=services.invitation_create(group=group, by=host).token, user=ann
    )
    assert code_of(lambda: services.host_remove(group=group, user=host, by=host)) == "remove_self"
    assert code_of(lambda: services.host_remove(group=group, user=ann, by=stranger)) == "not_host"
    assert code_of(lambda: services.host_remove(group=group, user=stranger, by=host)) == (
        "not_a_host"
    )
    services.host_remove(group=group, user=ann, by=host)
    assert list(group.hosts.all()) == [host]


def test_an_account_from_an_invitation_is_made_with_its_hosting_or_not_at_all():
    from django.contrib.auth import get_user_model

    host = make_user("host")
    group = make_group(user=host, regulars=0, substitutes=0)
    invitation = services.invitation_create(group=group, by=host)
    services.invitation_cancel(invitation=invitation)
    with pytest.raises(ServiceError):
        services.account_create_from_invitation(
            token=invitation.token, username="ann", email="", password="a long password"
        )
    assert not get_user_model().objects.filter(username="ann").exists()
    assert code_of(
        lambda: services.account_create(username="HOST", email="", password="x" * 12)
    ) == ("username_taken")
