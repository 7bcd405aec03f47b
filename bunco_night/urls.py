"""Top-level URLs."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from bunco_night.accounts import views as account_views
from bunco_night.core import views as core_views
from bunco_night.groups import views as group_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("manifest.webmanifest", core_views.manifest, name="manifest"),
    path("sw.js", core_views.service_worker, name="service_worker"),
    path("start/", group_views.start, name="start"),
    # Login, logout and passwords keep Django's names, which its auth views reverse.
    path("accounts/login/", account_views.Login.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", account_views.PasswordChange.as_view(), name="password_change"),
    path(
        "accounts/password-reset/",
        account_views.PasswordReset.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        account_views.PasswordResetConfirm.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("", include("bunco_night.accounts.urls")),
    path("groups/", include("bunco_night.groups.urls")),
    path("nights/", include("bunco_night.nights.urls")),
    path("seasons/", include("bunco_night.seasons.urls")),
    path("", include("bunco_night.play.urls")),
    path("", include("bunco_night.games.urls")),
    path("", include("bunco_night.invites.urls")),
    path("", include("bunco_night.printing.urls")),
    path("", include("bunco_night.ops.urls")),
    path("admin/", admin.site.urls),
]
