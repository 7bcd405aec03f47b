"""Players' own pages (/me/), substitutes' offers (/sub/), and the host's answers,
invitations and texts under /nights/<pk>/."""

from django.urls import path

from . import views

app_name = "invites"

urlpatterns = [
    path("me/<str:token>/", views.mine, name="mine"),
    path("me/<str:token>/nights/<int:night_pk>/", views.mine_answer, name="mine_answer"),
    path(
        "me/<str:token>/nights/<int:night_pk>/calendar.ics",
        views.mine_calendar,
        name="mine_calendar",
    ),
    path("sub/<str:token>/", views.offer, name="offer"),
    path("sub/<str:token>/accept/", views.offer_accept, name="offer_accept"),
    path("sub/<str:token>/decline/", views.offer_decline, name="offer_decline"),
    path("sub/<str:token>/answer/", views.offer_answer, name="offer_answer"),
    path("nights/<int:pk>/answers/", views.answers, name="answers"),
    path("nights/<int:pk>/answers/ask/<int:attendance_pk>/", views.call_start, name="call_start"),
    path("nights/<int:pk>/answers/calls/<int:call_pk>/next/", views.call_next, name="call_next"),
    path("nights/<int:pk>/answers/calls/<int:call_pk>/stop/", views.call_stop, name="call_stop"),
    path("nights/<int:pk>/answers/mode/", views.ask_mode, name="ask_mode"),
    path("nights/<int:pk>/send/<str:kind>/", views.send, name="send"),
    path("nights/<int:pk>/texts/", views.texts, name="texts"),
    path("nights/<int:pk>/texts/new-link/<int:player_pk>/", views.link_new, name="link_new"),
]
