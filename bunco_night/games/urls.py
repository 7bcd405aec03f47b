"""The Buck Dice table and the Bonanza ledger (secret links), and the host's doors to them."""

from django.urls import path, register_converter
from django.urls.converters import get_converters

from bunco_night.core.converters import TokenConverter

from . import views

if "token" not in get_converters():  # the play app's links use the same converter
    register_converter(TokenConverter, "token")

app_name = "games"

urlpatterns = [
    path("nights/<int:pk>/buck/", views.buck_open, name="buck_open"),
    path("nights/<int:pk>/bonanza/", views.bonanza_new, name="bonanza_new"),
    path("buck/<token:token>/", views.buck_page, name="buck"),
    path("buck/<token:token>/rules/", views.buck_rules, name="buck_rules"),
    path("buck/<token:token>/start/", views.buck_start, name="buck_start"),
    path("buck/<token:token>/order/", views.buck_order, name="buck_order"),
    path("buck/<token:token>/point/", views.buck_point, name="buck_point"),
    path("buck/<token:token>/throw/", views.buck_throw, name="buck_throw"),
    path("buck/<token:token>/undo/", views.buck_undo, name="buck_undo"),
    path("buck/<token:token>/close/", views.buck_close, name="buck_close"),
    path("bonanza/<token:token>/", views.bonanza_page, name="bonanza"),
    path("bonanza/<token:token>/deal/", views.bonanza_deal, name="bonanza_deal"),
    path("bonanza/<token:token>/widow/", views.bonanza_sell_widow, name="bonanza_sell_widow"),
    path("bonanza/<token:token>/poker/", views.bonanza_poker_bet, name="bonanza_poker_bet"),
    path("bonanza/<token:token>/take/", views.bonanza_take, name="bonanza_take"),
    path("bonanza/<token:token>/call/", views.bonanza_call, name="bonanza_call"),
    path("bonanza/<token:token>/settle/", views.bonanza_settle, name="bonanza_settle"),
    path("bonanza/<token:token>/step/", views.bonanza_step, name="bonanza_step"),
    path("bonanza/<token:token>/undo/", views.bonanza_undo, name="bonanza_undo"),
]
