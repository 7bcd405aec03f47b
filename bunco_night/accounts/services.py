"""Changes to hosts' accounts and to who hosts a group (each one transaction)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Group, Membership

from .models import Invitation

# A group cannot pile up links: revoke or wait for old ones before making more.
MAX_PENDING_INVITATIONS = 20


@transaction.atomic
def invitation_create(*, group: Group, by, email: str = "") -> Invitation:
    """A one-time link that makes whoever opens it a host of ``group``."""
    if not group.is_host(by):
        raise ServiceError("Only a host of the group can invite a co-host.", "not_host")
    if group.invitations.usable().count() >= MAX_PENDING_INVITATIONS:
        raise ServiceError(
            "This group has too many open invitations: cancel some first.", "too_many_invitations"
        )
    return Invitation.objects.create(
        group=group,
        invited_by=by,
        email=(email or "").strip(),
        expires=timezone.now() + timedelta(days=settings.INVITATION_DAYS),
    )


@transaction.atomic
def invitation_accept(*, token: str, user) -> Group:
    """``user`` becomes a host of the invitation's group; the link then stops working."""
    invitation = (
        Invitation.objects.select_for_update().select_related("group").filter(token=token).first()
    )
    if invitation is None or not invitation.is_usable:
        raise ServiceError(
            "This invitation link has been used, cancelled or has expired: "
            "ask the group's host for a new one.",
            "invitation_unusable",
        )
    group = invitation.group
    if group.is_host(user):
        # Already a host: the link stays usable for the person it was meant for.
        return group
    Membership.objects.create(group=group, user=user)
    invitation.accepted_by, invitation.accepted_at = user, timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    return group


@transaction.atomic
def invitation_cancel(*, invitation: Invitation) -> None:
    """Cancel an invitation: its link stops working."""
    invitation.delete()


def _lock_hosts(group: Group) -> list[Membership]:
    # Locking the group row serialises two hosts leaving at the same moment.
    Group.objects.select_for_update().filter(pk=group.pk).first()
    return list(group.memberships.select_related("user"))


@transaction.atomic
def host_leave(*, group: Group, user) -> None:
    """``user`` stops hosting ``group``; the last host cannot leave."""
    hosts = _lock_hosts(group)
    mine = [m for m in hosts if m.user_id == user.pk]
    if not mine:
        raise ServiceError("You do not host this group.", "not_host")
    if len(hosts) == 1:
        raise ServiceError(
            f"You are the last host of {group.name}: invite a co-host before you leave, "
            "so someone can still run the group.",
            "last_host",
        )
    mine[0].delete()


@transaction.atomic
def host_remove(*, group: Group, user, by) -> None:
    """A host removes another host from ``group`` (to leave, a host uses ``host_leave``)."""
    hosts = _lock_hosts(group)
    if not any(m.user_id == by.pk for m in hosts):
        raise ServiceError("Only a host of the group can remove a host.", "not_host")
    if user.pk == by.pk:
        raise ServiceError("To stop hosting the group yourself, leave it.", "remove_self")
    target = [m for m in hosts if m.user_id == user.pk]
    if not target:
        raise ServiceError("That person does not host this group.", "not_a_host")
    target[0].delete()


@transaction.atomic
def email_change(*, user, email: str):
    """Change the e-mail a host's password resets go to."""
    user.email = (email or "").strip()
    user.save(update_fields=["email"])
    return user


@transaction.atomic
def account_create(*, username: str, email: str, password: str):
    """A new host's account (the sign-up form has checked the password)."""
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError("That username is taken: choose another.", "username_taken", "username")
    return User.objects.create_user(username, email=(email or "").strip(), password=password)


@transaction.atomic
def account_create_from_invitation(*, token: str, username: str, email: str, password: str):
    """Sign up from an invitation: the account and the hosting, or neither."""
    user = account_create(username=username, email=email, password=password)
    invitation_accept(token=token, user=user)
    return user
