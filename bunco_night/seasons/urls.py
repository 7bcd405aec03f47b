"""The host's season pages and players' histories, under /seasons/."""

from django.urls import path

from . import views

app_name = "seasons"

urlpatterns = [
    path("group/<slug:slug>/", views.season_list, name="list"),
    path("group/<slug:slug>/players/<int:player_pk>/", views.history, name="history"),
    path("<int:pk>/", views.season_detail, name="detail"),
    path("<int:pk>/edit/", views.season_edit, name="edit"),
    path("<int:pk>/prizes/", views.season_prizes, name="prizes"),
    path("<int:pk>/tiebreak/", views.season_tiebreak, name="tiebreak"),
    path("<int:pk>/rotation/", views.rotation, name="rotation"),
    path("<int:pk>/rotation/save/", views.rotation_save, name="rotation_save"),
    path("<int:pk>/rotation/fill/", views.rotation_fill, name="rotation_fill"),
    path("<int:pk>/money/", views.ledger, name="ledger"),
    path("<int:pk>/money/prepaid/", views.prepayment_add, name="prepayment_add"),
    path(
        "<int:pk>/money/prepaid/<int:prepayment_pk>/undo/",
        views.prepayment_undo,
        name="prepayment_undo",
    ),
]
