from django.apps import AppConfig


class InvitesConfig(AppConfig):
    """Players answer for themselves: personal links, substitute offers, invitations and
    reminders by e-mail or text."""

    name = "bunco_night.invites"
    label = "invites"

    def ready(self) -> None:
        from bunco_night.nights.signals import place_set_by_host

        place_set_by_host.connect(_calls_follow, dispatch_uid="invites.calls_follow_host")


def _calls_follow(sender, *, attendance, **kwargs) -> None:
    from .messages import site_links
    from .services import calls_follow_host

    calls_follow_host(attendance=attendance, links=site_links())
