"""A long document printed in the background: its state, shared by every web process."""

import uuid

from django.conf import settings
from django.db import models


class PrintJob(models.Model):
    """One request to print a long document, and how far it has got; a random id. The PDF under
    ``PRINT_JOBS_DIR`` has secret links: hosts only, kept ``PRINT_JOBS_KEEP``."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting to start"
        RUNNING = "running", "Printing"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    night = models.ForeignKey("nights.Night", on_delete=models.CASCADE, related_name="print_jobs")
    kind = models.CharField(max_length=20)
    options = models.JSONField(default=dict)
    base_url = models.CharField(max_length=200)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    pages = models.PositiveIntegerField(default=0)  # as estimated when asked for
    pieces_done = models.PositiveIntegerField(default=0)
    pieces_total = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    tries = models.PositiveSmallIntegerField(default=1)  # processes that started it
    file = models.CharField(max_length=100, blank=True)  # name under PRINT_JOBS_DIR
    filename = models.CharField(max_length=200)  # the name the host downloads it as
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)  # moves with every piece printed
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "updated"])]

    def __str__(self) -> str:
        return f"{self.kind} for night {self.night_id} ({self.status})"

    @property
    def in_progress(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    @property
    def percent(self) -> int:
        """How much is printed, for the progress bar."""
        if self.status == self.Status.DONE:
            return 100
        if not self.pieces_total:
            return 0
        return min(99, 100 * self.pieces_done // self.pieces_total)
