"""Buck Dice and Bonanza, the writes (docs/rules.md sections 9.3 and 9.4): one transaction
locking the game or table each; a repeated ``nonce`` is stored once."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from bunco_night.core.errors import ServiceError
from bunco_night.core.text import is_nonce
from bunco_night.groups.models import Player
from bunco_night.nights.models import Night, Round
from bunco_night.nights.money import money_record
from bunco_night.nights.selectors import players_tonight
from bunco_night.nights.services import night_lock, night_touch, round_for
from bunco_night.rules import bonanza, buck
from bunco_night.rules.errors import RuleError
from bunco_night.rules.layouts import MAX_BUCK_PLAYERS
from bunco_night.rules.scoring import check_dice

from .models import BonanzaStep, BonanzaTable, BuckGame, BuckTable, BuckThrow
from .selectors import bonanza_state, buck_state, opening_throws, order_to_throw


def _rule(call, *args, **kwargs):
    """Call the rules engine; its refusal becomes the service's."""
    try:
        return call(*args, **kwargs)
    except RuleError as error:
        raise ServiceError(error.message, error.code) from error


def _check_nonce(nonce: str) -> None:
    if not is_nonce(nonce):
        raise ServiceError("This entry has no valid id: reload the page.", "bad_nonce")


@transaction.atomic
def buck_table_open(*, night: Night) -> BuckTable:
    """The Buck Dice table of a Buck Dice night (made the first time it is opened)."""
    if not night.rules_obj.is_buck_dice:
        raise ServiceError("This night does not play Buck Dice.", "not_buck_dice")
    table, _ = BuckTable.objects.get_or_create(night=night)
    return table


def _lock_game(game: BuckGame) -> BuckGame:
    game = BuckGame.objects.select_for_update().select_related("round__night").get(pk=game.pk)
    if not game.round.is_playing:
        raise ServiceError("This game is over: start the next one.", "game_closed")
    return game


@transaction.atomic
def buck_game_start(*, table: BuckTable) -> BuckGame:
    """Start the night's next game with everyone playing tonight, 2 to 20 of them."""
    night = night_lock(table.night_id)
    if night.is_over:
        raise ServiceError("This night is over.", "night_over")
    if night.rounds.playing().exists():
        raise ServiceError("A game is being played: finish it first.", "round_in_play")
    last = night.rounds.aggregate(n=Max("number"))["n"] or 0
    number = last + 1
    if number > night.total_rounds:
        raise ServiceError("Every game of the night has been played.", "night_complete")
    players = players_tonight(night)
    if not 2 <= len(players) <= MAX_BUCK_PLAYERS:
        raise ServiceError(
            f"Buck Dice is played by 2 to {MAX_BUCK_PLAYERS}: tonight's list has {len(players)}.",
            "bad_player_count",
        )
    rnd = round_for(night, number)
    rnd.status, rnd.started_at = Round.Status.PLAYING, timezone.now()
    rnd.save(update_fields=["status", "started_at"])
    if night.status != Night.Status.PLAYING:
        night.status = Night.Status.PLAYING
        night.save(update_fields=["status"])
    game = BuckGame.objects.create(table=table, round=rnd, players=[p.pk for p in players])
    night_touch(night)
    return game


@transaction.atomic
def buck_opening_record(*, game: BuckGame, totals: dict[int, int]) -> BuckGame:
    """The opening throws of those throwing for the order now (docs/rules.md 9.3)."""
    game = _lock_game(game)
    throws = opening_throws(game)
    order, due = order_to_throw(throws)
    if order is not None:
        raise ServiceError("The order of play is settled.", "order_settled")
    if set(totals) != set(due):
        raise ServiceError("Enter a total for each player who throws now.", "missing_totals")
    for player, total in totals.items():
        if isinstance(total, bool) or not isinstance(total, int) or not 3 <= total <= 18:
            raise ServiceError("Three dice total 3 to 18.", "bad_throw")
        throws[player].append(total)
    _rule(order_to_throw, throws)
    game.opening = {str(p): t for p, t in throws.items()}
    game.save(update_fields=["opening"])
    night_touch(game.round.night)
    return game


@transaction.atomic
def buck_point_record(*, game: BuckGame, point: int) -> BuckGame:
    """The last in the order throws one die: the point number (docs/rules.md section 9.3)."""
    game = _lock_game(game)
    order, _ = order_to_throw(opening_throws(game))
    if order is None:
        raise ServiceError("Settle the order of play first.", "order_not_settled")
    if game.point is not None:
        raise ServiceError("The point number is thrown already.", "point_thrown")
    if isinstance(point, bool) or not isinstance(point, int) or not 1 <= point <= 6:
        raise ServiceError("The point number is a die face, 1 to 6.", "bad_point")
    game.point = point
    game.save(update_fields=["point"])
    Round.objects.filter(pk=game.round_id).update(mark=point)
    night_touch(game.round.night)
    return game


def _buck_tap(point: int, kind: str, count: int, dice: list[int] | None) -> tuple[str, int]:
    """A throw as (kind, count): from three dice, or from what the phone tapped."""
    if dice is None:
        return kind, count
    a, b, c = _rule(check_dice, dice)
    if a == b == c:
        return (buck.BIG_BUCK, 3) if a == point else (buck.LITTLE_BUCK, 0)
    count = (a, b, c).count(point)
    return (buck.POINTS, count) if count else (buck.MISS, 0)


@transaction.atomic
def buck_throw_record(
    *,
    game: BuckGame,
    nonce: str,
    kind: str = "",
    count: int = 0,
    dice: list[int] | None = None,
) -> BuckThrow:
    """One throw of the player whose turn it is: ``dice``, or ``kind`` (and ``count``)."""
    _check_nonce(nonce)
    existing = BuckThrow.objects.filter(nonce=nonce).first()
    if existing is not None:
        if existing.game_id != game.pk:
            raise ServiceError("This entry id belongs to another game.", "forged_nonce")
        return existing
    game = _lock_game(game)
    state = buck_state(game, game.round.night.rules_obj, names={})
    if state.play is None:
        raise ServiceError("Settle the order and throw the point number first.", "no_point")
    if state.play.over:
        raise ServiceError("The game is over: close it.", "game_over")
    kind, count = _buck_tap(game.point, kind, count, dice)
    player = state.play.to_throw
    played = _rule(state.play.tap, kind, count)
    try:
        with transaction.atomic():
            throw = BuckThrow.objects.create(
                game=game,
                player_id=player,
                kind=kind,
                count=played.throws[-1].count,
                nonce=nonce,
            )
    except IntegrityError:
        return BuckThrow.objects.get(nonce=nonce)
    night_touch(game.round.night)
    return throw


@transaction.atomic
def buck_undo(*, game: BuckGame) -> None:
    """Undo the latest throw, else the point number, else the opening throws."""
    game = _lock_game(game)
    last = game.throws.counting().last()
    if last is not None:
        last.undone_at = timezone.now()
        last.save(update_fields=["undone_at"])
    elif game.point is not None:
        game.point = None
        game.save(update_fields=["point"])
        Round.objects.filter(pk=game.round_id).update(mark=None)
    elif game.opening:
        game.opening = {}
        game.save(update_fields=["opening"])
    else:
        raise ServiceError("There is nothing to undo.", "nothing_to_undo")
    night_touch(game.round.night)


@transaction.atomic
def buck_game_close(*, game: BuckGame) -> Round:
    """Close a game that is over (docs/rules.md section 9.3); the last one ends the night."""
    game = _lock_game(game)
    night = game.round.night
    state = buck_state(game, night.rules_obj, names={})
    if state.play is None or not state.play.over:
        raise ServiceError("The game is not over: one player must be left.", "game_not_over")
    rnd = game.round
    rnd.status, rnd.closed_at = Round.Status.CLOSED, timezone.now()
    rnd.save(update_fields=["status", "closed_at"])
    if rnd.number >= night.total_rounds:
        night.status = Night.Status.FINISHED
        night.save(update_fields=["status"])
        money_record(night)  # docs/rules.md section 7.9
    night_touch(night)
    return rnd


# More chips than any table bets in one step: a typing slip.
MAX_CHIPS = 100_000


@transaction.atomic
def bonanza_table_create(
    *, night: Night, player_ids: list[int], start_chips: int = 0, poker: bool = True
) -> BonanzaTable:
    """A Bonanza table for 2 to 9 of the roster, in seat order, with ``start_chips`` each."""
    night = night_lock(night.pk)
    players = Player.objects.filter(group=night.group, retired=False, pk__in=player_ids)
    if len(set(player_ids)) != len(player_ids) or players.count() != len(player_ids):
        raise ServiceError("Pick players of the group's roster, each once.", "bad_players")
    _rule(bonanza.bonanza_ledger, player_ids, start_chips=start_chips, poker=poker)
    number = (night.bonanza_tables.aggregate(n=Max("number"))["n"] or 0) + 1
    table = BonanzaTable.objects.create(
        night=night, number=number, players=list(player_ids), start_chips=start_chips, poker=poker
    )
    night_touch(night)
    return table


@transaction.atomic
def bonanza_step_record(
    *,
    table: BonanzaTable,
    nonce: str,
    action: str,
    player: int | None = None,
    space: str = "",
    chips: int = 0,
    cards_left: dict[int, int] | None = None,
) -> BonanzaStep:
    """One step of the ledger (docs/rules.md section 9.4), as ``action`` says."""
    _check_nonce(nonce)
    existing = BonanzaStep.objects.filter(nonce=nonce).first()
    if existing is not None:
        if existing.table_id != table.pk:
            raise ServiceError("This entry id belongs to another table.", "forged_nonce")
        return existing
    table = BonanzaTable.objects.select_for_update().get(pk=table.pk)
    if action not in bonanza.STEPS:
        raise ServiceError("Unknown step.", "bad_step")
    if space and space not in bonanza.SPACES:
        raise ServiceError("There is no such space.", "bad_space")
    if chips < 0:
        raise ServiceError("Chips are a whole number, 1 or more.", "bad_chips")  # as the engine
    if chips > MAX_CHIPS:
        raise ServiceError(f"At most {MAX_CHIPS:,} chips in one step: a typing slip?", "bad_chips")
    state = bonanza_state(table)
    for p, cards in (cards_left or {}).items():
        if p in state.names and (
            isinstance(cards, bool)
            or not isinstance(cards, int)
            or not 0 <= cards <= bonanza.MAX_CARDS_LEFT
        ):
            raise ServiceError(
                f"{state.name(p)}: cards left are 0 to {bonanza.MAX_CARDS_LEFT}.", "bad_cards"
            )
    step = bonanza.BonanzaStep(
        action,
        player,
        space or None,
        chips,
        tuple(sorted((cards_left or {}).items())),
    )
    _rule(state.ledger.apply, step)
    try:
        with transaction.atomic():
            stored = BonanzaStep.objects.create(
                table=table,
                action=action,
                player_id=player,
                space=space,
                chips=chips,
                cards_left=[[p, n] for p, n in step.cards_left],
                nonce=nonce,
            )
    except IntegrityError:
        return BonanzaStep.objects.get(nonce=nonce)
    return stored


@transaction.atomic
def bonanza_undo(*, table: BonanzaTable) -> BonanzaStep:
    """Undo the latest step of the ledger (kept, marked undone)."""
    table = BonanzaTable.objects.select_for_update().get(pk=table.pk)
    last = table.steps.counting().last()
    if last is None:
        raise ServiceError("There is nothing to undo.", "nothing_to_undo")
    last.undone_at = timezone.now()
    last.save(update_fields=["undone_at"])
    return last
