"""A host's account pages, invitation links, and a group's hosts."""

from django.urls import path, re_path

from . import views

app_name = "accounts"

urlpatterns = [
    path("accounts/", views.account, name="account"),
    path("accounts/email/", views.email_save, name="email"),
    path("accounts/signup/", views.signup, name="signup"),
    # Only a token's letters: anything else (a NUL) is a 404 before any query.
    re_path(r"^accounts/invite/(?P<token>[A-Za-z0-9_-]+)/$", views.invitation, name="invitation"),
    path("groups/<slug:slug>/hosts/", views.hosts, name="hosts"),
    path("groups/<slug:slug>/hosts/invite/", views.invite, name="invite"),
    path(
        "groups/<slug:slug>/hosts/invitations/<int:pk>/cancel/",
        views.invitation_cancel,
        name="invitation_cancel",
    ),
    path("groups/<slug:slug>/hosts/<int:user_pk>/remove/", views.host_remove, name="remove"),
    path("groups/<slug:slug>/hosts/leave/", views.leave, name="leave"),
]
