"""A long document is printed in the background: the host sees its progress, then the PDF.

Most tests run the job in the test's own thread (``job_run``); the last ones let the
web process's print thread run it, as a host's click does, and follow the job's page.
"""

import datetime as dt
import os
import time

import pytest
from django.urls import reverse
from django.utils import timezone

from bunco_night.groups.models import Player
from bunco_night.printing import jobs, printouts
from bunco_night.printing.documents import parts
from bunco_night.printing.models import PrintJob
from tests.factories import make_group, make_night, make_user

from .helpers import url
from .pdftools import page_count, pages_text, qr_codes
from .test_documents import playing

pytestmark = pytest.mark.django_db


@pytest.fixture
def background(settings):
    """Any document longer than 5 pages is printed in the background."""
    settings.PRINT_BACKGROUND_PAGES = 5
    return settings


def start(client, night, name="tally_sheets", **query):
    """Ask for a document; return its job (not yet run) and the page the host lands on."""
    response = client.get(url(name, night), query)
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert response["Location"] == reverse("printing:job", args=[night.pk, job.pk])
    return job, response["Location"]


def test_a_long_document_becomes_a_job_whose_page_shows_progress_then_the_pdf(
    client, played, background, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as started:
        job, job_url = start(client, played, blank="2")
    assert len(started) == 1  # handed to the print thread once the job is saved
    assert job.kind == "tally_sheets" and job.options["blank"] == 2 and job.pages == 14

    page = client.get(job_url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Waiting to start" in html and "about 14 pages" in html
    assert 'hx-trigger="every 1s"' in html  # htmx polls the status...
    assert '<noscript><meta http-equiv="refresh"' in html  # ...and without JS the page reloads
    assert f'href="{job_url}"' in html  # or the host checks again
    assert "no-store" in page["Cache-Control"]

    jobs.job_run(job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE
    assert job.pieces_done == job.pieces_total == 1

    html = client.get(job_url).content.decode()
    assert "The PDF is ready" in html and "hx-trigger" not in html and "refresh" not in html
    pdf_url = reverse("printing:job_pdf", args=[played.pk, job.pk])
    assert f'href="{pdf_url}"' in html

    response = client.get(pdf_url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        'inline; filename="maple-street-bunco-2026-12-05-tally-sheets.pdf"'
    )
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    pdf = b"".join(response.streaming_content)
    assert page_count(pdf) == 14
    assert pages_text(pdf)[0].lstrip().startswith("Regular 1")
    codes = qr_codes(pdf)
    assert codes[0][0].startswith("http://testserver/p/")
    assert client.get(codes[0][0]).status_code == 200


def test_htmx_gets_the_status_alone_which_stops_polling_when_the_pdf_is_ready(
    client, played, background
):
    job, job_url = start(client, played)
    fragment = client.get(job_url, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="job-status"')
    assert "<html" not in fragment and 'hx-trigger="every 1s"' in fragment
    PrintJob.objects.filter(pk=job.pk).update(
        status=PrintJob.Status.RUNNING, pieces_done=1, pieces_total=4
    )
    fragment = client.get(job_url, HTTP_HX_REQUEST="true").content.decode()
    assert "1 of 4 parts printed" in fragment and 'value="25"' in fragment
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.QUEUED)
    jobs.job_run(job.pk)
    fragment = client.get(job_url, HTTP_HX_REQUEST="true").content.decode()
    assert "The PDF is ready" in fragment and "hx-trigger" not in fragment


def test_asking_again_while_a_job_runs_joins_it_rather_than_starting_another(
    client, played, background
):
    first, _ = start(client, played)
    response = client.get(url("tally_sheets", played))
    assert response["Location"].endswith(f"/jobs/{first.pk}/")
    other = client.get(url("tally_sheets", played), {"blank": "1"})  # another document
    assert PrintJob.objects.count() == 2 and not other["Location"].endswith(f"{first.pk}/")


def test_a_job_that_fails_says_so_clearly_and_offers_to_try_again(
    client, played, background, monkeypatch
):
    job, job_url = start(client, played, blank="2")

    def broken(*args, **kwargs):
        raise RuntimeError("the printer caught fire")

    monkeypatch.setattr(printouts, "printout", broken)
    jobs.job_run(job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED and job.error == jobs.FAILED_MESSAGE
    html = client.get(job_url).content.decode()
    assert "The PDF could not be made" in html
    assert "caught fire" not in html  # the details go to the log, not to the page
    assert f'href="{url("tally_sheets", played)}?blank=2"' in html  # try again
    assert client.get(reverse("printing:job_pdf", args=[played.pk, job.pk])).status_code == 404


def lose(job):
    """The job's process went away mid-print: its row stopped moving long ago."""
    PrintJob.objects.filter(pk=job.pk).update(
        status=PrintJob.Status.RUNNING,
        pieces_done=1,
        updated=timezone.now() - dt.timedelta(minutes=11),
    )


def test_a_job_lost_with_its_process_is_printed_again_once_then_shown_as_failed(
    client, played, background, django_capture_on_commit_callbacks
):
    job, job_url = start(client, played)
    lose(job)
    with django_capture_on_commit_callbacks() as submitted:
        html = client.get(job_url).content.decode()
    job.refresh_from_db()
    assert (job.status, job.tries, job.pieces_done) == (PrintJob.Status.QUEUED, 2, 0)
    assert len(submitted) == 1 and "Waiting to start" in html  # this process prints it
    # The first process comes back to life: only one of the two prints it.
    jobs.job_run(job.pk)
    jobs.job_run(job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and jobs.job_file(job) is not None
    # Lost a second time, it is failed with a message, and not printed a third time.
    lose(job)
    with django_capture_on_commit_callbacks() as submitted:
        html = client.get(job_url).content.decode()
    assert not submitted and "The printing stopped twice" in html
    assert PrintJob.objects.get().status == PrintJob.Status.FAILED


@pytest.mark.parametrize("view", ["job", "job_pdf"])
def test_only_a_host_of_the_nights_group_sees_a_job_or_its_pdf(client, played, background, view):
    job, _ = start(client, played)
    jobs.job_run(job.pk)
    address = reverse(f"printing:{view}", args=[played.pk, job.pk])
    assert client.get(address).status_code == 200

    # Another night's address with this job's id: not found.
    other_night = make_night(played.group)
    assert client.get(reverse(f"printing:{view}", args=[other_night.pk, job.pk])).status_code == 404
    # A host of another group: not found.
    other = make_user("other-host")
    make_group(user=other, name="Other group")
    client.force_login(other)
    assert client.get(address).status_code == 404
    # Nobody logged in: sent to log in.
    client.logout()
    response = client.get(address)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_pdf_file_is_readable_by_the_site_alone(client, played, background):
    job, _ = start(client, played)
    jobs.job_run(job.pk)
    job.refresh_from_db()
    path = jobs.job_file(job)
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o077 == 0


def test_old_finished_jobs_and_their_files_are_deleted_and_recent_ones_kept(
    client, played, background, settings
):
    job, _ = start(client, played)
    jobs.job_run(job.pk)
    job.refresh_from_db()
    kept_path = jobs.job_file(job)
    old = PrintJob.objects.create(
        night=played, kind="roster", filename="old.pdf", status=PrintJob.Status.DONE, file="old.pdf"
    )
    old_path = jobs.jobs_dir() / "old.pdf"
    old_path.write_bytes(b"%PDF-")
    stray = jobs.jobs_dir() / "stray.pdf.part"  # a file no job names, left by a crash
    stray.write_bytes(b"%PDF-")
    long_ago = timezone.now() - dt.timedelta(seconds=settings.PRINT_JOBS_KEEP + 60)
    PrintJob.objects.filter(pk=old.pk).update(finished=long_ago)
    two_days = long_ago.timestamp() - 86400
    os.utime(stray, (two_days, two_days))

    assert jobs.jobs_clean() == 2
    assert not old_path.exists() and not stray.exists()
    assert not PrintJob.objects.filter(pk=old.pk).exists()
    assert kept_path.exists() and PrintJob.objects.filter(pk=job.pk).exists()

    # A new job cleans up too: the day after, nothing of today's is left.
    PrintJob.objects.filter(pk=job.pk).update(finished=long_ago)
    start(client, make_night(played.group, date=dt.date(2026, 12, 12)))
    assert not kept_path.exists() and not PrintJob.objects.filter(pk=job.pk).exists()


def test_a_short_document_is_printed_at_once(client, played):
    response = client.get(url("tally_sheets", played))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert not PrintJob.objects.exists()


# The print thread, as the site runs it ------------------------------------------------------


def follow(client, job_url: str, timeout: float = 300) -> bytes:
    """Check the job's page as the host would until the PDF is ready; return the PDF."""
    deadline = time.monotonic() + timeout
    while "The PDF is ready" not in (html := client.get(job_url).content.decode()):
        assert "could not be made" not in html and "stopped" not in html
        assert time.monotonic() < deadline, html
        time.sleep(0.2)
    response = client.get(job_url + "pdf/")
    assert response.status_code == 200
    return b"".join(response.streaming_content)


@pytest.mark.django_db(transaction=True)
def test_the_print_thread_prints_the_job_in_pieces_while_the_page_is_checked(
    client, background, monkeypatch
):
    host = make_user()
    client.force_login(host)
    group = make_group(user=host, name="Maple Street Bunco")
    night = make_night(group, sets=1)
    monkeypatch.setattr(parts, "PIECE_PAGES", 5)
    response = client.get(url("tally_sheets", night), {"blank": "3"})
    pdf = follow(client, response["Location"])
    assert page_count(pdf) == 15
    pages = pages_text(pdf)
    for attendance, page in zip(playing(night), pages, strict=False):
        assert page.lstrip().startswith(attendance.plays.name)
    assert all("Name" in page for page in pages[12:])
    job = PrintJob.objects.get()
    assert job.pieces_done == job.pieces_total == 3


@pytest.mark.slow  # about 15-30 s: 500 pages, each with its own QR code
@pytest.mark.django_db(transaction=True)
def test_tally_sheets_for_500_players_one_page_each(client, host):
    group = make_group(user=host, regulars=0, substitutes=0, name="Big Hall Bunco")
    Player.objects.bulk_create(Player(group=group, name=f"Player {i:03d}") for i in range(500))
    night = make_night(group, sets=1)
    response = client.get(url("tally_sheets", night))
    # 500 pages: made in the background, so the web worker answers at once. How long
    # the job takes is bench/print_bench.py's business, not a test's.
    assert response.status_code == 302
    pdf = follow(client, response["Location"])
    assert page_count(pdf) == 500
    first, second = pages_text(pdf, 1, 2)
    assert first.lstrip().startswith("Player 000")
    assert second.lstrip().startswith("Player 001")
    assert pages_text(pdf, 500)[0].lstrip().startswith("Player 499")
