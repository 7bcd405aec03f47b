"""The login limit as an authentication backend (django-axes)."""

from axes.backends import AxesStandaloneBackend


class LoginLimitBackend(AxesStandaloneBackend):
    """Refuses a locked-out username or address before any password is checked.

    A login that does not come from a web request (a management command, the test
    client's ``login``) has no address to count and is not limited.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
