"""Players' and substitutes' pages (by secret token), and the host's answers panel, invitations
and texts. The panel polls (204 while unchanged) and brings the night page's sections along out
of band."""

from __future__ import annotations

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from bunco_night.core.errors import ServiceError
from bunco_night.core.forms import form_apply, form_message, whole_number
from bunco_night.core.links import phone_url
from bunco_night.groups import services as group_services
from bunco_night.nights.pages import night_context
from bunco_night.nights.selectors import attendance_of, night_for_host

from . import messages, services
from .forms import SEND_KINDS, AnswerForm, AskForm, AskModeForm, OfferForm, PanelPlaceForm
from .ical import night_event
from .messages import Links
from .models import Notice, PlayerLink, SubstituteCall, SubstituteOffer
from .pages import answers_context, mine_context, offer_context

PANEL = "invites/_answers.html"


def links_for(request: HttpRequest) -> Links:
    return Links(phone_url(request))


def _link(token: str) -> PlayerLink:
    return get_object_or_404(PlayerLink.objects.select_related("player__group"), token=token)


def _mine_page(request, link: PlayerLink, error_night: int | None = None, form=None):
    context = mine_context(link, timezone.localdate())
    context.update({"error_night": error_night, "failed_form": form})
    for item in context["nights"]:
        if form is not None and item.night.pk == error_night:
            item.kept, item.errors = form.kept(), form.errors
    return render(request, "invites/mine.html", context)


@require_safe
@never_cache
def mine(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own page: the group's next nights, their answer, the hosting rotation."""
    return _mine_page(request, _link(token))


@require_POST
def mine_answer(request: HttpRequest, token: str, night_pk: int) -> HttpResponse:
    """A player answers for a night: coming, not coming, or sending a substitute."""
    link = _link(token)
    player = link.player
    night = get_object_or_404(player.group.nights, pk=night_pk)
    form = AnswerForm(request.POST, group=player.group)
    answer = form_apply(
        form,
        lambda data: services.answer_record(
            player=player,
            night=night,
            choice=data["choice"],
            note=data["note"],
            substitute=data["substitute"],
            new_name=data["new_name"],
            new_phone=data["new_phone"],
            new_email=data["new_email"],
            links=links_for(request),
        ),
    )
    if form.errors:
        return _mine_page(request, link, error_night=night.pk, form=form)
    flash.success(request, f"Thank you! Your answer for {messages.day(night)}: {_said(answer)}.")
    return redirect(f"{reverse('invites:mine', args=[token])}#night-{night.pk}")


def _said(answer) -> str:
    a = answer.attendance
    a.refresh_from_db()
    if answer.choice == answer.Choice.ASK:
        return "the group's substitutes are being asked"
    return messages.status_words(a)


@require_safe
def mine_calendar(request: HttpRequest, token: str, night_pk: int) -> HttpResponse:
    """A night as a calendar file, to add to the phone's calendar."""
    link = _link(token)
    night = get_object_or_404(link.player.group.nights, pk=night_pk)
    url = phone_url(request)(reverse("invites:mine", args=[token]))
    response = HttpResponse(night_event(night, url=url), content_type="text/calendar")
    response["Content-Disposition"] = f'attachment; filename="bunco-{night.date:%Y-%m-%d}.ics"'
    return response


def _offer(token: str) -> SubstituteOffer:
    return get_object_or_404(SubstituteOffer, token=token)


@require_safe
@never_cache
def offer(request: HttpRequest, token: str) -> HttpResponse:
    """A substitute is asked to take a regular's seat: accept or decline."""
    return render(request, "invites/offer.html", offer_context(_offer(token)))


def _offer_answered(request: HttpRequest, token: str, answer) -> HttpResponse:
    """Do ``answer(offer)`` and come back to the offer page with what it says."""
    try:
        answer(_offer(token))
    except ServiceError as error:
        flash.info(request, error.message)
    return redirect("invites:offer", token=token)


@require_POST
def offer_accept(request: HttpRequest, token: str) -> HttpResponse:
    """Take the seat: the first substitute to accept does."""

    def answer(item):
        item = services.offer_accept(offer=item, links=links_for(request))
        if item.status == SubstituteOffer.Status.ACCEPTED:
            flash.success(request, "You have the seat. Thank you, see you there!")
        else:
            flash.info(request, "Thank you! The seat no longer needs a substitute.")

    return _offer_answered(request, token, answer)


@require_POST
def offer_decline(request: HttpRequest, token: str) -> HttpResponse:
    """Say no to the seat (the next substitute in turn is asked)."""

    def answer(item):
        services.offer_decline(offer=item, links=links_for(request))
        flash.info(request, "Thank you for letting us know.")

    return _offer_answered(request, token, answer)


@require_POST
def offer_answer(request: HttpRequest, token: str) -> HttpResponse:
    """The offer's old shared address, for a page drawn before: ``action`` names it."""
    form = OfferForm(request.POST)
    if not form.is_valid():
        _offer(token)
        flash.error(request, "Tap Accept or Decline.")
        return redirect("invites:offer", token=token)
    answer = offer_accept if form.cleaned_data["action"] == "accept" else offer_decline
    return answer(request, token)


def _panel(request: HttpRequest, night, error: str = "", sections: bool = True) -> HttpResponse:
    """The answers panel, with the night page's sections unless ``sections`` is false."""
    embedded = (
        PanelPlaceForm(request.GET).on_night_page() or PanelPlaceForm(request.POST).on_night_page()
    )
    context = answers_context(night)
    context.update({"embedded": embedded, "panel_error": error})
    html = render_to_string(PANEL, context, request=request)
    if embedded and sections:
        sections = night_context(night)
        sections["oob"] = True
        for partial in ("attendance", "dues", "seating", "history_changed"):
            html += render_to_string(f"nights/night.html#{partial}", sections, request=request)
    return HttpResponse(html)


@login_required
@require_safe
def answers(request: HttpRequest, pk: int) -> HttpResponse:
    """The answers: a page, or (htmx) the night page's polling panel; 204 if unchanged."""
    night = night_for_host(request.user, pk)
    if request.htmx:
        # The page's sections each carry the version they show: the newest one counts.
        shown = [n for v in request.GET.getlist("v") if (n := whole_number(v)) is not None]
        if shown and max(shown) >= night.version:
            return HttpResponse(status=204)
        return _panel(request, night, sections=bool(shown))
    context = answers_context(night)
    context["ask_form"] = AskModeForm(initial={"mode": night.group.ask_substitutes})
    return render(request, "invites/night.html", context)


def _after_action(request, night, error: str = "", done: str = "") -> HttpResponse:
    if request.htmx:
        return _panel(request, night, error)
    if error:
        flash.error(request, error)
    elif done:
        flash.success(request, done)
    if PanelPlaceForm(request.POST).on_night_page():
        return redirect(f"{night.get_absolute_url()}#answers")
    return redirect("invites:answers", pk=night.pk)


@login_required
@require_POST
def call_start(request: HttpRequest, pk: int, attendance_pk: int) -> HttpResponse:
    """The host asks the group's substitutes to take a regular's seat."""
    night = night_for_host(request.user, pk)
    attendance = attendance_of(night, attendance_pk)
    form = AskForm(request.POST)
    form_apply(
        form,
        lambda data: services.call_start(
            attendance=attendance, mode=data["mode"], links=links_for(request)
        ),
    )
    error = form_message(form)
    return _after_action(request, night, error, f"Asking substitutes for {attendance.player}.")


def _call(night, call_pk: int) -> SubstituteCall:
    return get_object_or_404(SubstituteCall, pk=call_pk, attendance__night=night)


@login_required
@require_POST
def call_next(request: HttpRequest, pk: int, call_pk: int) -> HttpResponse:
    """Ask the next substitute in turn now."""
    night = night_for_host(request.user, pk)
    error = ""
    try:
        services.call_ask_next(call=_call(night, call_pk), links=links_for(request))
    except ServiceError as exc:
        error = exc.message
    return _after_action(request, night, error, "Asked the next substitute.")


@login_required
@require_POST
def call_stop(request: HttpRequest, pk: int, call_pk: int) -> HttpResponse:
    """Stop asking the substitutes for a seat."""
    night = night_for_host(request.user, pk)
    services.call_stop(call=_call(night, call_pk), links=links_for(request))
    return _after_action(request, night, done="Stopped asking.")


@login_required
@require_POST
def ask_mode(request: HttpRequest, pk: int) -> HttpResponse:
    """The group's usual way of asking substitutes."""
    night = night_for_host(request.user, pk)
    form = AskModeForm(request.POST)
    form_apply(
        form,
        lambda data: group_services.substitute_asking_set(group=night.group, mode=data["mode"]),
    )
    return _after_action(request, night, form_message(form), "Saved.")


def _closed(night) -> str:
    """Why nothing can be sent for the night any more; "" while it is being planned."""
    if night.is_over:
        return "This night is over: there is nothing to send."
    if night.status != night.Status.PLANNING:
        return "The night has started: the host changes who plays on the night page."
    return ""


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def send(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """Send the invitation or reminder e-mails once the host confirms who gets what."""
    night = night_for_host(request.user, pk)
    if kind not in SEND_KINDS:
        return redirect("invites:answers", pk=night.pk)
    if request.method == "POST":
        try:
            report = services.invitations_send(night=night, kind=kind, links=links_for(request))
        except ServiceError as error:
            flash.error(request, error.message)
            return redirect("invites:answers", pk=night.pk)
        word = SEND_KINDS[kind]
        text = f"Sent the {word} to {len(report.sent)} by e-mail."
        if report.failed:
            names = ", ".join(p.name for p in report.failed)
            flash.error(request, f"The {word} could not be sent to {names}: try again later.")
        flash.success(request, text)
        if report.no_email:
            flash.warning(
                request,
                f"{len(report.no_email)} have no e-mail address: send them the texts below.",
            )
            return redirect(f"{reverse('invites:texts', args=[night.pk])}?kind={kind}")
        return redirect("invites:answers", pk=night.pk)
    people = services.recipients(night, kind)
    return render(
        request,
        "invites/send.html",
        {
            "night": night,
            "group": night.group,
            "kind": kind,
            "word": SEND_KINDS[kind],
            "with_email": [p for p in people if p.email],
            "without_email": [p for p in people if not p.email],
            "already": night.notices.filter(kind=kind, ok=True).values("player").distinct().count(),
            "closed": _closed(night),
        },
    )


@login_required
@require_safe
@never_cache
def texts(request: HttpRequest, pk: int) -> HttpResponse:
    """Text messages to copy, for players without e-mail (all with ``?all=1``) and
    substitutes asked."""
    night = night_for_host(request.user, pk)
    if night.is_over:
        return render(
            request,
            "invites/texts.html",
            {"night": night, "group": night.group, "closed": _closed(night)},
        )
    kind = request.GET.get("kind", Notice.Kind.INVITATION)
    if kind not in SEND_KINDS:
        kind = Notice.Kind.INVITATION
    everyone = request.GET.get("all") == "1"
    links = links_for(request)
    people = [p for p in services.recipients(night, kind) if everyone or not p.email]
    cards = [
        (player, words.text)
        for player, _, words in services.invitation_words(night, kind, people, links)
    ]
    # Once the night has started nobody takes a seat from a link (docs/rules.md section 8.8).
    offers = SubstituteOffer.objects.filter(
        call__attendance__night__status=night.Status.PLANNING,
        call__attendance__night=night,
        call__status=SubstituteCall.Status.OPEN,
        status=SubstituteOffer.Status.ASKED,
    ).select_related("player", "call__attendance__player")
    offer_cards = [
        (
            o.player,
            o.call.attendance.player,
            messages.offer(night, o.call.attendance.player, o.player, links.offer(o.token)).text,
        )
        for o in offers
        if everyone or not o.player.email
    ]
    return render(
        request,
        "invites/texts.html",
        {
            "night": night,
            "group": night.group,
            "kind": kind,
            "word": SEND_KINDS[kind],
            "everyone": everyone,
            "cards": cards,
            "offer_cards": offer_cards,
        },
    )


@login_required
@require_POST
def link_new(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """A new personal link for a player whose link went astray; the old one stops working."""
    night = night_for_host(request.user, pk)
    player = get_object_or_404(night.group.players, pk=player_pk)
    try:
        services.link_reset(player=player, night=night)
    except ServiceError as error:
        flash.error(request, error.message)
    else:
        flash.success(
            request, f"{player.name} has a new link: send it to them. The old one no longer works."
        )
    return redirect(f"{reverse('invites:texts', args=[night.pk])}?all=1")
