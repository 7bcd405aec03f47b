"""Send the reminder of every night a few days away, once: for a daily cron job."""

import datetime as dt

from django.core.management.base import BaseCommand
from django.utils import timezone

from bunco_night.invites.messages import site_links
from bunco_night.invites.models import Notice
from bunco_night.invites.services import invitations_send
from bunco_night.nights.models import Night


class Command(BaseCommand):
    help = (
        "E-mail the reminder of each night DAYS days from today (3 by default) to everyone "
        "playing, unless a reminder was already sent for it. Links use DJANGO_SITE_URL."
    )

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=3, help="How many days ahead.")

    def handle(self, *args, days: int, **options):
        date = timezone.localdate() + dt.timedelta(days=days)
        nights = Night.objects.filter(date=date, status=Night.Status.PLANNING).exclude(
            notices__kind=Notice.Kind.REMINDER
        )
        for night in nights.select_related("group"):
            report = invitations_send(night=night, kind=Notice.Kind.REMINDER, links=site_links())
            self.stdout.write(
                f"{night}: {len(report.sent)} sent, {len(report.failed)} failed, "
                f"{len(report.no_email)} without e-mail."
            )
