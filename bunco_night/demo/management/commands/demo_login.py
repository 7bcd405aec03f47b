"""Print how to log in as the demo host, as `make run` shows it."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from bunco_night.demo.demo import (
    DEMO_USERNAME,
    OLD_DEMO_PASSWORD,
    demo_password,
    password_file,
    set_demo_password,
)


class Command(BaseCommand):
    help = "Print the demo host's username and password (while the password is unchanged)."

    def handle(self, *args, **options):
        password = demo_password()
        host = get_user_model().objects.filter(username=DEMO_USERNAME).first()
        if password is None and host is not None and host.check_password(OLD_DEMO_PASSWORD):
            # A demo loaded by an older version still has the password everyone knew.
            password = set_demo_password()
        if password is not None:
            self.stdout.write(f"Demo host login: username {DEMO_USERNAME}, password {password}")
        elif host is not None and password_file().is_file():
            self.stdout.write(
                f"Demo host login: username {DEMO_USERNAME}, with the password you chose "
                "(forgot it? see README, Accounts)."
            )
