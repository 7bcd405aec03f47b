"""Form pieces every app's pages use: labels without colons, errors in the site's own words,
money in dollars, a service's refusal shown next to the field it is about, and the
renderer that keeps each field's label, help, errors and box together."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.validators import ProhibitNullCharactersValidator
from django.forms.renderers import TemplatesSetting

from .errors import ServiceError
from .money import cents_text, parse_money


def show_service_error(form: forms.Form, error: ServiceError, field: str | None = None) -> None:
    """Put a service's message next to the field it names (or at the top of the form)."""
    field = field or error.field
    form.add_error(field if field in form.fields else None, error.message)


def form_message(form: forms.Form) -> str:
    """Every error of a form in one sentence, for a form too small to show them per field."""
    return " ".join(str(m) for errors in form.errors.values() for m in errors)


def form_apply(
    form: forms.Form,
    action: Callable[[dict], object],
    field_for: Callable[[str], str | None] | None = None,
):
    """Run ``action(form.cleaned_data)`` when the form is valid and return what it returns.

    A ``ServiceError`` it raises goes onto the form, next to the field it names (or the
    field ``field_for(error.code)`` names), so afterwards the form has errors exactly
    when the action did not happen.
    """
    if not form.is_valid():
        return None
    try:
        return action(form.cleaned_data)
    except ServiceError as error:
        show_service_error(form, error, field_for(error.code) if field_for else None)
        return None


class SiteFormRenderer(TemplatesSetting):
    """Forms drawn with the project's templates; a field's group (``as_field_group``) is
    one box, its label first, so a grid of fields never parts a label from its field."""

    field_template_name = "core/_field.html"


NO_NULL = "Take out the null character: it cannot be saved."
# Django's stock words for what is wrong with a field ("This field is required.", "Ensure
# this value is greater than or equal to 0."), by the error's code, said as the rest of the
# site says things. Words a field was given where it is declared are kept.
PLAIN_ERRORS = {
    "required": "Fill this in.",
    "invalid_choice": "Choose one of the choices given.",
    "invalid_list": "Choose from the list.",
    "min_value": "Enter %(limit_value)s or more.",
    "max_value": "Enter %(limit_value)s or less.",
    "step_size": "Enter a multiple of %(limit_value)s.",
    "max_length": "Use at most %(limit_value)d characters (this has %(show_value)d).",
    "min_length": "Use at least %(limit_value)d characters (this has %(show_value)d).",
    "null_characters_not_allowed": NO_NULL,
    "missing": "No file came through: choose it again.",
    "empty": "That file is empty: choose another.",
    "contradiction": "Choose a new file or clear the old one, not both.",
}
# "invalid" says what the field holds: the first class the field is an instance of.
PLAIN_INVALID = (
    (forms.EmailField, "Enter an e-mail address like ann@example.com."),
    (forms.DecimalField, "Enter a number, like 2.5."),
    (forms.FloatField, "Enter a number, like 2.5."),
    (forms.IntegerField, "Enter a whole number, like 5."),
    (forms.DateField, "Enter a date, like 2027-03-14."),
    (forms.TimeField, "Enter a time, like 7:00 PM."),
    (forms.FileField, "No file came through: choose it again."),
    (forms.Field, "Check what you typed: it is not one this box takes."),
)
PLAIN_TICK = "Tick this box to go on."


# Values for an error's placeholders, to read its words whatever its numbers.
SAMPLE_PARAMS = {"limit_value": 1, "show_value": 2, "value": "x", "max": 1, "length": 2}


def error_text(message) -> str:
    """An error's words with its placeholders filled (a lazy plural reads as "" until then)."""
    try:
        return str(message % SAMPLE_PARAMS)
    except (KeyError, TypeError, ValueError):  # a "%" of its own, not a placeholder
        return str(message)


def stock_errors(field: forms.Field) -> dict[str, str]:
    """The words Django gives ``field`` for each error it can raise, by code: its class's
    and its validators'."""
    stock = {}
    for cls in reversed(type(field).__mro__):
        stock.update(getattr(cls, "default_error_messages", {}))
    for validator in field.validators:
        code, message = getattr(validator, "code", None), getattr(validator, "message", None)
        if code and message is not None:
            stock.setdefault(code, message)
    return {code: error_text(message) for code, message in stock.items()}


def plain_errors(field: forms.Field) -> None:
    """Give ``field`` the site's words for every error whose words are still Django's."""
    stock = stock_errors(field)
    for code, words in stock.items():
        if code in field.error_messages and error_text(field.error_messages[code]) != words:
            continue  # the field's own words
        if code == "invalid":
            plain = next(text for cls, text in PLAIN_INVALID if isinstance(field, cls))
        elif code == "required" and isinstance(field, forms.BooleanField):
            plain = PLAIN_TICK
        else:
            plain = PLAIN_ERRORS.get(code)
        if plain is not None:
            field.error_messages[code] = plain


class PlainErrors:
    """A form whose every field's errors are in the site's words (``plain_errors``), the
    fields a form adds in its own ``__init__`` too, and whose labels end without a colon:
    they read as questions on the page."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def full_clean(self):
        for field in self.fields.values():
            plain_errors(field)
        super().full_clean()


class ErrorLink(NamedTuple):
    """One error of a refused form, as its summary lists it: the field's label ("" for
    the form's own error), the words, and the id to link to ("" for none)."""

    label: str
    message: str
    anchor: str


class ErrorSummary(NamedTuple):
    """What a refused form says at its top (templates/core/_error_summary.html): how many
    fields are marked in error below, and every error, each field's with its label and
    a link to it, in the form's order, then the form's own."""

    count: int
    errors: list[ErrorLink]


class HostForm(PlainErrors, forms.Form):
    """A form of the site's pages: labels without a colon, errors in plain words.
    ``error_anchors``: the id to link to for a field not drawn as one box of its own, and
    for the form's own errors (under ``NON_FIELD_ERRORS``) where it has one."""

    error_anchors: dict[str, str] = {}

    @property
    def error_summary(self) -> ErrorSummary | None:
        """The form's errors summed up, fields in the form's order first; None when it has
        none (or was not sent)."""
        if not self.is_bound or not self.errors:
            return None
        errors = []
        fields = [name for name in self.fields if name in self.errors]
        for name in fields:
            bf = self[name]
            anchor = self.error_anchors.get(name) or bf.id_for_label or f"{bf.auto_id}_0"
            errors.append(ErrorLink(str(bf.label), self.errors[name][0], anchor))
        own = self.error_anchors.get(NON_FIELD_ERRORS, "")
        errors += [ErrorLink("", str(m), own) for m in self.non_field_errors()]
        return ErrorSummary(len(fields), errors)


class PostForm(HostForm):
    """A post of buttons and hidden fields, not boxes a person types in: ``parsed()`` is
    its cleaned data, or a ``ServiceError`` with the form's words."""

    def parsed(self) -> dict:
        if not self.is_valid():
            raise ServiceError(form_message(self), "bad_input")
        return self.cleaned_data


class MoneyField(forms.Field):
    """Dollars typed as "5", "5.00" or "$5"; the cleaned value is whole cents."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})

    def to_python(self, value):
        if value is None or not str(value).strip():
            return None
        return parse_money(value)

    def prepare_value(self, value):
        return cents_text(value) if isinstance(value, int) else value


def whole_number(text: str | None) -> int | None:
    """``text`` as a whole number when it is one, in ASCII digits (at most 18 of them), else
    None. For ids and versions read from a query string: ``"²"`` passes ``str.isdigit`` but
    ``int`` refuses it, and a number of a thousand digits is no id."""
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdecimal() and len(text) <= 18 else None


class PassedOnField(forms.CharField):
    """Text a page sends that a service checks itself (a nonce, a tap, a prize's code):
    passed on as sent, NUL and length included, so that the refusal is the service's own
    (the codes the phones read, the words the pages show)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("strip", False)
        super().__init__(**kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ]


class NumberOrField(forms.Field):
    """A number a page's button or hidden field sends, read as a whole number in ASCII
    digits with a sign (at most 18 of them); anything else, or nothing, is ``default``.
    For fields whose nonsense the service refuses in its own words (a seat no table has,
    an entry not of this table): a number of a thousand digits is no seat either.
    ``signed`` False: no sign either (an id, a count), as ``whole_number`` reads them."""

    def __init__(self, *, default: int | None = None, signed: bool = True, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.default = default
        self.signed = signed

    def to_python(self, value):
        text = str(value or "").strip()
        digits = text.removeprefix("-").removeprefix("+") if self.signed else text
        if digits.isascii() and digits.isdecimal() and len(digits) <= 18:
            return int(text)
        return self.default
