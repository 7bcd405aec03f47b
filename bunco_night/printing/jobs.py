"""Printing a long document in the background, in this process's print thread, into
``PRINT_JOBS_DIR``. A job idle past ``PRINT_JOBS_STALE`` is taken over once, then fails."""

from __future__ import annotations

import datetime as dt
import logging
import os
import secrets
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from bunco_night.nights.models import Night

from . import printouts
from .models import PrintJob
from .pdf import print_pieces

log = logging.getLogger(__name__)

FAILED_MESSAGE = (
    "The PDF could not be made: something went wrong while printing it. "
    "Try again; if it fails again, the site's log says what went wrong."
)

# One job at a time per web process: a job already uses every core for its pieces.
_runner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="print-job")

MAX_TRIES = 2  # the first process, and one that takes a lost job over


def jobs_dir() -> Path:
    path = Path(settings.PRINT_JOBS_DIR)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def _keep() -> dt.timedelta:
    return dt.timedelta(seconds=settings.PRINT_JOBS_KEEP)


def _stale() -> dt.timedelta:
    return dt.timedelta(seconds=settings.PRINT_JOBS_STALE)


def job_start(
    *, night: Night, kind: str, options: printouts.Options, base_url: str, user, pages: int
) -> PrintJob:
    """The job under way for this document, else a new one, started after commit."""
    jobs_clean()
    fresh = timezone.now() - _stale()
    same = PrintJob.objects.filter(
        night=night,
        kind=kind,
        options=options.as_dict(),
        status__in=[PrintJob.Status.QUEUED, PrintJob.Status.RUNNING],
        updated__gte=fresh,
    ).first()
    if same is not None:
        return same
    job = PrintJob.objects.create(
        night=night,
        kind=kind,
        options=options.as_dict(),
        base_url=base_url,
        requested_by=user,
        pages=pages,
        filename=printouts.printout_filename(kind, night, options),
    )
    _submit_on_commit(job.pk)
    return job


def _submit_on_commit(job_id) -> None:
    transaction.on_commit(lambda: _runner.submit(_run_in_thread, job_id))


def _run_in_thread(job_id) -> None:
    close_old_connections()
    try:
        job_run(job_id)
    finally:
        connection.close()  # this thread's own connection


def job_run(job_id) -> None:
    """Print the job's document into its file; on any error, record that it failed."""
    try:
        # Claim it: of two processes that may hold it (one took a lost job over), one runs it.
        claimed = PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.QUEUED).update(
            status=PrintJob.Status.RUNNING, updated=timezone.now()
        )
        if not claimed:
            return
        job = PrintJob.objects.select_related("night__group").get(pk=job_id)
        options = printouts.Options(**job.options)
        printout = printouts.printout(job.kind, job.night, base_url=job.base_url, options=options)

        def progress(done: int, total: int) -> None:
            PrintJob.objects.filter(pk=job.pk).update(
                pieces_done=done, pieces_total=total, updated=timezone.now()
            )

        progress(0, len(printout.pieces.contexts))
        pdf = print_pieces(printout.pieces, base_url=job.base_url, progress=progress)
        name = f"{job.pk}-{secrets.token_hex(8)}.pdf"
        _write_private(jobs_dir() / name, pdf)
        PrintJob.objects.filter(pk=job.pk).update(
            status=PrintJob.Status.DONE, file=name, finished=timezone.now()
        )
    except Exception:
        log.exception("Print job %s failed", job_id)
        PrintJob.objects.filter(pk=job_id).update(
            status=PrintJob.Status.FAILED, error=FAILED_MESSAGE, finished=timezone.now()
        )


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` readable by this user only; the file appears whole or not at all."""
    partial = path.with_suffix(".part")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(partial, path)


def job_file(job: PrintJob) -> Path | None:
    """The finished PDF on disk, if the job is done and the file is still there."""
    if job.status != PrintJob.Status.DONE or not job.file:
        return None
    path = jobs_dir() / job.file
    return path if path.is_file() else None


LOST_MESSAGE = "The printing stopped twice (the server restarted). Please ask for it again."


def job_refresh(job: PrintJob) -> PrintJob:
    """The job as it stands; one lost with its process is taken over (or failed)."""
    job.refresh_from_db()
    if job.in_progress and job.updated < timezone.now() - _stale():
        lost = PrintJob.objects.filter(pk=job.pk, updated=job.updated)
        if job.tries < MAX_TRIES:
            taken = lost.update(
                status=PrintJob.Status.QUEUED,
                tries=job.tries + 1,
                pieces_done=0,
                updated=timezone.now(),
            )
            if taken:
                log.warning("Print job %s was lost with its process: printing it again", job.pk)
                _submit_on_commit(job.pk)
        else:
            lost.update(status=PrintJob.Status.FAILED, error=LOST_MESSAGE, finished=timezone.now())
        job.refresh_from_db()
    return job


def jobs_clean(now: dt.datetime | None = None) -> int:
    """Delete jobs and files older than ``PRINT_JOBS_KEEP``; returns the files deleted."""
    now = now or timezone.now()
    cutoff = now - _keep()
    old = PrintJob.objects.filter(finished__lt=cutoff)
    names = [name for name in old.values_list("file", flat=True) if name]
    old.delete()
    removed = 0
    folder = jobs_dir()
    known = set(PrintJob.objects.exclude(file="").values_list("file", flat=True))
    for path in folder.iterdir():
        if path.name in known:
            continue
        modified = dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.UTC)
        if path.name in names or modified < cutoff:
            path.unlink(missing_ok=True)
            removed += 1
    return removed
