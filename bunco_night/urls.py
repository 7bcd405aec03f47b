"""Top-level URLs."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from bunco_night.core import views as core_views
from bunco_night.groups import views as group_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("manifest.webmanifest", core_views.manifest, name="manifest"),
    path("sw.js", core_views.service_worker, name="service_worker"),
    path("start/", group_views.start, name="start"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("groups/", include("bunco_night.groups.urls")),
    path("nights/", include("bunco_night.nights.urls")),
    path("seasons/", include("bunco_night.seasons.urls")),
    path("", include("bunco_night.play.urls")),
    path("", include("bunco_night.invites.urls")),
    path("", include("bunco_night.printing.urls")),
    path("admin/", admin.site.urls),
]
