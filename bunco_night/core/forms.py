"""Form pieces every app's host pages use: labels without colons, money in dollars,
a service's refusal shown next to the field it is about, and the renderer that keeps each
field's label, help, errors and box together."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
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


class HostForm(forms.Form):
    """A form whose labels end without a colon: they read as questions on the page."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


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
