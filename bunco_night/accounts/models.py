"""Co-host invitations: a one-time link that makes whoever opens it a host of a group."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from bunco_night.groups.models import Group


def new_invitation_token() -> str:
    """The secret of an invitation link (192 bits from ``secrets``)."""
    return secrets.token_urlsafe(24)


class InvitationQuerySet(models.QuerySet):
    def usable(self) -> InvitationQuerySet:
        """Invitations not yet accepted and not expired."""
        return self.filter(accepted_at__isnull=True, expires__gt=timezone.now())


class Invitation(models.Model):
    """An invitation to co-host a group, used at most once before it expires."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    email = models.EmailField(blank=True, help_text="Where the link was sent, if anywhere.")
    token = models.CharField(max_length=43, unique=True, default=new_invitation_token)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    accepted_at = models.DateTimeField(null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"Invitation to host {self.group}"

    def get_absolute_url(self) -> str:
        return reverse("accounts:invitation", args=[self.token])

    @property
    def is_usable(self) -> bool:
        """Not accepted yet and not expired."""
        return self.accepted_at is None and self.expires > timezone.now()
