"""A player's history with the group: nights, results, prizes, dues, substitutes sent."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Max, Min, Q, Sum

from bunco_night.groups.models import Player, Season
from bunco_night.nights.models import Attendance, Night, Round, Seat
from bunco_night.nights.played import Played
from bunco_night.nights.selectors import DuesAccount, DuesRow, dues_accounts
from bunco_night.play.standings import night_standings

from .charts import BUNCOS, WINS, Column, column_chart


@dataclass(frozen=True)
class Results:
    wins: int = 0
    losses: int = 0
    buncos: int = 0
    mini_buncos: int = 0
    first_round: int | None = None  # the first and last rounds they played that night
    last_round: int | None = None

    @property
    def rounds(self) -> int:
        return self.wins + self.losses


@dataclass
class HistoryNight:
    """One night in a player's history."""

    night: Night
    role: str  # how they were on the night's list, in words
    results: Results | None  # None: did not play a round
    rank: int | None = None
    tied: bool = False
    players: int = 0
    prizes: list[tuple[str, int]] = field(default_factory=list)
    dues: DuesRow | None = None


@dataclass
class History:
    player: Player
    nights: list[HistoryNight]  # latest first
    account: DuesAccount
    subs_sent: list[tuple[Night, Player]]
    seasons: list[Season]

    @property
    def played(self) -> list[HistoryNight]:
        return [h for h in self.nights if h.results is not None]

    @property
    def totals(self) -> Results:
        played = [h.results for h in self.played]
        return Results(
            sum(r.wins for r in played),
            sum(r.losses for r in played),
            sum(r.buncos for r in played),
            sum(r.mini_buncos for r in played),
        )

    @property
    def prizes_won(self) -> int:
        return sum(len(h.prizes) for h in self.nights)

    @property
    def money_won_cents(self) -> int:
        return sum(amount for h in self.nights for _, amount in h.prizes)

    @property
    def dues_paid_cents(self) -> int:
        return sum(r.paid_cents for r in self.account.rows)

    def chart(self):
        """Wins and buncos night by night, oldest first."""
        played = list(reversed(self.played))
        return column_chart(
            f"results-{self.player.pk}",
            f"{self.player.name}: wins and buncos night by night",
            [
                Column(
                    f"{h.night.date.month}/{h.night.date.day}", (h.results.wins, h.results.buncos)
                )
                for h in played
            ],
            [("Wins", WINS), ("Buncos", BUNCOS)],
        )


def _role(a: Attendance, player: Player) -> str:
    if a.substitute_id == player.pk:
        return f"Played for {a.player.name}"
    if a.is_coming:
        return "Played" if player.is_regular else "Came as a guest"
    if a.sends_substitute:
        return f"Sent {a.substitute.name}"
    if a.has_left:
        return "Left early"
    return "Not coming, no substitute"


def _came_and_went(role: str, player: Player, a: Attendance | None, results) -> str:
    """``role`` with when the player came or left that night (docs/rules.md section 10)."""
    if results is None:
        return role
    left = a is None or (a.has_left and a.player_id == player.pk)
    note = Played(player, a, left, results.last_round, results.first_round).came_and_went
    if not note:
        return role
    return note if role == "Left early" else f"{role} · {note}"


def player_history(player: Player, *, season: Season | None = None) -> History:
    """Every night ``player`` was on the list or played, latest first (only ``season``'s
    nights if given)."""
    attendances = Attendance.objects.filter(Q(player=player) | Q(substitute=player))
    if season is not None:
        attendances = attendances.filter(night__date__range=(season.starts, season.ends))
    attendances = list(
        attendances.select_related("night", "player", "substitute").order_by(
            "-night__date", "-night__pk"
        )
    )
    results = {
        row["round__night_id"]: Results(
            row["wins"],
            row["losses"],
            row["buncos"] or 0,
            row["minis"] or 0,
            row["first"],
            row["last"],
        )
        for row in Seat.objects.filter(
            player=player, round__status=Round.Status.CLOSED, won__isnull=False
        )
        .values("round__night_id")
        .annotate(
            wins=Count("pk", filter=Q(won=True)),
            losses=Count("pk", filter=Q(won=False)),
            buncos=Sum("buncos"),
            minis=Sum("mini_buncos"),
            first=Min("round__number"),
            last=Max("round__number"),
        )
    }
    account = dues_accounts(player.group, [player.pk])[player.pk]
    dues = {r.attendance.pk: r for r in account.rows}
    # A substitute who played and left has no row, but her rounds count.
    listed = {a.night_id for a in attendances}
    left = Night.objects.filter(pk__in=set(results) - listed)
    if season is not None:
        left = left.filter(date__range=(season.starts, season.ends))
    places = [(a.night, a, _role(a, player)) for a in attendances]
    places += [(n, None, "Played") for n in left]
    places.sort(key=lambda place: (place[0].date, place[0].pk), reverse=True)
    nights = []
    for night, a, role in places:
        if a is not None and a.has_left and night.pk not in results:
            role = "Sent a substitute, who left early"  # she never sat: her substitute did
        role = _came_and_went(role, player, a, results.get(night.pk))
        entry = HistoryNight(night, role, results.get(night.pk))
        if a is not None and a.player_id == player.pk:
            entry.dues = dues.get(a.pk)
        if entry.results is not None:
            ns = night_standings(night)
            mine = next((s for s in ns.standings if s.player == player.pk), None)
            if mine is not None:
                entry.rank, entry.tied, entry.players = mine.rank, mine.tied, len(ns.standings)
            entry.prizes = [
                (row.prize.title, cents)
                for row in ns.prize_rows
                for won, _paid, cents in row.lines
                if won.pk == player.pk
            ]
        nights.append(entry)
    sent = [
        (a.night, a.substitute) for a in attendances if a.player_id == player.pk and a.substitute
    ]
    return History(player, nights, account, sent, list(player.group.seasons.all()))
