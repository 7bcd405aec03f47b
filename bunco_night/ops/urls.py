"""Downloads: /groups/<slug>/export/ and /nights/<pk>/results.csv."""

from django.urls import path

from . import views

app_name = "ops"

urlpatterns = [
    path("groups/<slug:slug>/export/", views.group_export, name="group_export"),
    path("nights/<int:pk>/results.csv", views.night_results, name="night_results"),
]
