"""Every error a form of the site shows is in the site's own words, never Django's stock
ones ("This field is required.", "Ensure this value is greater than or equal to 0.")."""

import copy
import importlib
import inspect

import pytest
from django import forms
from django.contrib.auth import forms as auth_forms

from bunco_night.core.forms import PlainErrors, plain_errors, stock_errors

MODULES = [
    "bunco_night.accounts.forms",
    "bunco_night.games.views",
    "bunco_night.groups.forms",
    "bunco_night.groups.prize_forms",
    "bunco_night.groups.rules_forms",
    "bunco_night.invites.forms",
    "bunco_night.nights.forms",
    "bunco_night.seasons.forms",
]


def site_forms() -> list[type]:
    """Every form class the site declares."""
    found = {}
    for name in MODULES:
        for _, cls in inspect.getmembers(importlib.import_module(name), inspect.isclass):
            if issubclass(cls, forms.BaseForm) and cls.__module__.startswith("bunco_night."):
                found[cls.__qualname__] = cls
    return sorted(found.values(), key=lambda cls: cls.__qualname__)


def test_the_site_has_its_forms():
    names = {cls.__name__ for cls in site_forms()}
    assert {"RulesForm", "NightForm", "PlayerForm", "SeasonForm", "SignupForm"} <= names


@pytest.mark.parametrize("form_class", site_forms(), ids=lambda cls: cls.__name__)
def test_every_field_of_every_form_speaks_plainly(form_class):
    assert issubclass(form_class, PlainErrors), f"{form_class.__name__} is not a PlainErrors"
    for name, declared in form_class.base_fields.items():
        field = copy.deepcopy(declared)
        plain_errors(field)
        for code, stock in stock_errors(declared).items():
            words = str(field.error_messages.get(code, stock))
            assert words != stock and words, f"{form_class.__name__}.{name}, {code}: {stock!r}"


@pytest.mark.parametrize("form_class", site_forms(), ids=lambda cls: cls.__name__)
def test_a_forms_own_errors_are_not_djangos(form_class):
    """The errors a form raises itself (auth's "The two password fields didn't match.")."""
    for parent in form_class.__mro__[1:]:
        if parent.__module__.startswith("django.") and hasattr(parent, "error_messages"):
            for code, stock in parent.error_messages.items():
                assert str(form_class.error_messages[code]) != str(stock), (form_class, code)


def test_a_points_box_below_zero_says_so_in_plain_words():
    from bunco_night.groups.rules_forms import RulesForm

    form = RulesForm({"bunco_points": "-1", "mini_points": "abc", "low_points": ""})
    assert not form.is_valid()
    assert form.errors["bunco_points"] == ["Points cannot be below 0."]
    assert form.errors["mini_points"] == ["Enter a whole number, like 5."]
    assert form.errors["low_points"] == ["Give the points: 0 for none."]
    everything = " ".join(m for errors in form.errors.values() for m in errors)
    for stock in ("Ensure this value", "This field is required", "Select a valid choice"):
        assert stock not in everything


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        (forms.IntegerField(min_value=0), "-1", "Enter 0 or more."),
        (forms.IntegerField(max_value=9), "10", "Enter 9 or less."),
        (forms.IntegerField(), "x", "Enter a whole number, like 5."),
        (forms.CharField(), "", "Fill this in."),
        (forms.CharField(max_length=3), "abcd", "Use at most 3 characters (this has 4)."),
        (forms.CharField(), "a\x00b", "Take out the null character: it cannot be saved."),
        (forms.BooleanField(), False, "Tick this box to go on."),
        (forms.ChoiceField(choices=[("a", "A")]), "b", "Choose one of the choices given."),
        (forms.EmailField(), "ann@", "Enter an e-mail address like ann@example.com."),
        (forms.DateField(), "31/31/31", "Enter a date, like 2027-03-14."),
        (forms.TimeField(), "late", "Enter a time, like 7:00 PM."),
        (forms.IntegerField(min_value=0, error_messages={"min_value": "Own."}), "-1", "Own."),
    ],
)
def test_djangos_stock_words_become_the_sites(field, value, words):
    plain_errors(field)
    with pytest.raises(forms.ValidationError) as error:
        field.clean(value)
    assert error.value.messages == [words]


@pytest.mark.django_db
def test_fields_a_form_adds_itself_speak_plainly_too(group):
    from bunco_night.groups.prize_forms import PrizesForm

    form = PrizesForm(
        {"most_wins_on": "on", "most_wins_share": "5", "most_wins_unit": "euros"},
        prizes=list(group.prizes.all()),
        rules=group.rules_obj,
    )
    assert not form.is_valid()
    assert form.errors["most_wins_unit"] == ["Choose one of the choices given."]


def test_auth_forms_are_the_sites():
    from bunco_night.accounts import forms as site

    for mine, djangos in [
        (site.SignupForm, auth_forms.UserCreationForm),
        (site.LoginForm, auth_forms.AuthenticationForm),
        (site.PasswordChangeForm, auth_forms.PasswordChangeForm),
        (site.SetPasswordForm, auth_forms.SetPasswordForm),
        (site.PasswordResetForm, auth_forms.PasswordResetForm),
    ]:
        assert issubclass(mine, djangos) and issubclass(mine, PlainErrors)
