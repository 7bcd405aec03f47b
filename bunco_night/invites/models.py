"""Player links, answers, substitute calls and messages sent (docs/rules.md section 8.8)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from bunco_night.groups.models import AskSubstitutes, Player
from bunco_night.nights.models import Attendance, Night, new_token


class PlayerLink(models.Model):
    """A player's secret link to the group's upcoming nights."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="link")
    token = models.CharField(max_length=43, unique=True, default=new_token)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Link of {self.player}"


class Answer(models.Model):
    """What a regular said from their link about a night, with a note for the host."""

    class Choice(models.TextChoices):
        COMING = "coming", "Coming"
        ABSENT = "absent", "Not coming"
        SUBSTITUTE = "sub", "Sending a substitute"
        ASK = "ask", "Sending a substitute: asked the group's substitutes"

    attendance = models.OneToOneField(Attendance, on_delete=models.CASCADE, related_name="answer")
    choice = models.CharField(max_length=8, choices=Choice.choices)
    note = models.CharField(max_length=300, blank=True)
    answered = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.attendance.player}: {self.get_choice_display()}"


class SubstituteCall(models.Model):
    """Substitutes asked for a regular's seat, all at once or in turn."""

    Mode = AskSubstitutes

    class Status(models.TextChoices):
        OPEN = "open", "Asking"
        FILLED = "filled", "Seat filled"
        STOPPED = "stopped", "Stopped"
        NOBODY = "nobody", "Nobody can come"

    attendance = models.ForeignKey(Attendance, on_delete=models.CASCADE, related_name="calls")
    mode = models.CharField(max_length=8, choices=Mode.choices, default=Mode.ALL)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    by_player = models.BooleanField(default=False, help_text="The regular asked, not the host.")
    filled_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="seats_taken"
    )
    created = models.DateTimeField(auto_now_add=True)
    closed = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["attendance"],
                condition=models.Q(status="open"),
                name="one_open_call_per_seat",
            )
        ]

    def __str__(self) -> str:
        return f"Substitutes for {self.attendance.player}: {self.get_status_display()}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


def asking_ended(night: Night) -> str:
    """Why asking for ``night``'s seats ended, after "Closed:" (docs/rules.md 8.8), or ""."""
    if night.is_over:
        return "the night is over"
    if night.is_in_play:
        return "the night has started"
    return ""


class SubstituteOffer(models.Model):
    """One substitute asked to take a seat, with their own link to accept or decline."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting their turn"
        ASKED = "asked", "Asked"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        FILLED = "filled", "Someone else took the seat"
        WITHDRAWN = "withdrawn", "No longer needed"

    call = models.ForeignKey(SubstituteCall, on_delete=models.CASCADE, related_name="offers")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="substitute_offers")
    order = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    token = models.CharField(max_length=43, unique=True, default=new_token)
    asked_at = models.DateTimeField(null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["order", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["call", "player"], name="one_offer_per_substitute"),
            # The database decides who takes the seat: one acceptance per call.
            models.UniqueConstraint(
                fields=["call"],
                condition=models.Q(status="accepted"),
                name="one_acceptance_per_call",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} for {self.call.attendance.player}: {self.get_status_display()}"

    @property
    def night(self) -> Night:
        return self.call.attendance.night

    @property
    def is_asked(self) -> bool:
        return self.status == self.Status.ASKED


class Notice(models.Model):
    """A message sent to a player about a night, by e-mail (or prepared as a text)."""

    class Kind(models.TextChoices):
        INVITATION = "invitation", "Invitation"
        REMINDER = "reminder", "Reminder"
        OFFER = "offer", "Asked to substitute"
        FILLED = "filled", "Seat filled"
        WITHDRAWN = "withdrawn", "No longer needed"
        TAKEN = "taken", "Your seat is taken"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="notices")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    email = models.EmailField(blank=True)
    ok = models.BooleanField(default=True)
    sent = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-sent", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.player} ({self.night})"
