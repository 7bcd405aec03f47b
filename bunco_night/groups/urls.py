"""The host's group pages, under /groups/."""

from django.urls import path

from . import views

app_name = "groups"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/roster/", views.roster, name="roster"),
    path("<slug:slug>/roster/add/", views.player_create, name="player_create"),
    path("<slug:slug>/roster/import/", views.roster_import, name="roster_import"),
    path(
        "<slug:slug>/roster/import/confirm/",
        views.roster_import_confirm,
        name="roster_import_confirm",
    ),
    path("<slug:slug>/roster/export.csv", views.roster_export, name="roster_export"),
    path("<slug:slug>/roster/<int:player_pk>/", views.player_edit, name="player_edit"),
    path("<slug:slug>/roster/<int:player_pk>/save/", views.player_save, name="player_save"),
    path("<slug:slug>/roster/<int:player_pk>/retire/", views.player_retire, name="player_retire"),
    path("<slug:slug>/rules/", views.rules, name="rules"),
    path("<slug:slug>/rules/reset/", views.rules_reset, name="rules_reset"),
    path("<slug:slug>/rules/save/", views.rules_save, name="rules_save"),
    path("<slug:slug>/rules/dues/", views.dues_save, name="dues_save"),
    path("<slug:slug>/rules/prizes/", views.prizes_save, name="prizes_save"),
]
