"""The address phones on the same Wi-Fi can open, for `make run` (no Django needed).

    python -m bunco_night.core.address HOST PORT

prints ``http://<address>:PORT`` where ``<address>`` is the one phones can reach: HOST
itself when it names an address, this computer's address on its network (the one its
traffic leaves from) when HOST is a wildcard (0.0.0.0 or ::), and nothing at all when HOST
is loopback (127.0.0.1, localhost: no phone can reach it) or no network is up.
"""

import ipaddress
import socket
import sys

WILDCARDS = {"", "0.0.0.0", "::", "[::]", "*"}
# A documentation address (RFC 5737): connecting a UDP socket to it sends nothing, but makes
# the system pick the interface its traffic would leave from.
PROBE = "192.0.2.1"


def outward_address() -> str | None:
    """This computer's address on its network (its Wi-Fi), or None without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect((PROBE, 9))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if ipaddress.ip_address(address).is_loopback else address


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this computer only (localhost, 127.x.x.x, ::1)."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def reachable_url(host: str, port: int | str, find=outward_address) -> str:
    """The URL phones open for a server listening on ``host``:``port``, or "" if none."""
    host = host.strip()
    if is_loopback(host):
        return ""
    if host in WILDCARDS:
        host = find() or ""
        if not host:
            return ""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address in a URL
    return f"http://{host}:{port}"


if __name__ == "__main__":  # pragma: no cover - run by the Makefile
    print(reachable_url(sys.argv[1], sys.argv[2]))
