"""The phones of a party night, each on its own schedule: the client of party_bench.py.

Run by party_bench.py as: python bench/party_client.py PLAN.json > RESULT.json

Every phone is an asyncio task with its own HTTP connection (a browser keeps one open
to the site), sending on a fixed schedule from a random start within its period:

- a player's page polls /p/<token>/state/?v=<version> every ``poll_every`` seconds;
- a table phone polls /t/<token>/state/?v=<version> and taps every ``tap_every``
  seconds (POST /t/<token>/entry/, a fresh nonce, a real seat, the round), and shows the
  board the tap's answer carries, polling on from its version, as bunco.js does (an
  answer without a board: it asks for the board at once, as bunco.js did before);
- the host's live board and the room screen poll their state with the host's session.

A poll that gets a 200 fragment adopts the version in it (the fragment's own hx-get),
as htmx does when it swaps the fragment in.

Latency counts from the **scheduled** send time, not from when the request went out: a
phone whose previous request has not come back sends late, and that wait counts, so a
server that falls behind shows it (wrk2's way of avoiding coordinated omission; htmx
itself would skip a poll while one is in flight, so real phones show stale screens
rather than queued polls). A phone still behind ``drain`` seconds (60) after the end
sends nothing more: what it had left counts as errors ("unsent"), so a run always ends.
In "bare" mode every request goes to /bench/bare/ instead, on the same schedule.

Why a small asyncio client and not wrk or locust: wrk runs each connection closed-loop
and its Lua hooks know neither which connection they serve nor the time, so it cannot
keep 600 schedules or count from a scheduled time (wrk2 can, but it is not in Debian);
locust paces users only approximately (constant_pacing), times each request from when
it went out, and brings gevent and a pytest plugin into the project's virtualenv.
aiohttp is one library, and 350 requests a second take it a fraction of a core.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import time

import aiohttp

RETRYABLE = (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError)


class Recorder:
    """Latencies (ms, from the scheduled time) and outcomes by kind of request."""

    def __init__(self):
        self.latency: dict[str, list[float]] = {}
        self.codes: dict[str, dict[str, int]] = {}
        self.errors: dict[str, dict[str, int]] = {}
        self.late: dict[str, int] = {}
        self.adopted = 0
        self.retried = 0

    def record(self, kind: str, latency_ms: float, outcome: str, error: str | None) -> None:
        self.latency.setdefault(kind, []).append(latency_ms)
        codes = self.codes.setdefault(kind, {})
        codes[outcome] = codes.get(outcome, 0) + 1
        if error:
            errors = self.errors.setdefault(kind, {})
            errors[error] = errors.get(error, 0) + 1

    def as_dict(self) -> dict:
        return {
            "latency": self.latency,
            "codes": self.codes,
            "errors": self.errors,
            "late": self.late,
            "adopted": self.adopted,
            "retried": self.retried,
        }


class Phone:
    """One phone: a poll path with its version, maybe taps, on one connection."""

    def __init__(self, spec: dict, plan: dict, recorder: Recorder, rng: random.Random):
        self.kind = spec["kind"]
        self.poll_path = spec["poll"]
        self.version = spec["version"]
        self.headers = {"HX-Request": "true"}
        if spec.get("cookie"):
            self.headers["Cookie"] = spec["cookie"]
        self.entry = spec.get("entry")
        self.seats = spec.get("seats", 4)
        self.taps = spec.get("taps", ["miss"])
        self.poll_every = spec.get("poll_every", plan["poll_every"])
        self.tap_every = plan["tap_every"]
        self.bare = plan["mode"] == "bare"
        self.plan = plan
        self.rec = recorder
        self.rng = rng
        self.sent_taps = 0
        self.adopt = re.compile(r'hx-get="' + re.escape(self.poll_path) + r'\?v=([^"&]+)"')

    async def run(self, session: aiohttp.ClientSession, start: float, end: float) -> None:
        """Send every scheduled poll and tap from ``start`` until ``end`` (monotonic)."""
        next_poll = start + self.rng.uniform(0, self.poll_every)
        next_tap = start + self.rng.uniform(0, self.tap_every) if self.entry else float("inf")
        give_up = end + self.plan.get("drain", 60)
        while True:
            due = min(next_poll, next_tap)
            if due >= end:
                return
            now = time.monotonic()
            if now > give_up:
                # So far behind that the run would not end: what is left is never sent, and
                # counts as an error with the wait so far (a lower bound) as its latency.
                kind = f"{self.kind} poll" if due == next_poll else "taps"
                self.rec.record(kind, (now - due) * 1000, "unsent", "unsent (phone too far behind)")
                if due == next_tap:
                    next_tap += self.tap_every
                else:
                    next_poll += self.poll_every
                continue
            if due > now:
                await asyncio.sleep(due - now)
            elif now - due > 0.05:
                kind = f"{self.kind} tap" if due == next_tap else f"{self.kind} poll"
                self.rec.late[kind] = self.rec.late.get(kind, 0) + 1
            if due == next_tap:
                next_tap += self.tap_every
                stored, board = await self.tap(session, due)
                if stored and not self.bare and not self.adopt_from(board):
                    await self.poll(session, time.monotonic())  # bunco.js refreshes the board
            else:
                next_poll += self.poll_every
                await self.poll(session, due)

    async def poll(self, session: aiohttp.ClientSession, scheduled: float) -> None:
        path = "/bench/bare/" if self.bare else f"{self.poll_path}?v={self.version}"
        status, body, error = await self.send(session, "GET", path, headers=self.headers)
        if status == 200 and not self.bare:
            self.adopt_from(body)
        ok = status in (200, 204)
        self.rec.record(
            f"{self.kind} poll",
            self._ms(scheduled),
            str(status or error),
            None if ok else (error or str(status)),
        )

    def adopt_from(self, board: str) -> bool:
        """Adopt the version of a board fragment (as htmx does when it swaps it in); False
        when ``board`` is not one."""
        found = self.adopt.search(board)
        if found and found.group(1) != self.version:
            self.version = found.group(1)
            self.rec.adopted += 1
        return found is not None

    async def tap(self, session: aiohttp.ClientSession, scheduled: float) -> tuple[bool, str]:
        """Send a tap; (stored, the board its answer carries or "")."""
        self.sent_taps += 1
        seat = (self.sent_taps - 1) % self.seats + 1
        tap = self.taps[(self.sent_taps - 1) % len(self.taps)]
        data = {
            "nonce": f"party-{self.plan['run']}-{self.entry.split('/')[2]}-{self.sent_taps}",
            "seat": str(seat),
            "tap": tap,
            "round": str(self.plan.get("round", 1)),
        }
        path = "/bench/bare/" if self.bare else self.entry
        status, body, error = await self.send(
            session, "POST", path, data=data, headers={"Accept": "application/json"}
        )
        stored = status == 200 and (self.bare or body.startswith('{"ok": true'))
        board = ""
        if stored and not self.bare:
            try:
                board = json.loads(body).get("board") or ""
            except ValueError:
                board = ""
        outcome = str(status or error) if status != 400 else "400 refused"
        self.rec.record(
            "taps",
            self._ms(scheduled),
            outcome,
            None if stored else (error or body[:80] or str(status)),
        )
        return stored, board

    async def send(self, session, method, path, **kw) -> tuple[int | None, str, str | None]:
        """(status, body, error): a browser retries once a request whose kept-alive
        connection the server had just closed; so does this (taps carry a nonce)."""
        for attempt in (1, 2):
            try:
                async with session.request(method, path, **kw) as response:
                    return response.status, await response.text(), None
            except RETRYABLE as error:
                if attempt == 1:
                    self.rec.retried += 1
                    continue
                return None, "", type(error).__name__
            except TimeoutError:
                return None, "", "timeout"
            except aiohttp.ClientError as error:
                return None, "", type(error).__name__
        raise AssertionError("unreachable")

    @staticmethod
    def _ms(scheduled: float) -> float:
        return (time.monotonic() - scheduled) * 1000


async def main(plan: dict) -> dict:
    rng = random.Random(plan.get("seed", 1))
    recorder = Recorder()
    phones = [Phone(spec, plan, recorder, rng) for spec in plan["phones"]]
    timeout = aiohttp.ClientTimeout(total=plan.get("timeout", 30))
    sessions = [
        aiohttp.ClientSession(
            base_url=plan["base_url"],
            # One connection per phone, kept alive as a browser keeps it.
            connector=aiohttp.TCPConnector(limit=1, keepalive_timeout=60),
            timeout=timeout,
            cookie_jar=aiohttp.DummyCookieJar(),
        )
        for _ in phones
    ]
    cpu = time.process_time()
    start = time.monotonic() + 0.5
    end = start + plan["seconds"]
    try:
        await asyncio.gather(*(p.run(s, start, end) for p, s in zip(phones, sessions, strict=True)))
    finally:
        await asyncio.gather(*(s.close() for s in sessions))
    result = recorder.as_dict()
    result["seconds"] = plan["seconds"]
    result["wall"] = time.monotonic() - start
    result["client_cpu"] = time.process_time() - cpu
    result["phones"] = len(phones)
    return result


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        plan = json.load(f)
    json.dump(asyncio.run(main(plan)), sys.stdout)
