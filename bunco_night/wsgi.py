"""WSGI entry point for gunicorn: Django's application, with the polls that a web process
knows unchanged answered before it (``play.speed.polls.QuickPolls``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bunco_night.settings")
django_application = get_wsgi_application()

from bunco_night.play.speed.polls import QuickPolls  # noqa: E402 (needs Django set up)

application = QuickPolls(django_application)
