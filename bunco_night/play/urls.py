from django.urls import path, register_converter

from bunco_night.core.converters import TokenConverter

from . import views

register_converter(TokenConverter, "token")

app_name = "play"

urlpatterns = [
    path("t/<token:token>/", views.table_page, name="table"),
    path("t/<token:token>/state/", views.table_state, name="table_state"),
    path("t/<token:token>/entry/", views.table_entry, name="table_entry"),
    path("t/<token:token>/clock/", views.table_clock, name="table_clock"),
    path("t/<token:token>/moves/", views.table_moves, name="table_moves"),
    path("t/<token:token>/rules/", views.table_rules, name="table_rules"),
    path("t/<token:token>/undo/", views.table_undo, name="table_undo"),
    path("t/<token:token>/done/", views.table_done, name="table_done"),
    path("t/<token:token>/tiebreak/", views.table_tiebreak, name="table_tiebreak"),
    path("t/<token:token>/extra-turns/", views.table_extra_turns_done, name="table_extra_turns"),
    path("p/<token:token>/", views.player_page, name="player"),
    path("p/<token:token>/state/", views.player_state, name="player_state"),
    path("p/<token:token>/clock/", views.player_clock, name="player_clock"),
    path("p/<token:token>/rules/", views.player_rules, name="player_rules"),
    path("nights/<int:pk>/live/", views.live, name="live"),
    path("nights/<int:pk>/live/state/", views.live_state, name="live_state"),
    path("nights/<int:pk>/live/action/", views.live_action, name="live_action"),
    path("nights/<int:pk>/live/draw/", views.live_draw, name="live_draw"),
    path("nights/<int:pk>/live/start/", views.live_start, name="live_start"),
    path("nights/<int:pk>/live/bell/", views.live_bell, name="live_bell"),
    path("nights/<int:pk>/live/close/", views.live_close, name="live_close"),
    path("nights/<int:pk>/live/winner/", views.live_winner, name="live_winner"),
    path("nights/<int:pk>/live/late/accept/", views.live_late_accept, name="live_late_accept"),
    path("nights/<int:pk>/live/late/discard/", views.live_late_discard, name="live_late_discard"),
    path("nights/<int:pk>/live/finish/", views.live_finish, name="live_finish"),
    path("nights/<int:pk>/live/table/<int:number>/", views.table_fix, name="table_fix"),
    path("nights/<int:pk>/links/", views.links, name="links"),
    path(
        "nights/<int:pk>/links/table/<int:number>/renew/",
        views.table_link_renew,
        name="table_link_renew",
    ),
    path("nights/<int:pk>/room/", views.room, name="room"),
    path("nights/<int:pk>/room/state/", views.room_state, name="room_state"),
    path("nights/<int:pk>/standings/", views.standings, name="standings"),
]
