"""Settings for Bunco Night, read from the environment.

DJANGO_SECRET_KEY, DJANGO_DEBUG, DJANGO_ALLOWED_HOSTS, DATABASE_URL. SQLite by
default, PostgreSQL when DATABASE_URL says so. With debug off the site refuses to
start without a secret key.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    """A yes/no setting: 1, true, yes and on are yes."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DJANGO_DEBUG")
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. Set it to a long random string, "
            "or set DJANGO_DEBUG=1 on a development machine."
        )
    SECRET_KEY = "insecure-development-key-only-for-DJANGO_DEBUG"

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "bunco_night.core",
    "bunco_night.groups",
    "bunco_night.nights",
    "bunco_night.play",
    "bunco_night.seasons",
    "bunco_night.invites",
    "bunco_night.printing",
    "bunco_night.demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "bunco_night.play.polls.UnchangedPollMiddleware",  # before sessions: polls are hot
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "bunco_night.core.middleware.HtmxLoginRedirectMiddleware",
]

ROOT_URLCONF = "bunco_night.urls"
WSGI_APPLICATION = "bunco_night.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets phones read while one writes; IMMEDIATE takes the write lock at the
    # start of a transaction, so concurrent score taps queue instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "America/Chicago")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or env_bool("DJANGO_PLAIN_STATIC")
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Printing (bunco_night/printing): documents longer than this many pages are made in the
# background; their PDFs wait in PRINT_JOBS_DIR (private: they carry secret links) for
# PRINT_JOBS_KEEP seconds. A job silent for PRINT_JOBS_STALE seconds was lost with its
# process. PRINT_WORKERS processes print the pieces of a long document (0: one per CPU).
PRINT_BACKGROUND_PAGES = int(os.environ.get("DJANGO_PRINT_BACKGROUND_PAGES", "60"))
PRINT_JOBS_DIR = Path(os.environ.get("DJANGO_PRINT_JOBS_DIR", BASE_DIR / "print-jobs"))
PRINT_JOBS_KEEP = int(os.environ.get("DJANGO_PRINT_JOBS_KEEP", str(6 * 3600)))
PRINT_JOBS_STALE = 600
PRINT_WORKERS = int(os.environ.get("DJANGO_PRINT_WORKERS", "0"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "start"
LOGOUT_REDIRECT_URL = "home"

SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# ---------------------------------------------------------------------------
# E-mail: invitations, reminders and substitute offers.
# Messages print on the server's console unless an SMTP server is given:
# DJANGO_EMAIL_HOST (with DJANGO_EMAIL_PORT, DJANGO_EMAIL_HOST_USER,
# DJANGO_EMAIL_HOST_PASSWORD, DJANGO_EMAIL_USE_TLS or DJANGO_EMAIL_USE_SSL), and
# DJANGO_DEFAULT_FROM_EMAIL for the sender. DJANGO_EMAIL_BACKEND overrides the choice.
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", default=not env_bool("DJANGO_EMAIL_USE_SSL"))
EMAIL_USE_SSL = env_bool("DJANGO_EMAIL_USE_SSL")
EMAIL_TIMEOUT = 20
EMAIL_BACKEND = os.environ.get("DJANGO_EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "Bunco Night <bunco@localhost>")
# The site's address for links in messages sent without a request (manage.py
# send_reminders), such as https://bunco.example.com.
SITE_URL = os.environ.get("DJANGO_SITE_URL") or os.environ.get(
    "DJANGO_PUBLIC_URL", "http://localhost:8000"
)
# The site's public address: what phones open from table and player links, QR codes and
# e-mails (http://192.168.1.20:8000 on a home Wi-Fi, https://bunco.example.com on a
# server). `make run` sets it to this computer's Wi-Fi address; empty, links use the address
# the host's browser is on, and the links and print pages warn when that is this computer's
# own (bunco_night/core/links.py).
PUBLIC_URL = os.environ.get("DJANGO_PUBLIC_URL", "")
# ---------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
