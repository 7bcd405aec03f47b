"""The host's night pages, under /nights/."""

from django.urls import path

from . import attendance_views, plan_views, views

app_name = "nights"

urlpatterns = [
    path("new/<slug:slug>/", plan_views.night_new, name="new"),
    path("new/<slug:slug>/create/", plan_views.night_create, name="create"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/edit/", plan_views.night_edit, name="edit"),
    path("<int:pk>/save/", plan_views.night_save, name="save"),
    path("<int:pk>/delete/", plan_views.night_delete, name="delete"),
    path(
        "<int:pk>/attendance/<int:attendance_pk>/",
        attendance_views.attendance_update,
        name="attendance",
    ),
    path(
        "<int:pk>/attendance/<int:attendance_pk>/new-substitute/",
        attendance_views.attendance_new_substitute,
        name="new_substitute",
    ),
    path(
        "<int:pk>/attendance/<int:attendance_pk>/leave/",
        attendance_views.attendance_leave,
        name="leave",
    ),
    path("<int:pk>/guests/", attendance_views.guest_add, name="guest_add"),
    path("<int:pk>/dues/<int:attendance_pk>/pay/", attendance_views.payment_add, name="pay"),
    path(
        "<int:pk>/dues/<int:attendance_pk>/pay-due/",
        attendance_views.payment_add_due,
        name="pay_due",
    ),
    path(
        "<int:pk>/payments/<int:payment_pk>/undo/",
        attendance_views.payment_undo,
        name="payment_undo",
    ),
    path("<int:pk>/seating/", views.seating, name="seating"),
    path("<int:pk>/seating/draw/", views.seating_draw, name="draw"),
    path("<int:pk>/seating/draw/undo/", views.seating_draw_undo, name="draw_undo"),
    path("<int:pk>/seating/swap/", views.seating_swap, name="swap"),
    path("<int:pk>/seating/tv/", views.seating_tv, name="tv"),
    path("<int:pk>/history/", views.history, name="history"),
]
