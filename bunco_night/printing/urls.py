"""Printed documents: a night's under /nights/<pk>/print/, one address each (``registry``)."""

from django.urls import path

from . import registry, views

app_name = "printing"

urlpatterns = [
    path("nights/<int:pk>/print/", views.index, name="index"),
    *[
        path(
            f"nights/<int:pk>/print/{document.path}/",
            views.night_document,
            {"name": document.name},
            name=document.name,
        )
        for document in registry.night_documents()
    ],
    path("groups/<slug:slug>/print/rules-card/", views.group_rules_card, name="group_rules_card"),
    path("nights/<int:pk>/print/jobs/<uuid:job_id>/", views.job, name="job"),
    path("nights/<int:pk>/print/jobs/<uuid:job_id>/pdf/", views.job_pdf, name="job_pdf"),
    path("seasons/<int:pk>/print/", views.season_standings, name="season_standings"),
]
