from django.apps import AppConfig


class InvitesConfig(AppConfig):
    """Players answer for themselves: personal links, substitute offers, invitations and
    reminders by e-mail or text."""

    name = "bunco_night.invites"
    label = "invites"
