"""manage.py restore FILE: bring a backup back into an empty database."""

from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from bunco_night.ops.backups import BackupError, check_backup_file, check_empty, restore


class Command(BaseCommand):
    help = (
        "Restore a file made by manage.py backup into an empty database, then migrate it. "
        "Stop the site first."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The backup file (backups/bunco-night-….sqlite3).")
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="Do not ask for confirmation.",
        )

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            check_backup_file(path)
            check_empty()
            if options["interactive"]:
                where = connection.settings_dict["NAME"]
                answer = input(
                    f"Restore {path} into the database {where}? It is empty now. "
                    "Type 'yes' to go on: "
                )
                if answer.strip().lower() != "yes":
                    raise CommandError("Restore cancelled: nothing was changed.")
            restore(path)
        except BackupError as error:
            raise CommandError(str(error)) from None
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write(f"Restored {path}. Start the site and log in as before.")
