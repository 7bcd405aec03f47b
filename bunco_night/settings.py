"""Settings for Bunco Night, read from the environment.

DJANGO_SECRET_KEY, DJANGO_DEBUG, DJANGO_ALLOWED_HOSTS, DATABASE_URL. SQLite by
default, PostgreSQL when DATABASE_URL says so. With debug off the site refuses to
start without a secret key. DJANGO_PRODUCTION=1 is a server behind a TLS proxy:
HTTPS only, HSTS, secure cookies (``manage.py check --deploy`` is clean).
"""

import os
from datetime import timedelta
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
    "django.forms",  # its widget templates, for FORM_RENDERER below
    "django_htmx",
    "template_partials",
    "axes",
    "bunco_night.core",
    "bunco_night.groups",
    "bunco_night.accounts",
    "bunco_night.nights",
    "bunco_night.games",
    "bunco_night.play",
    "bunco_night.seasons",
    "bunco_night.invites",
    "bunco_night.printing",
    "bunco_night.ops",
    "bunco_night.demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "bunco_night.play.speed.polls.UnchangedPollMiddleware",  # before sessions: polls are hot
    "bunco_night.core.speed.after_answer.AfterAnswerMiddleware",
    "csp.middleware.CSPMiddleware",
    "bunco_night.core.middleware.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "bunco_night.core.middleware.HtmxLoginRedirectMiddleware",
    "bunco_night.core.middleware.FormOnlyAddressMiddleware",
    # Last, so it sees the login view's answer; it does nothing on any other request.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # Refuses a locked-out username or address before the password is checked.
    "bunco_night.accounts.backends.LoginLimitBackend",
    "django.contrib.auth.backends.ModelBackend",
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
    # start of a transaction, so concurrent score taps queue (up to 20 s) instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }

# How often the table phones, the live board and the room screen ask for news (a player's
# own page half as often again): every 2 s keeps a night of 500 players at a few hundred
# polls a second (bench/README.md).
POLL_SECONDS = 2.0
# How long the seating TV and the room screen show each page of tables.
PAGE_TURN_SECONDS = 8.0

# On PostgreSQL each web process keeps the versions its phones' polls read and forgets
# them as the database NOTIFYs changes (bunco_night/play/speed/listening.py): an unchanged poll
# needs no query. One more connection a process. DJANGO_POLL_LISTEN=0 turns it off.
POLL_LISTEN = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DJANGO_POLL_LISTEN", True
)

# On PostgreSQL the hot reads and writes of polls and taps are prepared on a connection
# that runs them a second time (bunco_night/core/speed/prepared.py).
# DJANGO_DATABASE_PREPARE=0 turns it off: behind a pooler that hands one connection's
# statements to several database sessions (PgBouncer in transaction mode).
DATABASE_PREPARE = env_bool("DJANGO_DATABASE_PREPARE", True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# At least 8 characters, not a well-known password ("password", "bunco123"), not only digits.
# Django's checks, in the site's words (bunco_night/accounts/passwords.py).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "bunco_night.accounts.passwords.MinimumLengthValidator"},
    {"NAME": "bunco_night.accounts.passwords.CommonPasswordValidator"},
    {"NAME": "bunco_night.accounts.passwords.NumericPasswordValidator"},
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
PRINT_JOBS_STALE = 180  # a running job moves with every piece, a few seconds each
PRINT_WORKERS = int(os.environ.get("DJANGO_PRINT_WORKERS", "0"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "start"
LOGOUT_REDIRECT_URL = "home"

# ---------------------------------------------------------------------------
# Security: headers on every response, production mode, the log.

SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# No inline script or style anywhere (templates carry none; htmx is told not to add its
# indicator style): every page, the phones', the room screen's and the PDFs alike.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "media-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Features no page uses are off; the bell's sound and vibration need none of these.
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), usb=(), fullscreen=(self)"
)

# A server on the internet, behind a TLS proxy such as Caddy (README: "On a server").
PRODUCTION = env_bool("DJANGO_PRODUCTION")
# The proxy says which address a request came from (X-Forwarded-For) and that it was HTTPS.
BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", default=PRODUCTION)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if PRODUCTION:
    if DEBUG:
        raise ImproperlyConfigured("DJANGO_PRODUCTION=1 and DJANGO_DEBUG=1 cannot go together.")
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if not SECURE_HSTS_PRELOAD:
        # Asking browsers to preload the domain is its owner's decision (DJANGO_HSTS_PRELOAD=1).
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
SESSION_COOKIE_HTTPONLY = True

# Login attempts (django-axes, its own table): after DJANGO_LOGIN_FAILURES wrong passwords
# for one username, or from one address, that login waits DJANGO_LOGIN_LOCKOUT_MINUTES.
# Only the login view consults it: the phones' pages never do.
AXES_FAILURE_LIMIT = int(os.environ.get("DJANGO_LOGIN_FAILURES", 5))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("DJANGO_LOGIN_LOCKOUT_MINUTES", 15)))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "bunco_night.accounts.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "bunco_night.core.middleware.client_ip"
AXES_VERBOSE = False

# Forms render with the project's templates: each field's label, help, errors and box come
# in one box of their own (templates/core/_field.html), so a grid of fields keeps them together.
FORM_RENDERER = "bunco_night.core.forms.SiteFormRenderer"

# Who may open an account: "invite" (default) only from a co-host invitation;
# "open" also from the login page, for anyone starting a group.
SIGNUP = os.environ.get("DJANGO_SIGNUP", "invite").strip().lower()
if SIGNUP not in {"invite", "open"}:
    raise ImproperlyConfigured("DJANGO_SIGNUP is 'invite' or 'open'.")
# How long a co-host invitation link works.
INVITATION_DAYS = 7
# Where `make run` keeps the demo host's random password (default: beside db.sqlite3).
DEMO_PASSWORD_FILE = os.environ.get("DJANGO_DEMO_PASSWORD_FILE", "")

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
SERVER_EMAIL = DEFAULT_FROM_EMAIL
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
# The log: on the console, with the secret part of table, player, invitation and
# password-reset links replaced by "…" (core/logging.py; gunicorn.conf.py does the same
# for the access log).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"secrets": {"()": "bunco_night.core.logging.RedactSecrets"}},
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["secrets"], "formatter": "plain"}
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {
        # Failed and locked-out logins: who and from where, never the password.
        "axes": {"level": "WARNING"},
        # runserver's request lines, redacted like gunicorn's access log.
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
