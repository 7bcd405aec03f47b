"""Rebuild fixtures/demo.json from ``bunco_night.demo.demo.build_demo``, without secrets."""

import io
import json
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test.utils import setup_databases, teardown_databases

from bunco_night.demo.demo import build_demo, without_secrets

FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "demo.json"
APPS = ["auth.user", "groups", "nights", "play", "seasons", "invites"]


class Command(BaseCommand):
    help = "Build the demo group in a scratch database and write fixtures/demo.json."
    requires_system_checks = []

    def handle(self, *args, **options):
        if connection.vendor != "sqlite":
            raise CommandError("Run build_demo with the default SQLite settings.")
        old = setup_databases(verbosity=0, interactive=False)
        try:
            build_demo()
            dump = io.StringIO()
            call_command("dumpdata", *APPS, natural_foreign=True, stdout=dump)
            records = without_secrets(json.loads(dump.getvalue()))
            FIXTURE.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
        finally:
            teardown_databases(old, verbosity=0)
        self.stdout.write(f"Wrote {FIXTURE}.")
