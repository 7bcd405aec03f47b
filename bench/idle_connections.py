"""What idle connections (a browser's preconnects that never send) do to everyone else.

Run: .venv/bin/python bench/idle_connections.py [--threads 2 4 8] [--idle 0 6 12]

gunicorn's gthread worker gives each new connection a thread, which waits up to 5 s
for the request before handing the connection back to its poller. A connection that
never sends holds that thread all that time, so a few of them stall a worker with few
threads. For each thread count, this serves the bench site (served.py, the project's
gunicorn.conf.py with --threads N), opens that many idle connections, and prints the
slowest of 20 requests to the bare view made meanwhile. Only 127.0.0.1 gets traffic.
"""

from __future__ import annotations

import argparse
import socket
import sys
import time
import urllib.request

from served import BenchSite, Server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[2, 4, 8])
    parser.add_argument("--idle", type=int, nargs="+", default=[0, 6, 12])
    args = parser.parse_args()
    with BenchSite(prefix="bunco-idle-") as site:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        call_command("collectstatic", verbosity=0, interactive=False)
        for threads in args.threads:
            server = Server(site, args=["--threads", str(threads)])
            server.start()
            try:
                url = f"http://127.0.0.1:{server.port}/bench/bare/"
                for _ in range(30):  # every worker answers once before timing
                    urllib.request.urlopen(url, timeout=30).read()
                for idle in args.idle:
                    socks = [
                        socket.create_connection(("127.0.0.1", server.port)) for _ in range(idle)
                    ]
                    time.sleep(0.3)
                    slowest = 0.0
                    for _ in range(20):
                        started = time.monotonic()
                        urllib.request.urlopen(url, timeout=30).read()
                        slowest = max(slowest, time.monotonic() - started)
                    for s in socks:
                        s.close()
                    print(
                        f"{len(server.workers())} workers x {threads} threads, {idle:3d} idle "
                        f"connections: slowest of 20 requests {slowest * 1000:7.0f} ms",
                        flush=True,
                    )
            finally:
                server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
