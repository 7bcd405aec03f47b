"""Security headers on every page type, no cache for secret links, no probing of other
hosts' nights, production settings that pass `check --deploy`, and a log without secrets."""

import logging
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.urls import reverse

from bunco_night.core.logging import RedactSecrets, redact
from bunco_night.nights.models import Night
from tests.factories import make_night, make_user
from tests.play.helpers import start_night

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def night(group):
    night = make_night(group, sets=1)
    start_night(night)
    return night


def page_types(night):
    """One URL of every kind of page: host, phone, player, room screen, PDF, login."""
    table = night.tables.get(number=1)
    attendance = night.attendances.first()
    return {
        "host": reverse("groups:detail", args=[night.group.slug]),
        "night": reverse("nights:detail", args=[night.pk]),
        "live board": reverse("play:live", args=[night.pk]),
        "links": reverse("play:links", args=[night.pk]),
        "room screen": reverse("play:room", args=[night.pk]),
        "table phone": reverse("play:table", args=[table.token]),
        "player": reverse("play:player", args=[attendance.token]),
        "pdf": reverse("printing:table_cards", args=[night.pk]),
        "results csv": reverse("ops:night_results", args=[night.pk]),
        "login": reverse("login"),
        "not found": "/t/no-such-link/",
    }


@pytest.mark.django_db
def test_every_page_type_has_the_csp_and_security_headers(client, night):
    for kind, url in page_types(night).items():
        response = client.get(url)
        assert response.status_code in (200, 302, 404), kind
        csp = response.get("Content-Security-Policy", "")
        assert "default-src 'self'" in csp, kind
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, kind
        assert "frame-ancestors 'none'" in csp, kind
        assert "camera=()" in response.get("Permissions-Policy", ""), kind
        assert response["X-Content-Type-Options"] == "nosniff", kind
        assert response["Referrer-Policy"] == "same-origin", kind


@pytest.mark.django_db
def test_secret_links_and_the_pages_behind_them_are_never_stored(client, night):
    table = night.tables.get(number=1)
    attendance = night.attendances.first()
    urls = [
        reverse("play:links", args=[night.pk]),
        reverse("printing:table_cards", args=[night.pk]),
        reverse("play:table", args=[table.token]),
        reverse("play:table_state", args=[table.token]),
        reverse("play:player", args=[attendance.token]),
        reverse("play:player_state", args=[attendance.token]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url


@pytest.mark.django_db
@pytest.mark.parametrize("poll", ["play:live_state", "play:room_state"])
def test_probing_another_hosts_night_answers_as_for_a_missing_night(client, night, poll):
    client.force_login(make_user("stranger"))
    missing = (Night.objects.order_by("-pk").first().pk or 0) + 1000
    night.refresh_from_db()
    current = f"{night.version}.{night.scores_version}"
    answers = set()
    for pk in (night.pk, missing):
        for v in ("", current, "1.1", "x"):
            response = client.get(reverse(poll, args=[pk]), {"v": v})
            # The page's CSRF token is masked afresh on every answer.
            body = re.sub(rb"[A-Za-z0-9]{64}", b"", response.content)
            answers.add((response.status_code, body))
    assert len(answers) == 1 and answers.pop()[0] == 404
    client.force_login(night.group.hosts.get())
    assert client.get(reverse(poll, args=[night.pk]), {"v": current}).status_code == 204


def run_manage(*args, **env):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", **env},
    )


PRODUCTION = {
    "DJANGO_PRODUCTION": "1",
    "DJANGO_SECRET_KEY": "k3y-" + "a1B2c3D4e5F6g7H8i9J0" * 3,
    "DJANGO_ALLOWED_HOSTS": "bunco.example.com",
}


def test_check_deploy_is_clean_in_production_mode():
    done = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_warns_outside_production_mode():
    env = {k: v for k, v in PRODUCTION.items() if k != "DJANGO_PRODUCTION"}
    done = run_manage("check", "--deploy", "--fail-level", "WARNING", **env)
    assert done.returncode != 0
    assert "SECURE_SSL_REDIRECT" in done.stdout + done.stderr


def test_production_mode_refuses_debug():
    done = run_manage("check", DJANGO_DEBUG="1", **PRODUCTION)
    assert done.returncode != 0 and "cannot go together" in done.stderr


@pytest.mark.parametrize(
    ("line", "logged"),
    [
        ('"GET /t/AbC-123_xyz/ HTTP/1.1" 200', '"GET /t/…/ HTTP/1.1" 200'),
        ("POST /t/AbC-123_xyz/entry/", "POST /t/…/entry/"),
        ("GET /t/AbC/state/?v=3.1", "GET /t/…/state/?v=3.1"),
        ("GET /p/Zz9/state/?v=2", "GET /p/…/state/?v=2"),
        ("Referer: http://10.0.0.5:8000/p/Zz9/", "Referer: http://10.0.0.5:8000/p/…/"),
        ("GET /accounts/invite/s3cret/", "GET /accounts/invite/…/"),
        ("GET /accounts/reset/MQ/c5f-abc123/", "GET /accounts/reset/MQ/…/"),
        ("GET /nights/4/links/ 200", "GET /nights/4/links/ 200"),
        ("GET /static/css/site.css", "GET /static/css/site.css"),
    ],
)
def test_the_log_never_shows_a_secret_link(line, logged):
    assert redact(line) == logged


def test_django_log_records_are_redacted():
    record = logging.LogRecord(
        "django.request", logging.WARNING, __file__, 1, "Bad Request: %s", ("/t/AbCd/entry/",), None
    )
    assert RedactSecrets().filter(record)
    assert record.getMessage() == "Bad Request: /t/…/entry/"


def test_the_gunicorn_access_log_is_redacted():
    from gunicorn.config import Config

    namespace: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), namespace)
    logger = namespace["RedactingLogger"](Config())
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/t/AbCd123/state/?v=1.2",
        "PATH_INFO": "/t/AbCd123/state/",
        "QUERY_STRING": "v=1.2",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "10.0.0.9",
        "HTTP_REFERER": "http://10.0.0.2:8000/t/AbCd123/",
    }
    resp = SimpleNamespace(status="204 No Content", sent=0, headers=[])
    req = SimpleNamespace(headers=[("REFERER", "http://10.0.0.2:8000/t/AbCd123/")])
    atoms = logger.atoms(resp, req, environ, timedelta(milliseconds=3))
    line = logger.cfg.access_log_format % atoms
    assert "AbCd123" not in line
    assert "/t/…/state/?v=1.2" in line and "http://10.0.0.2:8000/t/…/" in line


def _gunicorn(port: int, **env) -> subprocess.Popen:
    """gunicorn as `make run` starts it (one worker), its log on a pipe."""
    return subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "-c",
            "gunicorn.conf.py",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--no-control-socket",
            "bunco_night.wsgi",
        ],
        cwd=ROOT,
        env={**os.environ, **env},
        stderr=subprocess.PIPE,
        text=True,
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_gunicorn_names_where_it_listens_though_each_worker_opens_its_own_socket():
    """``reuse_port`` leaves gunicorn's arbiter without a socket; its start line still
    names the address to open."""
    port = _free_port()
    server = _gunicorn(port)
    try:
        lines = []
        for line in server.stderr:
            lines.append(line)
            if "Using worker" in line:
                break
    finally:
        server.terminate()
        server.wait(timeout=60)  # a worker still warming up stops when it is ready
    listening = [line for line in lines if "Listening at:" in line]
    assert len(listening) == 1, lines
    assert f"Listening at: http://127.0.0.1:{port} (" in listening[0]


def test_gunicorn_s_arbiter_and_workers_log_in_one_time_zone():
    """A worker's lines after Django has set the site's time zone (its exit), and the
    arbiter's, carry the same UTC offset: the site's, wherever the machine's clock is."""
    port = _free_port()
    # The site in Chicago, the machine in UTC: the zones differ all year.
    server = _gunicorn(port, TZ="UTC", DJANGO_TIME_ZONE="America/Chicago")
    lines = []
    try:
        for line in server.stderr:
            lines.append(line)
            if "Booting worker" in line:
                break
        # The worker has loaded the site's settings once Django answers (it opens its own
        # socket, reuse_port, after the line above).
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/manifest.webmanifest", timeout=30)
                break
            except urllib.error.HTTPError:  # an answer all the same
                break
            except urllib.error.URLError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        server.terminate()
        lines += server.stderr.read().splitlines(keepends=True)
        server.wait(timeout=60)  # a worker still warming up stops when it is ready
    assert any("Worker exiting" in line for line in lines), lines
    offsets = {re.match(r"\[[^]]* ([+-]\d{4})\]", line)[1] for line in lines if line[:1] == "["}
    assert offsets in ({"-0600"}, {"-0500"}), lines


def test_gunicorn_names_each_kind_of_address_it_binds():
    from gunicorn.config import Config

    namespace: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), namespace)
    cfg = Config()
    cfg.set("bind", ["0.0.0.0:8000", "[::]:8001", "unix:/run/bunco.sock"])
    assert (
        namespace["listening_at"](cfg)
        == "http://0.0.0.0:8000,http://[::]:8001,unix:/run/bunco.sock"
    )
