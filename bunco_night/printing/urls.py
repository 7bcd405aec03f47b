"""Printed documents of a night, under /nights/<pk>/print/."""

from django.urls import path

from . import views

app_name = "printing"

urlpatterns = [
    path("nights/<int:pk>/print/", views.index, name="index"),
    path("nights/<int:pk>/print/table-cards/", views.table_cards, name="table_cards"),
    path("nights/<int:pk>/print/tally-sheets/", views.tally_sheets, name="tally_sheets"),
    path("nights/<int:pk>/print/score-pads/", views.score_pads, name="score_pads"),
    path("nights/<int:pk>/print/master-sheet/", views.master_sheet, name="master_sheet"),
    path("nights/<int:pk>/print/prizes/", views.prizes, name="prizes"),
    path("nights/<int:pk>/print/roster/", views.roster, name="roster"),
    path("nights/<int:pk>/print/rules-card/", views.rules_card, name="rules_card"),
    path("groups/<slug:slug>/print/rules-card/", views.group_rules_card, name="group_rules_card"),
    path("nights/<int:pk>/print/jobs/<uuid:job_id>/", views.job, name="job"),
    path("nights/<int:pk>/print/jobs/<uuid:job_id>/pdf/", views.job_pdf, name="job_pdf"),
    path("seasons/<int:pk>/print/", views.season_standings, name="season_standings"),
]
