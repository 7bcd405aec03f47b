"""Print how to log in as the demo host, as `make run` shows it."""

from django.core.management.base import BaseCommand

from bunco_night.demo.demo import DEMO_USERNAME, demo_password, password_file


class Command(BaseCommand):
    help = "Print the demo host's username and password (while the password is unchanged)."

    def handle(self, *args, **options):
        password = demo_password()
        if password is not None:
            self.stdout.write(f"Demo host login: username {DEMO_USERNAME}, password {password}")
        elif password_file().is_file():
            self.stdout.write(
                f"Demo host login: username {DEMO_USERNAME}, with the password you chose "
                "(forgot it? see README, Accounts)."
            )
