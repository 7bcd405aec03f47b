from django.urls import path, register_converter

from bunco_night.core.converters import TokenConverter

from . import host_views, live_views, player_views, views

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
    path("p/<token:token>/", player_views.player_page, name="player"),
    path("p/<token:token>/state/", player_views.player_state, name="player_state"),
    path("p/<token:token>/clock/", player_views.player_clock, name="player_clock"),
    path("p/<token:token>/rules/", player_views.player_rules, name="player_rules"),
    path("nights/<int:pk>/live/", live_views.live, name="live"),
    path("nights/<int:pk>/live/state/", live_views.live_state, name="live_state"),
    path("nights/<int:pk>/live/action/", live_views.live_action, name="live_action"),
    path("nights/<int:pk>/live/draw/", live_views.live_draw, name="live_draw"),
    path("nights/<int:pk>/live/start/", live_views.live_start, name="live_start"),
    path("nights/<int:pk>/live/bell/", live_views.live_bell, name="live_bell"),
    path("nights/<int:pk>/live/close/", live_views.live_close, name="live_close"),
    path("nights/<int:pk>/live/winner/", live_views.live_winner, name="live_winner"),
    path("nights/<int:pk>/live/late/accept/", live_views.live_late_accept, name="live_late_accept"),
    path(
        "nights/<int:pk>/live/late/discard/", live_views.live_late_discard, name="live_late_discard"
    ),
    path("nights/<int:pk>/live/finish/", live_views.live_finish, name="live_finish"),
    path("nights/<int:pk>/live/table/<int:number>/", host_views.table_fix, name="table_fix"),
    path(
        "nights/<int:pk>/live/table/<int:number>/undo/",
        host_views.table_fix_undo,
        name="table_fix_undo",
    ),
    path(
        "nights/<int:pk>/live/table/<int:number>/put-back/",
        host_views.table_fix_put_back,
        name="table_fix_put_back",
    ),
    path(
        "nights/<int:pk>/live/table/<int:number>/add/",
        host_views.table_fix_add,
        name="table_fix_add",
    ),
    path(
        "nights/<int:pk>/live/table/<int:number>/winner/",
        host_views.table_fix_winner,
        name="table_fix_winner",
    ),
    path(
        "nights/<int:pk>/live/table/<int:number>/tiebreak/",
        host_views.table_fix_tiebreak,
        name="table_fix_tiebreak",
    ),
    path("nights/<int:pk>/links/", host_views.links, name="links"),
    path(
        "nights/<int:pk>/links/table/<int:number>/renew/",
        host_views.table_link_renew,
        name="table_link_renew",
    ),
    path("nights/<int:pk>/room/", live_views.room, name="room"),
    path("nights/<int:pk>/room/state/", live_views.room_state, name="room_state"),
    path("nights/<int:pk>/standings/", host_views.standings, name="standings"),
    path("nights/<int:pk>/standings/door/", host_views.standings_door, name="standings_door"),
    path(
        "nights/<int:pk>/standings/tiebreak/",
        host_views.standings_tiebreak,
        name="standings_tiebreak",
    ),
]
