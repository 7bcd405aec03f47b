"""The login limit as an authentication backend (django-axes)."""

from axes.backends import AxesStandaloneBackend


class LoginLimitBackend(AxesStandaloneBackend):
    """Refuses a locked-out username or address before any password is checked (a login
    with no request is not limited)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
