"""Load the demo group into an empty database, and never touch one that holds data."""

from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand

from bunco_night.demo.demo import DEMO_PASSWORD, DEMO_USERNAME
from bunco_night.groups.models import Group

FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "demo.json"


class Command(BaseCommand):
    help = "Load the demo host and the Maple Street Bunco group into an empty database."

    def handle(self, *args, **options):
        if get_user_model().objects.exists() or Group.objects.exists():
            self.stdout.write("The database already holds data: the demo was not loaded.")
            return
        call_command("loaddata", str(FIXTURE), verbosity=0)
        self.stdout.write(f"Loaded the demo group. Host login: {DEMO_USERNAME} / {DEMO_PASSWORD}.")
