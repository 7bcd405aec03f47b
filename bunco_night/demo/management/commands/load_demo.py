"""Load the demo group into an empty database only, its calendar moved to today
(``bunco_night.demo.calendar``); ``demo_login`` prints the password."""

import json
import tempfile
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from bunco_night.demo.calendar import dated
from bunco_night.demo.demo import password_file, set_demo_password
from bunco_night.groups.models import Group

FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "demo.json"


class Command(BaseCommand):
    help = "Load the demo host and the Maple Street Bunco group into an empty database."

    def handle(self, *args, **options):
        if get_user_model().objects.exists() or Group.objects.exists():
            self.stdout.write("The database already holds data: the demo was not loaded.")
            return
        records = json.loads(FIXTURE.read_text(encoding="utf-8"))
        records = dated(records, timezone.localdate(), timezone.now())
        with tempfile.TemporaryDirectory() as folder, transaction.atomic():
            moved = Path(folder) / "demo.json"
            moved.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
            call_command("loaddata", str(moved), verbosity=0)
            set_demo_password()
        self.stdout.write(f"Loaded the demo group. The host's password is in {password_file()}.")
