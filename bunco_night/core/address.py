"""The address phones on the same Wi-Fi can open, for `make run` (no Django needed).

``python -m bunco_night.core.address HOST PORT`` prints ``http://<address>:PORT``, or
nothing when HOST is loopback or no network is up.
"""

import ipaddress
import socket
import sys

WILDCARDS = {"", "0.0.0.0", "::", "[::]", "*"}
# RFC 5737: a UDP connect to it sends nothing but picks the outgoing interface.
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
