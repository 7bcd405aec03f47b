"""Django's password checks in the site's words (``AUTH_PASSWORD_VALIDATORS``)."""

from __future__ import annotations

from django.contrib.auth import password_validation as django


class MinimumLengthValidator(django.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return (
            f"Use at least {self.min_length} characters: a few words together are easy to remember."
        )

    def get_help_text(self) -> str:
        return f"At least {self.min_length} characters."


class CommonPasswordValidator(django.CommonPasswordValidator):
    def get_error_message(self) -> str:
        return "That password is one many people use, so it is easy to guess: choose another."

    def get_help_text(self) -> str:
        return "Not a password many people use."


class NumericPasswordValidator(django.NumericPasswordValidator):
    def get_error_message(self) -> str:
        return "A password of digits only is easy to guess: put some letters in it."

    def get_help_text(self) -> str:
        return "Not digits only."
