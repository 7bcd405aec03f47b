"""manage.py backup: a consistent copy of the database in a dated file."""

from django.core.management.base import BaseCommand, CommandError

from bunco_night.ops.backups import BackupError, backup, backup_dir


class Command(BaseCommand):
    help = (
        "Write a consistent copy of the database to a dated file in backups/ "
        "(or DJANGO_BACKUP_DIR, or --dir). Safe while the site is running."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dir", help=f"Where to write it (default {backup_dir()}).")

    def handle(self, *args, **options):
        try:
            path = backup(options["dir"])
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Backed up the database to {path}")
