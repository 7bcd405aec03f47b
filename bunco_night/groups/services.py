"""Changes to a group, its roster, rules, prizes, seasons and rotation (one transaction each)."""

from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.text import slugify

from bunco_night.core.errors import ServiceError
from bunco_night.core.text import column_check, text_check
from bunco_night.rules.errors import RuleError
from bunco_night.rules.presets import MARK_CODE_MAX_LENGTH, PRESETS, Rules, preset
from bunco_night.rules.prizes import MOST_MARK
from bunco_night.rules.season import SEASON_PRIZE_LABELS, season_category
from bunco_night.rules.shares import PrizeCategory, split_pot

from .models import Group, HostingTurn, Membership, Player, Prize, Season, SeasonPrize
from .roster_csv import read_roster
from .signals import player_retired

# $15 / $12 / $6 / $3 of a $36 pot (docs/rules.md section 7.4), as whole percents.
DEFAULT_PRIZES = [("most_wins", 42), ("most_buncos", 33), ("last_bunco", 17), ("fewest_wins", 8)]


def _unique_slug(name: str) -> str:
    base = slugify(name)[:100] or "group"
    slug, n = base, 1
    while Group.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def group_create(*, name: str, user, rules: str = "house", dues_cents: int = 500) -> Group:
    """A new group hosted by ``user`` with a preset and four prizes (docs/rules.md 7.4);
    a name like one of the user's groups (case and spaces aside) is refused."""
    name = name.strip()
    if not name:
        raise ServiceError("Give the group a name.", "empty_name", "name")
    column_check(Group, "name", name, label="The group's name")
    key = " ".join(name.split()).casefold()
    for existing in Group.objects.hosted_by(user).values_list("name", flat=True):
        if " ".join(existing.split()).casefold() == key:
            raise ServiceError(
                f"You already have a group called {existing}: give this one another name "
                "(add the street, the town or the day, say).",
                "duplicate_name",
                "name",
            )
    if rules not in PRESETS:
        raise ServiceError("Choose one of the rule presets.", "unknown_preset", "rules")
    if dues_cents < 0:
        raise ServiceError("Dues cannot be negative.", "negative_dues", "dues")
    group = Group.objects.create(
        name=name, slug=_unique_slug(name), rules=preset(rules).as_dict(), dues_cents=dues_cents
    )
    Membership.objects.create(group=group, user=user)
    for order, (code, percent) in enumerate(DEFAULT_PRIZES):
        Prize.objects.create(group=group, code=code, percent=percent, order=order)
    return group


@transaction.atomic
def group_add_host(*, group: Group, user) -> Membership:
    """Share the group with another host."""
    membership, _ = Membership.objects.get_or_create(group=group, user=user)
    return membership


def _clean_player_fields(name: str, kind: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ServiceError("A player needs a name.", "empty_name", "name")
    column_check(Player, "name", name, label="The name")
    if kind not in (Player.Kind.REGULAR, Player.Kind.SUBSTITUTE):
        raise ServiceError("A player is a regular or a substitute.", "bad_kind", "kind")
    return name


CONTACT_LABELS = {"phone": "The phone number", "email": "The e-mail address", "notes": "The notes"}


def _clean_contact(key: str, value: str | None) -> str:
    return column_check(Player, key, (value or "").strip(), label=CONTACT_LABELS[key])


def _check_usual_substitute(group: Group, player: Player | None, usual: Player | None) -> None:
    if usual is None:
        return
    if usual.group_id != group.id:
        raise ServiceError(
            "That substitute is not in this group.", "other_group", "usual_substitute"
        )
    if player is not None and usual.pk == player.pk:
        raise ServiceError(
            "A player cannot be their own substitute.", "self_substitute", "usual_substitute"
        )


@transaction.atomic
def player_add(
    *,
    group: Group,
    name: str,
    kind: str = Player.Kind.REGULAR,
    phone: str = "",
    email: str = "",
    notes: str = "",
    usual_substitute: Player | None = None,
) -> Player:
    """Add someone to the roster; names are unique in a group (ignoring case)."""
    name = _clean_player_fields(name, kind)
    phone, email = _clean_contact("phone", phone), _clean_contact("email", email)
    notes = _clean_contact("notes", notes)
    _check_usual_substitute(group, None, usual_substitute)
    if group.players.filter(name__iexact=name).exists():
        raise ServiceError(f"{name} is already on the roster.", "duplicate_name", "name")
    try:
        with transaction.atomic():
            return Player.objects.create(
                group=group,
                name=name,
                kind=kind,
                phone=phone,
                email=email,
                notes=notes,
                usual_substitute=usual_substitute,
            )
    except IntegrityError:
        raise ServiceError(f"{name} is already on the roster.", "duplicate_name", "name") from None


@transaction.atomic
def player_update(*, player: Player, **fields) -> Player:
    """Change a roster entry's name, kind, contact details, notes or usual substitute."""
    name = _clean_player_fields(fields.get("name", player.name), fields.get("kind", player.kind))
    usual = fields.get("usual_substitute", player.usual_substitute)
    _check_usual_substitute(player.group, player, usual)
    if player.group.players.filter(name__iexact=name).exclude(pk=player.pk).exists():
        raise ServiceError(f"{name} is already on the roster.", "duplicate_name", "name")
    if name != player.name:
        # Table phones and players' pages show names: their polls must see a change.
        player.group.nights.update(version=F("version") + 1)
    player.name = name
    player.kind = fields.get("kind", player.kind)
    for key in ("phone", "email", "notes"):
        if key in fields:
            setattr(player, key, _clean_contact(key, fields[key]))
    player.usual_substitute = usual
    player.save()
    return player


@transaction.atomic
def player_retire(*, player: Player, retired: bool = True) -> Player:
    """Retire a player (or bring them back); coming nights follow (``signals``)."""
    player.retired = retired
    player.save(update_fields=["retired"])
    player_retired.send(sender=Player, player=player, retired=retired)
    return player


@transaction.atomic
def rules_update(*, group: Group, changes: dict) -> Rules:
    """Change the group's rules knob by knob; the engine says what makes sense."""
    current = Rules.from_dict(group.rules)
    try:
        updated = current.with_(**changes)
    except RuleError as error:
        raise ServiceError(error.message, error.code) from error
    except TypeError as error:
        raise ServiceError("Unknown rule setting.", "unknown_knob") from error
    for mark in updated.group_marks:
        # Every entry of a mark records its code; the rules are stored as JSON (no NUL).
        text_check(
            mark.code, label="A mark's code", max_length=MARK_CODE_MAX_LENGTH, field="group_marks"
        )
        text_check(mark.label, label="A mark's label", max_length=None, field="group_marks")
    group.rules = updated.as_dict()
    group.save(update_fields=["rules"])
    group.__dict__.pop("rules_obj", None)
    return updated


# Prize knobs (docs/rules.md sections 7.6 to 7.8): kept when the rules restart from a preset.
PRIZE_KNOBS = (
    "prize_rounding",
    "prize_leftover",
    "prize_ties",
    "substitute_prizes",
    "fewest_wins_min_rounds",
)


@transaction.atomic
def rules_reset(*, group: Group, name: str) -> Rules:
    """Replace the group's rules with a preset; the prize settings stay the group's."""
    if name not in PRESETS:
        raise ServiceError("Choose one of the rule presets.", "unknown_preset", "rules")
    kept = {knob: getattr(group.rules_obj, knob) for knob in PRIZE_KNOBS}
    group.rules = preset(name).with_(**kept).as_dict()
    group.save(update_fields=["rules"])
    group.__dict__.pop("rules_obj", None)
    return group.rules_obj


@transaction.atomic
def prizes_set(*, group: Group, prizes: list[dict], settings: dict | None = None) -> list[Prize]:
    """Replace the group's prizes (code, ``mark``, amount or percent) and, with ``settings``,
    the prize knobs (docs/rules.md sections 7.6 to 7.8)."""
    if settings:
        unknown = set(settings) - set(PRIZE_KNOBS)
        if unknown:
            raise ServiceError("Unknown prize setting.", "unknown_knob")
        rules_update(group=group, changes=settings)
    rules = group.rules_obj
    categories = [
        PrizeCategory(
            p["code"],
            amount_cents=p.get("amount_cents"),
            percent=p.get("percent"),
            mark=p.get("mark", ""),
        )
        for p in prizes
    ]
    for c in categories:
        if c.code == MOST_MARK and c.mark not in {m.code for m in rules.group_marks}:
            raise ServiceError(
                "That prize is for a group mark your rules do not have.", "unknown_mark"
            )
    try:
        # Percents must fit in any pot; amounts are checked against the night's pot later.
        split_pot(10**9, categories)
    except RuleError as error:
        raise ServiceError(error.message, error.code) from error
    if sum(c.percent or 0 for c in categories) > 100:
        raise ServiceError("The percents add up to more than 100.", "payout_exceeds_pot")
    group.prizes.all().delete()
    return [
        Prize.objects.create(
            group=group,
            code=c.code,
            mark=c.mark,
            amount_cents=c.amount_cents,
            percent=c.percent,
            order=i,
        )
        for i, c in enumerate(categories)
    ]


@transaction.atomic
def dues_set(*, group: Group, dues_cents: int) -> Group:
    """Set the group's dues per night."""
    if dues_cents < 0:
        raise ServiceError("Dues cannot be negative.", "negative_dues", "dues")
    group.dues_cents = dues_cents
    group.save(update_fields=["dues_cents"])
    return group


@transaction.atomic
def substitute_asking_set(*, group: Group, mode: str) -> Group:
    """How the group's substitutes are asked when a regular cannot come."""
    if mode not in Group.AskSubstitutes.values:
        raise ServiceError("Choose all at once or one at a time.", "bad_mode", "mode")
    group.ask_substitutes = mode
    group.save(update_fields=["ask_substitutes"])
    return group


# Seasons, year-end prizes and the hosting rotation (docs/rules.md section 8.7)
# A new season's year-end prizes: whole percents of the season's pot.
DEFAULT_SEASON_PRIZES = [("most_wins", 40), ("most_buncos", 40), ("best_attendance", 20)]


def _check_season(
    group: Group, name: str, starts, ends, pot_percent: int, season: Season | None
) -> str:
    name = " ".join(name.split())
    if not name:
        raise ServiceError("Give the season a name, such as 2027.", "empty_name", "name")
    if ends < starts:
        raise ServiceError("A season ends after it starts.", "season_backwards", "ends")
    if (ends - starts).days > 731:
        raise ServiceError("A season lasts two years at most.", "season_too_long", "ends")
    if not 0 <= pot_percent <= 100:
        raise ServiceError("The share is a percent from 0 to 100.", "bad_percent", "pot_percent")
    others = group.seasons.exclude(pk=getattr(season, "pk", None))
    if others.filter(name__iexact=name).exists():
        raise ServiceError(f"The group already has a season {name}.", "duplicate_name", "name")
    overlap = others.filter(starts__lte=ends, ends__gte=starts).first()
    if overlap is not None:
        raise ServiceError(
            f"These dates overlap the season {overlap.name} "
            f"({overlap.starts:%b %d, %Y} to {overlap.ends:%b %d, %Y}).",
            "season_overlap",
            "starts",
        )
    return name


@transaction.atomic
def season_create(
    *,
    group: Group,
    name: str,
    starts,
    ends,
    pot_percent: int = 10,
    regulars_only: bool = True,
) -> Season:
    """A new season of the group, with the usual year-end prizes."""
    name = _check_season(group, name, starts, ends, pot_percent, None)
    try:
        with transaction.atomic():
            season = Season.objects.create(
                group=group,
                name=name,
                starts=starts,
                ends=ends,
                pot_percent=pot_percent,
                regulars_only=regulars_only,
            )
    except IntegrityError:
        raise ServiceError(
            f"The group already has a season {name}.", "duplicate_name", "name"
        ) from None
    for order, (code, percent) in enumerate(DEFAULT_SEASON_PRIZES):
        SeasonPrize.objects.create(season=season, code=code, percent=percent, order=order)
    return season


@transaction.atomic
def season_update(
    *, season: Season, name: str, starts, ends, pot_percent: int, regulars_only: bool
) -> Season:
    """Rename a season, move its dates, or change its share of the dues."""
    season.name = _check_season(season.group, name, starts, ends, pot_percent, season)
    season.starts, season.ends = starts, ends
    season.pot_percent, season.regulars_only = pot_percent, regulars_only
    season.save()
    # Months now outside the season lose their hosting turn.
    season.rotation.exclude(month__range=(starts.replace(day=1), ends)).delete()
    return season


@transaction.atomic
def season_prizes_set(*, season: Season, prizes: list[dict]) -> list[SeasonPrize]:
    """Replace a season's year-end prizes: each has a code and an amount or a percent."""
    try:
        categories = [
            season_category(p["code"], amount_cents=p.get("amount_cents"), percent=p.get("percent"))
            for p in prizes
        ]
        split_pot(10**9, categories, labels=SEASON_PRIZE_LABELS)
    except RuleError as error:
        raise ServiceError(error.message, error.code) from error
    if sum(c.percent or 0 for c in categories) > 100:
        raise ServiceError("The percents add up to more than 100.", "payout_exceeds_pot")
    season.prizes.all().delete()
    return [
        SeasonPrize.objects.create(
            season=season, code=c.code, amount_cents=c.amount_cents, percent=c.percent, order=i
        )
        for i, c in enumerate(categories)
    ]


@transaction.atomic
def hosting_turn_set(
    *,
    season: Season,
    month,
    host: Player | None = None,
    place: str = "",
    brings: str = "",
) -> HostingTurn | None:
    """Who hosts a month, where, and who brings what; all empty clears the month."""
    month = month.replace(day=1)
    if month not in season.months():
        raise ServiceError(f"{month:%B %Y} is not in the season.", "month_outside", "month")
    if host is not None:
        if host.group_id != season.group_id:
            raise ServiceError("That host is not in this group.", "other_group", "host")
        if host.retired:
            raise ServiceError(f"{host} is retired.", "retired", "host")
    place, brings = place.strip(), brings.strip()
    if host is None and not place and not brings:
        season.rotation.filter(month=month).delete()
        return None
    turn, _ = HostingTurn.objects.update_or_create(
        season=season, month=month, defaults={"host": host, "place": place, "brings": brings}
    )
    return turn


@transaction.atomic
def rotation_fill(*, season: Season) -> list[HostingTurn]:
    """Give every month without a host to the active regulars, fewest turns first."""
    regulars = list(season.group.players.filter(kind=Player.Kind.REGULAR, retired=False))
    if not regulars:
        raise ServiceError("The roster has no regulars to host.", "no_regulars")
    taken = {t.month: t for t in season.rotation.all()}
    turns = {p.pk: 0 for p in regulars}
    for t in taken.values():
        if t.host_id in turns:
            turns[t.host_id] += 1
    made = []
    for month in season.months():
        turn = taken.get(month)
        if turn is not None and (turn.host_id or turn.place):
            continue
        host = min(regulars, key=lambda p: (turns[p.pk], p.name.casefold()))
        turns[host.pk] += 1
        brings = turn.brings if turn is not None else ""
        made.append(hosting_turn_set(season=season, month=month, host=host, brings=brings))
    return made


# The roster from a spreadsheet


@dataclass
class ImportResult:
    added: list[Player] = field(default_factory=list)
    updated: list[Player] = field(default_factory=list)
    skipped: int = 0


@transaction.atomic
def roster_import(*, group: Group, text: str) -> ImportResult:
    """Add and update players from a roster file; bad rows are skipped (``read_roster``)."""
    roster = read_roster(text, group)
    if roster.problem:
        raise ServiceError(roster.problem, "bad_file")
    result = ImportResult(skipped=len(roster.bad))
    for row in roster.to_change:
        fields = {"kind": row.kind}
        for key in ("phone", "email", "notes"):
            if getattr(row, key):
                fields[key] = getattr(row, key)
        if row.player is None:
            result.added.append(player_add(group=group, name=row.name, **fields))
        else:
            result.updated.append(player_update(player=row.player, **fields))
    return result
