from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Hosts' accounts: sign-up, password and e-mail, co-host invitations, leaving a group."""

    name = "bunco_night.accounts"
    label = "accounts"
