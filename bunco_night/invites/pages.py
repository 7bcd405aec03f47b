"""What the answers panel, a player's page and an offer page show (no writes)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Max

from bunco_night.groups.models import HostingTurn, Player
from bunco_night.groups.selectors import hosting_turn_on, season_covering
from bunco_night.nights.models import Attendance, Night
from bunco_night.nights.played import Played, in_a_line, left_note, substitute_left, who_played

from .models import Answer, Notice, PlayerLink, SubstituteCall, SubstituteOffer, asking_ended
from .services import already_on_the_list, candidates, nights_to_answer, on_tonights_list


@dataclass
class AnswerRow:
    """A regular of the night with their answer and the substitutes asked for their seat."""

    attendance: Attendance
    answer: Answer | None
    call: SubstituteCall | None
    offers: list[SubstituteOffer] = field(default_factory=list)
    can_ask: bool = False
    ended: str = ""  # why the asking ended with the night (``asking_ended``), else ""
    said: str = ""  # where the row stands, in the panel's words (``_said``)

    @property
    def waiting(self) -> int:
        """Substitutes still waiting their turn."""
        return sum(1 for o in self.offers if o.status == SubstituteOffer.Status.WAITING)

    @property
    def closed_by_night(self) -> bool:
        """The seat was still being asked when the night started or ended."""
        return bool(self.call and self.call.is_open and self.ended)

    @property
    def call_status(self) -> str:
        """The asking's state: "Asking", "Seat filled", or "Closed: ..." once ended."""
        if self.closed_by_night:
            return f"Closed: {self.ended}"
        return self.call.get_status_display() if self.call else ""

    @property
    def offer_lines(self) -> list[tuple[SubstituteOffer, str]]:
        """Each substitute asked, with what became of them (lower case)."""
        Status = SubstituteOffer.Status
        late = {Status.ASKED: "asked, no answer", Status.WAITING: "not asked"}
        if not self.closed_by_night:
            late = {}
        return [(o, late.get(o.status) or o.get_status_display().lower()) for o in self.offers]


@dataclass
class SentSummary:
    kind: str
    label: str
    count: int
    last: object


def answers_context(night: Night) -> dict:
    """The answers panel's context: answers, offers, and what was sent."""
    night.refresh_from_db()
    planning = night.status == Night.Status.PLANNING
    ended = asking_ended(night)
    attendances = list(
        night.attendances.select_related("player", "substitute", "answer").order_by("player__name")
    )
    calls: dict[int, SubstituteCall] = {}
    for call in SubstituteCall.objects.filter(attendance__night=night).order_by("created", "pk"):
        calls[call.attendance_id] = call  # the latest call of each seat
    offers: dict[int, list[SubstituteOffer]] = {}
    for o in SubstituteOffer.objects.filter(call__in=calls.values()).select_related("player"):
        offers.setdefault(o.call_id, []).append(o)
    played = {} if planning else {p.player.pk: p for p in who_played(night)}
    rows = []
    for a in attendances:
        if not a.player.is_regular:
            continue
        call = calls.get(a.pk)
        answer = getattr(a, "answer", None)
        row = AnswerRow(a, answer, call, offers.get(call.pk, []) if call else [], ended=ended)
        row.can_ask = planning and a.is_absent and not (call and call.is_open)
        row.said = _said(a, played, over=night.is_over)
        rows.append(row)
    sent = [
        SentSummary(kind, label, row["count"], row["last"])
        for kind, label in Notice.Kind.choices
        if kind in (Notice.Kind.INVITATION, Notice.Kind.REMINDER)
        for row in [
            night.notices.filter(kind=kind, ok=True).aggregate(count=Count("pk"), last=Max("sent"))
        ]
        if row["count"]
    ]
    news = [r for r in rows if r.answer or r.call or not r.attendance.is_coming]
    return {
        "night": night,
        "group": night.group,
        "planning": planning,
        "over": night.is_over,
        "played": len(played) if night.is_over else None,
        "answer_rows": news,
        "quiet": [r.attendance.player for r in rows if r not in news],
        "answered": sum(1 for r in rows if r.answer),
        "regulars": len(rows),
        "open_calls": sum(1 for r in rows if r.call and r.call.is_open and planning),
        "sent": sent,
        "ask_modes": SubstituteCall.Mode.choices,
    }


def _said(a: Attendance, played: dict[int, Played], *, over: bool) -> str:
    """Where a regular's row stands in words ("coming", "sends Sally Fox"; once ``over``,
    "played", "did not come")."""
    if a.is_coming:
        return ", ".join(
            filter(None, ["played" if over else "coming", in_a_line(played.get(a.player_id))])
        )
    if a.sends_substitute:
        return f"{'sent' if over else 'sends'} {a.substitute.name}"
    if a.has_left:
        note = left_note(a, played)
        return f"played, {note}" if over and not substitute_left(a, played) else note
    return "did not come" if over else "not coming"


@dataclass
class MineNight:
    """A night on a player's own page: where they stand and what they can answer."""

    night: Night
    attendance: Attendance | None  # their own row (a regular's)
    plays_for: Attendance | None  # the row they play on as a substitute
    answer: Answer | None
    call: SubstituteCall | None
    turn: HostingTurn | None
    free_subs: list[Player]
    kept: dict | None = None  # what a form that failed sent for this night (AnswerForm.kept)
    errors: dict = field(default_factory=dict)  # that form's errors, by field
    came_and_went: str = ""  # "You left after round 1" (docs/rules.md section 10), else ""

    @property
    def card_errors(self) -> list[str]:
        """The errors said at the top of the night's card: those of no box shown beside it."""
        beside = {"new_name", "new_phone", "new_email"} | (
            {"substitute"} if self.free_subs else set()
        )
        return [e for name, errors in self.errors.items() if name not in beside for e in errors]

    @property
    def can_answer(self) -> bool:
        return self.attendance is not None and self.night.status == Night.Status.PLANNING

    @property
    def sub_choice(self) -> str:
        """The radio checked under "I'm sending a substitute"."""
        if self.kept and self.kept["substitute_form"]:
            return self.kept["choice"]
        return Answer.Choice.ASK if self.free_subs else Answer.Choice.SUBSTITUTE


def mine_context(link: PlayerLink, today) -> dict:
    """A player's own page: their upcoming nights, and the season's hosting rotation."""
    player = link.player
    nights = []
    for night in nights_to_answer(player, today)[:4]:
        own = night.attendances.select_related("substitute").filter(player=player).first()
        plays_for = night.attendances.select_related("player").filter(substitute=player).first()
        answer = Answer.objects.filter(attendance=own).first() if own else None
        call = own.calls.filter(status=SubstituteCall.Status.OPEN).first() if own else None
        item = MineNight(
            night,
            own,
            plays_for,
            answer,
            call,
            hosting_turn_on(player.group, night.date),
            candidates(own) if own else [],
        )
        if night.status != Night.Status.PLANNING:
            me = next((p for p in who_played(night) if p.player.pk == player.pk), None)
            item.came_and_went = me.came_and_went_to_you if me else ""
        nights.append(item)
    season = season_covering(player.group, today)
    rotation = list(season.rotation.select_related("host")) if season else []
    return {
        "link": link,
        "player": player,
        "group": player.group,
        "nights": nights,
        "season": season,
        "rotation": rotation,
        "my_turns": [t for t in rotation if t.host_id == player.pk],
    }


def offer_context(offer: SubstituteOffer) -> dict:
    offer = SubstituteOffer.objects.select_related(
        "player", "call__attendance__player", "call__attendance__night__group", "call__filled_by"
    ).get(pk=offer.pk)
    """A substitute's offer page: whether the seat is still hers to take (``open``), or
    why not (``ended``: the night started or is over, docs/rules.md section 8.8;
    ``already``: she has a place tonight, said to her)."""
    night = offer.call.attendance.night
    ended = asking_ended(night)
    regular = offer.call.attendance.player
    asked = offer.status in (SubstituteOffer.Status.ASKED, SubstituteOffer.Status.DECLINED)
    asked = asked and offer.call.is_open and not ended
    # She may have a place tonight since she was asked (the host put her on the list).
    already = asked and on_tonights_list(night, offer.player)
    return {
        "offer": offer,
        "night": night,
        "group": night.group,
        "regular": regular,
        "turn": hosting_turn_on(night.group, night.date),
        "ended": ended,
        "already": already_on_the_list(regular) if already else "",
        "open": asked and not already,
    }
