"""A host's account pages, sign-up, invitations, the hosts of a group, and the login limit."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from bunco_night.accounts import services
from bunco_night.accounts.models import Invitation
from bunco_night.nights.services import seating_draw
from tests.factories import make_group, make_night, make_user

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a table of four"


def login_post(client, username, password, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


# ---------------------------------------------------------------------------
# Password and e-mail


def test_a_host_changes_their_password_and_logs_in_with_the_new_one(client, host):
    response = client.post(
        reverse("password_change"),
        {"old_password": "bunco", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )
    assert "Password changed." in response.content.decode()
    client.logout()
    assert login_post(client, "host", "bunco").status_code == 200  # the form again
    assert login_post(client, "host", NEW_PASSWORD).status_code == 302


def test_a_wrong_old_password_is_a_message_on_the_form(client, host):
    response = client.post(
        reverse("password_change"),
        {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    assert "That is not your current password" in response.content.decode()


@pytest.mark.parametrize(
    ("password", "email", "saved", "message"),
    [
        ("bunco", "helen@example.com", "helen@example.com", "E-mail saved."),
        ("wrong", "helen@example.com", "", "That is not your password."),
        ("bunco", "not an address", "", "Enter an e-mail address"),
    ],
)
def test_the_email_changes_only_with_the_password(client, host, password, email, saved, message):
    response = client.post(
        reverse("accounts:email"), {"email": email, "password": password}, follow=True
    )
    assert message in response.content.decode()
    host.refresh_from_db()
    assert host.email == saved


def test_a_forgotten_password_is_reset_from_the_emailed_link(client):
    get_user_model().objects.filter(pk=make_user("host").pk).update(email="h@example.com")
    client.post(reverse("password_reset"), {"email": "h@example.com"})
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body)[1]
    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"]
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )
    assert "Password saved" in done.content.decode()
    assert login_post(client, "host", NEW_PASSWORD).status_code == 302


# ---------------------------------------------------------------------------
# Sign-up


def test_sign_up_from_the_login_page_only_when_the_deployment_allows_it(client, settings):
    settings.SIGNUP = "invite"
    assert client.get(reverse("accounts:signup")).status_code == 404
    assert "Make an account" not in client.get(reverse("login")).content.decode()

    settings.SIGNUP = "open"
    assert "Make an account" in client.get(reverse("login")).content.decode()
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "ann",
            "email": "ann@example.com",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )
    assert response.status_code == 302 and response["Location"] == reverse("groups:index")
    assert client.get(reverse("groups:index")).context["user"].username == "ann"


def test_sign_up_refuses_a_taken_username_and_mismatched_passwords(client, settings):
    settings.SIGNUP = "open"
    make_user("ann")
    response = client.post(
        reverse("accounts:signup"),
        {"username": "ann", "email": "a@example.com", "password1": "x" * 12, "password2": "y" * 12},
    )
    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"username", "password2"}


# ---------------------------------------------------------------------------
# Invitations and hosts


def test_a_host_invites_by_email_and_the_link_shows_on_the_hosts_page(client, host, group):
    response = client.post(
        reverse("accounts:invite", args=[group.slug]), {"email": "ann@example.com"}, follow=True
    )
    invitation = Invitation.objects.get(group=group)
    assert invitation.token in response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("accounts:hosts", args=[group.slug])
    assert len(mail.outbox) == 1 and invitation.token in mail.outbox[0].body
    assert mail.outbox[0].to == ["ann@example.com"]
    page = client.get(reverse("accounts:hosts", args=[group.slug]))
    assert page["Cache-Control"] == "no-store"


@override_settings(PUBLIC_URL="http://192.168.1.20:8000")
def test_a_reset_asked_from_the_laptop_links_to_the_public_address(client, host):
    client.defaults["HTTP_HOST"] = "127.0.0.1:8000"
    host.email = "h@example.com"
    host.save()
    client.post(reverse("password_reset"), {"email": "h@example.com"})
    body = mail.outbox[0].body
    assert "http://192.168.1.20:8000/accounts/reset/" in body and "127.0.0.1" not in body


@override_settings(PUBLIC_URL="http://192.168.1.20:8000")
def test_an_invitation_from_the_laptop_links_to_the_public_address(client, host, group):
    client.defaults["HTTP_HOST"] = "127.0.0.1:8000"
    client.post(reverse("accounts:invite", args=[group.slug]), {"email": "ann@example.com"})
    invitation = Invitation.objects.get(group=group)
    link = f"http://192.168.1.20:8000{invitation.get_absolute_url()}"
    assert link in mail.outbox[0].body and "127.0.0.1" not in mail.outbox[0].body
    page = client.get(reverse("accounts:hosts", args=[group.slug])).content.decode()
    assert link in page and "127.0.0.1" not in page


def test_a_stranger_accepts_by_making_an_account(client, host, group):
    invitation = services.invitation_create(group=group, by=host)
    client.logout()
    page = client.get(invitation.get_absolute_url())
    assert group.name in page.content.decode() and page["Cache-Control"].count("no-store")
    response = client.post(
        invitation.get_absolute_url(),
        {
            "username": "ann",
            "email": "ann@example.com",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )
    assert response.status_code == 302 and response["Location"] == group.get_absolute_url()
    ann = get_user_model().objects.get(username="ann")
    assert group.is_host(ann)
    assert client.get(group.get_absolute_url()).status_code == 200


def test_a_logged_in_user_accepts_with_one_button(client, host, group):
    invitation = services.invitation_create(group=group, by=host)
    ann = make_user("ann")
    client.force_login(ann)
    assert "Host Maple Street Bunco" in client.get(invitation.get_absolute_url()).content.decode()
    client.post(invitation.get_absolute_url())
    assert group.is_host(ann)
    gone = client.get(invitation.get_absolute_url())
    assert gone.status_code == 404 and "does not work" in gone.content.decode()


def test_group_host_pages_are_404_for_anyone_else(client, host, group):
    invitation = services.invitation_create(group=group, by=host)
    client.force_login(make_user("stranger"))
    slug = group.slug
    for method, url in [
        ("get", reverse("accounts:hosts", args=[slug])),
        ("post", reverse("accounts:invite", args=[slug])),
        ("post", reverse("accounts:invitation_cancel", args=[slug, invitation.pk])),
        ("post", reverse("accounts:remove", args=[slug, host.pk])),
        ("get", reverse("accounts:leave", args=[slug])),
        ("post", reverse("accounts:leave", args=[slug])),
    ]:
        assert getattr(client, method)(url).status_code == 404, url
    assert group.is_host(host) and Invitation.objects.filter(pk=invitation.pk).exists()


def test_leaving_asks_first_and_the_last_host_cannot(client, host, group):
    page = client.get(reverse("accounts:leave", args=[group.slug]))
    assert "last host" in page.content.decode()
    response = client.post(reverse("accounts:leave", args=[group.slug]), follow=True)
    assert "You are the last host" in response.content.decode()
    assert group.is_host(host)

    ann = make_user("ann")
    services.invitation_accept(
        token=services.invitation_create(group=group, by=host).token, user=ann
    )
    client.force_login(ann)
    page = client.get(reverse("accounts:leave", args=[group.slug]))
    assert "Yes, leave" in page.content.decode() and group.is_host(ann)
    response = client.post(reverse("accounts:leave", args=[group.slug]))
    assert response["Location"] == reverse("groups:index")
    assert not group.is_host(ann)
    assert client.get(group.get_absolute_url()).status_code == 404


def test_a_host_removes_a_co_host_and_cancels_an_invitation(client, host, group):
    ann = make_user("ann")
    services.invitation_accept(
        token=services.invitation_create(group=group, by=host).token, user=ann
    )
    open_one = services.invitation_create(group=group, by=host)
    client.post(reverse("accounts:remove", args=[group.slug, ann.pk]))
    client.post(reverse("accounts:invitation_cancel", args=[group.slug, open_one.pk]))
    assert not group.is_host(ann)
    assert client.get(open_one.get_absolute_url()).status_code == 404


def test_the_account_page_lists_the_groups_you_host(client, host, group):
    page = client.get(reverse("accounts:account")).content.decode()
    assert group.name in page and reverse("accounts:hosts", args=[group.slug]) in page


# ---------------------------------------------------------------------------
# The login limit


@pytest.mark.parametrize("weak", ["password", "12345678901"])
def test_a_well_known_or_all_digit_password_is_refused(client, host, weak):
    response = client.post(
        reverse("password_change"),
        {"old_password": "bunco", "new_password1": weak, "new_password2": weak},
    )
    assert response.status_code == 200
    assert "easy to guess" in response.content.decode()
    client.logout()
    assert client.login(username=host.username, password="bunco")


def test_a_username_is_locked_out_after_repeated_failures_and_phones_still_play(client, settings):
    make_user("host")
    group = make_group(user=get_user_model().objects.get(username="host"))
    night = make_night(group)
    seating_draw(night=night, seed=1)
    table = night.tables.get(number=1)
    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login_post(client, "host", f"wrong{i}").status_code == 200
    locked = login_post(client, "host", "wrong-again")
    assert locked.status_code == 429
    assert "try again in 15 minutes" in locked.content.decode()
    # Even the right password waits now...
    assert login_post(client, "host", "bunco").status_code == 429
    # ...from another address too: the username is locked.
    assert login_post(client, "host", "bunco", REMOTE_ADDR="10.9.9.9").status_code == 429
    # The table's phone answers as before.
    assert client.get(reverse("play:table", args=[table.token])).status_code == 200
    assert client.get(reverse("home")).status_code == 200


def test_an_address_is_locked_out_whatever_usernames_it_tries(client, settings):
    make_user("host")
    for i in range(settings.AXES_FAILURE_LIMIT):
        login_post(client, f"guess{i}", "wrong")
    assert login_post(client, "host", "bunco").status_code == 429
    assert login_post(client, "host", "bunco", REMOTE_ADDR="10.1.2.3").status_code == 302


def test_the_login_page_says_at_once_that_this_device_is_paused(client, settings):
    make_user("host")
    assert client.get(reverse("login")).status_code == 200
    for i in range(settings.AXES_FAILURE_LIMIT):
        login_post(client, f"guess{i}", "wrong")
    paused = client.get(reverse("login"))
    assert paused.status_code == 429
    assert "Logging in is paused" in paused.content.decode()
    assert client.get(reverse("login"), REMOTE_ADDR="10.1.2.3").status_code == 200


def test_a_password_reset_lifts_the_lockout_of_the_username(client, settings):
    User = get_user_model()
    make_user("host")
    User.objects.filter(username="host").update(email="h@example.com")
    for i in range(settings.AXES_FAILURE_LIMIT):
        login_post(client, "host", f"wrong{i}", REMOTE_ADDR="10.0.0.66")
    assert login_post(client, "host", "bunco").status_code == 429
    client.post(reverse("password_reset"), {"email": "h@example.com"})
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body)[1]
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert login_post(client, "host", NEW_PASSWORD).status_code == 302


def test_behind_a_proxy_the_limit_counts_the_forwarded_address(client, settings):
    settings.BEHIND_PROXY = True
    make_user("host")
    for i in range(settings.AXES_FAILURE_LIMIT):
        login_post(client, f"guess{i}", "wrong", HTTP_X_FORWARDED_FOR="spoofed, 203.0.113.7")
    assert login_post(client, "host", "bunco", HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == (
        429
    )
    assert login_post(client, "host", "bunco", HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == (
        302
    )


def test_an_invitation_whose_email_cannot_be_sent_still_shows_its_link(
    client, host, group, settings
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 2
    response = client.post(
        reverse("accounts:invite", args=[group.slug]), {"email": "ann@example.com"}, follow=True
    )
    assert response.status_code == 200
    assert "could not be sent" in response.content.decode()
    assert Invitation.objects.get(group=group).token in response.content.decode()


@pytest.mark.parametrize("token", ["%00", "a%00b", "..", "x" * 300 + "%C2%B2"])
def test_an_invitation_link_of_other_letters_is_not_found(client, token):
    assert client.get(f"/accounts/invite/{token}/").status_code == 404
