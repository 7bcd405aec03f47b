"""Form pieces every app uses: plain labels and errors, money, service refusals on their
field, and the field-group renderer."""

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
    """Run ``action(form.cleaned_data)`` when the form is valid and return what it returns. A
    ``ServiceError`` goes onto the form at its field (or ``field_for(error.code)``)."""
    if not form.is_valid():
        return None
    try:
        return action(form.cleaned_data)
    except ServiceError as error:
        show_service_error(form, error, field_for(error.code) if field_for else None)
        return None


class SiteFormRenderer(TemplatesSetting):
    """Forms drawn with the project's templates; a field group is one box, label first."""

    field_template_name = "core/_field.html"


NO_NULL = "Take out the null character: it cannot be saved."
# Django's stock error words by code, in the site's words (a field's own words are kept).
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
    """{code: Django's words} for each error ``field`` or its validators can raise."""
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
    """A form mixin: every field's errors in plain words, labels without a colon."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def full_clean(self):
        for field in self.fields.values():
            plain_errors(field)
        super().full_clean()


class ErrorLink(NamedTuple):
    """One error in a form's summary: label ("" for the form's), words, id to link ("")."""

    label: str
    message: str
    anchor: str


class ErrorSummary(NamedTuple):
    """A refused form's summary (templates/core/_error_summary.html): count and errors."""

    count: int
    errors: list[ErrorLink]


class HostForm(PlainErrors, forms.Form):
    """A form of the site's pages; ``error_anchors``: ids to link errors to where a field
    (or ``NON_FIELD_ERRORS``) is not a box of its own."""

    error_anchors: dict[str, str] = {}

    @property
    def error_summary(self) -> ErrorSummary | None:
        """The form's errors summed up, in field order; None when it has none."""
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
    """A post of buttons and hidden fields: ``parsed()`` or a ``ServiceError``."""

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
    """``text`` as a whole number of at most 18 ASCII digits, else None (``"²"`` too)."""
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdecimal() and len(text) <= 18 else None


class PassedOnField(forms.CharField):
    """Text passed on as sent (NUL and length too), so the service refuses it itself."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("strip", False)
        super().__init__(**kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ]


class NumberOrField(forms.Field):
    """A signed whole number of at most 18 ASCII digits, else ``default``, for the service
    to refuse; ``signed`` False: no sign (as ``whole_number``)."""

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
