"""A password refused is said the site's way, plainly and kindly, on every form a host
types one into: the password change, the sign-up, the invitation's sign-up and the reset
link's form. Django's own words ("This password is too common.") are never shown."""

import html
import re

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from bunco_night.accounts import services
from tests.factories import make_group, make_user

pytestmark = pytest.mark.django_db

SHORT = "Use at least 8 characters: a few words together are easy to remember."
COMMON = "That password is one many people use, so it is easy to guess: choose another."
DIGITS = "A password of digits only is easy to guess: put some letters in it."
HELP = ("At least 8 characters.", "Not a password many people use.", "Not digits only.")
DJANGO_S = (
    "This password is",
    "Your password can",
    "Your password must",
    "Enter the same password as before",
    "New password confirmation",
    "Password confirmation",
    "Old password",
    "Required. 150 characters or fewer",
)


def words(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def change(client, settings):
    client.force_login(make_user("host"))
    return reverse("password_change"), {"old_password": "bunco"}, ("new_password1", "new_password2")


def signup(client, settings):
    settings.SIGNUP = "open"
    return (
        reverse("accounts:signup"),
        {"username": "ann", "email": "a@example.com"},
        (
            "password1",
            "password2",
        ),
    )


def invitation(client, settings):
    host = make_user("host")
    invited = services.invitation_create(group=make_group(user=host), by=host)
    return (
        invited.get_absolute_url(),
        {"username": "ann", "email": "a@example.com"},
        (
            "password1",
            "password2",
        ),
    )


def reset(client, settings):
    user = make_user("host")
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    url = reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(user)])
    form_url = client.get(url)["Location"]  # Django swaps the token for a session's
    return form_url, {}, ("new_password1", "new_password2")


FORMS = [change, signup, invitation, reset]


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.__name__)
def test_the_form_explains_a_password_in_the_site_s_words(client, settings, form):
    url, _, _ = form(client, settings)
    page = words(client.get(url))
    assert all(line in page for line in HELP), page
    assert "Type the new password again." in page or "Type the password again." in page
    assert [w for w in DJANGO_S if w in page] == []


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    ("password", "said"),
    [("1234", [SHORT, COMMON, DIGITS]), ("password", [COMMON]), ("38472910385", [DIGITS])],
)
def test_a_weak_password_is_refused_in_the_site_s_words(client, settings, form, password, said):
    url, data, (first, second) = form(client, settings)
    response = client.post(url, {**data, first: password, second: password})
    assert response.status_code == 200  # the form again, nothing changed
    page = words(response)
    assert [s for s in said if s not in page] == []
    assert [w for w in DJANGO_S if w in page] == []


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.__name__)
def test_a_weak_password_is_said_under_the_password_not_under_the_one_typed_again(
    client, settings, form
):
    url, data, (first, second) = form(client, settings)
    response = client.post(url, {**data, first: "password", second: "password"})
    errors = response.context["form"].errors
    assert errors.get(first) == [COMMON] and second not in errors
    page = words(response)
    again = "Type the new password again." if "new" in first else "Type the password again."
    assert page.index(COMMON) < page.index(again)


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.__name__)
def test_two_different_passwords_are_said_once_not_judged(client, settings, form):
    url, data, (first, second) = form(client, settings)
    response = client.post(url, {**data, first: "password", second: "passw0rd"})
    errors = response.context["form"].errors
    assert first not in errors and "The two passwords are not the same" in errors[second][0]
