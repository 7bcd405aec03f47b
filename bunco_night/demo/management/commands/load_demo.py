"""Load the demo group into an empty database only; ``demo_login`` prints the password."""

from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from bunco_night.demo.demo import password_file, set_demo_password
from bunco_night.groups.models import Group

FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "demo.json"


class Command(BaseCommand):
    help = "Load the demo host and the Maple Street Bunco group into an empty database."

    def handle(self, *args, **options):
        if get_user_model().objects.exists() or Group.objects.exists():
            self.stdout.write("The database already holds data: the demo was not loaded.")
            return
        with transaction.atomic():
            call_command("loaddata", str(FIXTURE), verbosity=0)
            set_demo_password()
        self.stdout.write(f"Loaded the demo group. The host's password is in {password_file()}.")
