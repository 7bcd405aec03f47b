"""A host's account and who hosts a group; another's group or a dead invitation is a 404."""

from __future__ import annotations

import logging

from axes.handlers.proxy import AxesProxyHandler
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import (
    LoginView,
    PasswordChangeView,
    PasswordResetConfirmView,
    PasswordResetView,
)
from django.core.mail import send_mail
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from bunco_night.core.errors import ServiceError
from bunco_night.core.forms import form_apply
from bunco_night.core.links import phone_url
from bunco_night.core.qr import qr_svg
from bunco_night.groups.models import Group
from bunco_night.groups.selectors import group_for_host

from . import services
from .forms import (
    EmailForm,
    InvitationForm,
    LoginForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    SignupForm,
)
from .models import Invitation

log = logging.getLogger(__name__)
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def signup_open() -> bool:
    """Whether anyone may open an account from the login page (``SIGNUP = "open"``)."""
    return settings.SIGNUP == "open"


class Login(LoginView):
    """The host's login; it links to sign-up when the deployment allows it."""

    redirect_authenticated_user = True
    authentication_form = LoginForm

    def get(self, request, *args, **kwargs):
        """A device in a lockout is told so at once, not after typing a password again."""
        if AxesProxyHandler.is_locked(request):
            return locked_out(request)
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        return super().get_context_data(signup_open=signup_open(), **kwargs)


def locked_out(request: HttpRequest, response=None, credentials=None) -> HttpResponse:
    """The answer to a login while its username or address is locked out (django-axes)."""
    cooloff = settings.AXES_COOLOFF_TIME
    return render(
        request,
        "registration/locked_out.html",
        {
            "username": (credentials or {}).get("username", "") or request.POST.get("username", ""),
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "minutes": max(1, round(cooloff.total_seconds() / 60)) if cooloff else None,
        },
        status=429,
    )


def _account_page(request: HttpRequest, email_form: EmailForm | None = None) -> HttpResponse:
    user = request.user
    return render(
        request,
        "accounts/account.html",
        {
            "email_form": email_form or EmailForm(user=user, initial={"email": user.email}),
            "groups": Group.objects.hosted_by(user),
        },
    )


@login_required
@require_safe
def account(request: HttpRequest) -> HttpResponse:
    """Your account: e-mail, password, and the groups you host."""
    return _account_page(request)


@login_required
@require_POST
def email_save(request: HttpRequest) -> HttpResponse:
    """Change the e-mail that password resets go to."""
    form = EmailForm(request.POST, user=request.user)
    form_apply(form, lambda data: services.email_change(user=request.user, email=data["email"]))
    if not form.errors:
        messages.success(request, "E-mail saved.")
        return redirect("accounts:account")
    return _account_page(request, email_form=form)


class PasswordChange(PasswordChangeView):
    """Change your password (you stay logged in here; other devices are logged out)."""

    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("accounts:account")
    form_class = PasswordChangeForm

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, "Password changed.")
        return response


class PasswordReset(PasswordResetView):
    """Ask for a reset link by e-mail, on the site's public address (``core.links``)."""

    form_class = PasswordResetForm

    def form_valid(self, form):
        self.extra_email_context = {"site_base": phone_url(self.request)("/").removesuffix("/")}
        return super().form_valid(form)


class PasswordResetConfirm(PasswordResetConfirmView):
    """A new password from the e-mailed link; it also lifts a lockout of the username."""

    form_class = SetPasswordForm

    def form_valid(self, form):
        response = super().form_valid(form)
        axes_reset(username=form.user.get_username())
        return response


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Open an account to start a group (only when the deployment allows it)."""
    if not signup_open():
        raise Http404("Sign-up is by invitation.")
    if request.user.is_authenticated:
        return redirect("groups:index")
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        user = form_apply(
            form,
            lambda data: services.account_create(
                username=data["username"], email=data["email"], password=data["password1"]
            ),
        )
        if not form.errors:
            login(request, user, backend=MODEL_BACKEND)
            messages.success(request, "Welcome! Start your group below.")
            return redirect("groups:index")
    return render(request, "registration/signup.html", {"form": form})


def _usable_invitation(token: str) -> Invitation | None:
    invitation = Invitation.objects.select_related("group", "invited_by").filter(token=token)
    invitation = invitation.first()
    return invitation if invitation is not None and invitation.is_usable else None


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Accept an invitation to co-host: logged in, one button; else log in or sign up here."""
    found = _usable_invitation(token)
    if found is None:
        return render(request, "accounts/invitation_gone.html", status=404)
    user = request.user
    form = (
        None
        if user.is_authenticated
        else SignupForm(request.POST if request.method == "POST" else None)
    )
    if request.method == "POST":
        if user.is_authenticated:
            group = _accept(request, lambda: services.invitation_accept(token=token, user=user))
        else:
            new_user = form_apply(
                form,
                lambda data: services.account_create_from_invitation(
                    token=token,
                    username=data["username"],
                    email=data["email"],
                    password=data["password1"],
                ),
            )
            group = None
            if new_user is not None:
                login(request, new_user, backend=MODEL_BACKEND)
                group = found.group
        if group is not None:
            messages.success(request, f"You are now a host of {group.name}.")
            return redirect(group)
    return render(
        request,
        "accounts/invitation.html",
        {
            "invitation": found,
            "form": form,
            "already_host": user.is_authenticated and found.group.is_host(user),
        },
    )


def _accept(request: HttpRequest, action) -> Group | None:
    try:
        return action()
    except ServiceError as error:
        messages.error(request, error.message)
        return None


def _hosts_page(request: HttpRequest, group: Group, form: InvitationForm | None = None):
    invitations = [
        (i, url, qr_svg(url))
        for i in group.invitations.usable().select_related("invited_by")
        for url in [phone_url(request)(i.get_absolute_url())]
    ]
    response = render(
        request,
        "accounts/hosts.html",
        {
            "group": group,
            "hosts": group.memberships.select_related("user").order_by("added", "pk"),
            "invitations": invitations,
            "form": form or InvitationForm(),
            "days": settings.INVITATION_DAYS,
        },
    )
    # The page shows invitation links: no cache may keep it.
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_safe
def hosts(request: HttpRequest, slug: str) -> HttpResponse:
    """Who hosts the group, open invitations, and a form to invite a co-host."""
    return _hosts_page(request, group_for_host(request.user, slug))


def _send_invitation(request: HttpRequest, invitation: Invitation) -> bool:
    url = phone_url(request)(invitation.get_absolute_url())
    body = render_to_string(
        "accounts/invitation_email.txt",
        {
            "invitation": invitation,
            "url": url,
            "by": request.user,
            "days": settings.INVITATION_DAYS,
        },
    )
    try:
        send_mail(f"Co-host {invitation.group.name} on Bunco Night", body, None, [invitation.email])
    except Exception:  # an unreachable mail server must not lose the invitation
        log.exception("Could not send an invitation e-mail")
        return False
    return True


@login_required
@require_POST
def invite(request: HttpRequest, slug: str) -> HttpResponse:
    """Make a one-time invitation link (and e-mail it when an address is given)."""
    group = group_for_host(request.user, slug)
    form = InvitationForm(request.POST)
    made = form_apply(
        form,
        lambda data: services.invitation_create(group=group, by=request.user, email=data["email"]),
    )
    if form.errors:
        return _hosts_page(request, group, form)
    if made.email and _send_invitation(request, made):
        messages.success(request, f"Invitation sent to {made.email}. The link is below too.")
    elif made.email:
        messages.warning(request, "The e-mail could not be sent: pass the link below on yourself.")
    else:
        messages.success(request, "Invitation ready: pass the link below to your co-host.")
    return redirect("accounts:hosts", slug=group.slug)


@login_required
@require_POST
def invitation_cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Cancel an open invitation: its link stops working."""
    group = group_for_host(request.user, slug)
    services.invitation_cancel(invitation=get_object_or_404(group.invitations, pk=pk))
    messages.success(request, "Invitation cancelled: its link no longer works.")
    return redirect("accounts:hosts", slug=group.slug)


@login_required
@require_POST
def host_remove(request: HttpRequest, slug: str, user_pk: int) -> HttpResponse:
    """Remove a co-host from the group."""
    group = group_for_host(request.user, slug)
    membership = get_object_or_404(group.memberships.select_related("user"), user_id=user_pk)
    try:
        services.host_remove(group=group, user=membership.user, by=request.user)
        messages.success(request, f"{membership.user.get_username()} no longer hosts the group.")
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("accounts:hosts", slug=group.slug)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def leave(request: HttpRequest, slug: str) -> HttpResponse:
    """Stop hosting the group, after a confirmation; the last host cannot."""
    group = group_for_host(request.user, slug)
    last = group.memberships.count() == 1
    if request.method == "POST":
        try:
            services.host_leave(group=group, user=request.user)
        except ServiceError as error:
            messages.error(request, error.message)
            return redirect("accounts:leave", slug=group.slug)
        messages.success(request, f"You no longer host {group.name}.")
        return redirect("groups:index")
    return render(request, "accounts/leave.html", {"group": group, "last": last})
