"""Forms for hosts' accounts. Forms parse what was typed; the services decide."""

from __future__ import annotations

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import UserCreationForm

from bunco_night.core.forms import HostForm, PlainErrors

EMAIL_INVALID = {"invalid": "Enter an e-mail address like ann@example.com."}
# Django's words for a password typed twice differently, said the site's way.
PASSWORD_MISMATCH = "The two passwords are not the same: type the new one twice."


class PasswordAgain:
    """A form mixin: the password typed twice, in the site's words."""

    again: tuple[str, str, str]  # the second box's field, label and help text

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        name, label, help_text = self.again
        self.fields[name].label, self.fields[name].help_text = label, help_text

    def validate_password_for_user(self, user, password_field_name=None, **kwargs):
        """The checks' words go under the password itself, not the repeat box."""
        again = self.again[0]
        if self.cleaned_data.get(again):
            first = again.removesuffix("2") + "1"
            super().validate_password_for_user(user, password_field_name=first, **kwargs)


NEW_AGAIN = ("new_password2", "New password again", "Type the new password again.")


class SignupForm(PlainErrors, PasswordAgain, UserCreationForm):
    """A new host: a username, an e-mail for password resets, and a password twice."""

    error_messages = {"password_mismatch": PASSWORD_MISMATCH}
    again = ("password2", "Password again", "Type the password again.")

    email = forms.EmailField(
        label="E-mail",
        max_length=254,
        error_messages=EMAIL_INVALID,
        help_text="Where a forgotten password's reset link goes.",
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        help_texts = {"username": "Up to 150 letters, digits and @ . + - _ (no spaces)."}
        error_messages = {
            "username": {
                "unique": "That username is taken: choose another.",
                "invalid": "Use only letters, digits and @ . + - _ in a username (no spaces).",
            }
        }


class EmailForm(HostForm):
    """A host's new e-mail address, confirmed with their password."""

    email = forms.EmailField(
        label="E-mail", max_length=254, required=False, error_messages=EMAIL_INVALID
    )
    password = forms.CharField(
        label="Your password",
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        error_messages={"required": "Type your password to confirm the change."},
    )

    def __init__(self, *args, user, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.")
        return password


class InvitationForm(HostForm):
    """Invite a co-host: the link is shown here, and e-mailed if an address is given."""

    email = forms.EmailField(
        label="Their e-mail (optional)",
        max_length=254,
        required=False,
        error_messages=EMAIL_INVALID,
        help_text="Leave it empty to pass the link on yourself.",
    )


class LoginForm(PlainErrors, auth_forms.AuthenticationForm):
    """Django's login."""

    error_messages = {
        "invalid_login": "That username and password do not match. Check both (capitals count).",
        "inactive": "This account is closed.",
    }


class PasswordChangeForm(PlainErrors, PasswordAgain, auth_forms.PasswordChangeForm):
    """Django's password change."""

    error_messages = {
        "password_mismatch": PASSWORD_MISMATCH,
        "password_incorrect": "That is not your current password: type it again.",
    }
    again = NEW_AGAIN

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["old_password"].label = "Your current password"


class SetPasswordForm(PlainErrors, PasswordAgain, auth_forms.SetPasswordForm):
    """Django's new password from a reset link."""

    error_messages = {"password_mismatch": PASSWORD_MISMATCH}
    again = NEW_AGAIN


class PasswordResetForm(PlainErrors, auth_forms.PasswordResetForm):
    """Django's reset request by e-mail."""
