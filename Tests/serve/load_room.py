#!/usr/bin/env python3
"""Load and hostile-request test of `plumb serve`, on loopback only, bounded in count and time.

    python3 Tests/serve/load_room.py [--learners 40] [--soak SECONDS]

Starts its own room (a free port, a temporary state folder). Each learner joins, then checks
every exercise's solution and, for some, the exercise as shipped (a wrong answer), and runs a
playground pipeline; two hostile learners meanwhile run `interval 1ms` and a 1,000-stage pipeline
over and over. Reports p50/p99 from Check to verdict and from Run to the final diagram, and the
errors (a non-200 answer, a missing result, a wrong verdict). Then hostile requests (oversize
bodies, bad UTF-8, traversal, wrong tokens, a learner's token on the teacher's endpoint, 1,000
connections opened and dropped) and a check that every learner's progress is still there.

With --soak SECONDS a room's steady state follows: a fixed set of learners (--soak-learners,
joined once, as in a workshop) check all the exercises and run pipelines over and over. The
server's resident memory, threads and open file descriptors are sampled every --sample-every
seconds, between rounds (no request in flight), after --warm-up seconds of the same traffic; the
samples are printed as a table with a verdict: memory flat when its least-squares slope over the
last third of the soak is under --flat-mib-per-hour; threads and descriptors
flat when their floor (the fewest in a sample: a connection just answered may still hold its
thread and socket for a moment) is no higher in the last third than in the first. --soak-joins makes every round join new learners instead (each kept by the room,
with their progress: memory grows with the room's size, not with time).
Exits 1 on any error, and on a soak that is not flat.
"""
import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from conftest import ROOT, start_room, stop_room  # noqa: E402

WORKSHOP = os.path.join(ROOT, "Examples/workshop")
DEADLINE = 900  # seconds: the whole test stops by then, whatever happens


async def request(port, method, path, headers=None, body=None, raw=None):
    """One HTTP/1.1 request on its own connection; (status, body text)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
    try:
        if raw is None:
            data = b"" if body is None else body.encode() if isinstance(body, str) else body
            lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
            for name, value in (headers or {}).items():
                lines.append(f"{name}: {value}")
            if body is not None:
                lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
            raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
        writer.write(raw)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(-1), 60)
    finally:
        writer.close()
    head, _, rest = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/") else 0
    if b"transfer-encoding: chunked" in head.lower():
        out = b""
        while rest:
            size_text, _, rest = rest.partition(b"\r\n")
            size = int(size_text or b"0", 16)
            if size == 0:
                break
            out += rest[:size]
            rest = rest[size + 2:]
        rest = out
    return status, rest.decode("utf-8", "replace")


async def teacher_stream(room, port, stop, seen):
    """A teacher's live stream, as the teacher's page and the present view each hold one: reads
    its events until `stop`, counting each kind and the bytes of each `room` event (the table,
    with its totals and common mistakes) in `seen`."""
    status, body = await request(port, "POST", "/api/teacher/stream", {"X-Plumb-Key": room.key}, "{}")
    if status != 200:
        seen["errors"].append(f"teacher stream ticket {status} {body[:200]}")
        return
    ticket = json.loads(body)["ticket"]
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
    writer.write(f"GET /api/teacher/events?ticket={ticket} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    raw = b""
    body = b""
    head_done = False
    try:
        while not stop.is_set():
            try:
                data = await asyncio.wait_for(reader.read(65536), 1)
            except asyncio.TimeoutError:
                continue
            if not data:
                seen["errors"].append("a teacher stream ended during the load")
                return
            raw += data
            if not head_done:
                if b"\r\n\r\n" not in raw:
                    continue
                _, _, raw = raw.partition(b"\r\n\r\n")
                head_done = True
            # The chunked body, decoded as it comes.
            while True:
                size_line, sep, rest = raw.partition(b"\r\n")
                if not sep:
                    break
                size = int(size_line or b"0", 16)
                if len(rest) < size + 2:
                    break
                body += rest[:size]
                raw = rest[size + 2:]
            while b"\n\n" in body:
                block, _, body = body.partition(b"\n\n")
                name = None
                length = 0
                for line in block.split(b"\n"):
                    if line.startswith(b"event: "):
                        name = line[7:].decode()
                    if line.startswith(b"data: "):
                        length += len(line) - 6
                if name:
                    seen.setdefault(name, []).append(length)
    finally:
        writer.close()


async def presenter(room, port, stop, seen):
    """The teacher presents a pipeline, then steps through it now and then while the room works."""
    key = {"X-Plumb-Key": room.key}
    status, _ = await request(port, "POST", "/api/teacher/present", key, json.dumps({"text": "interval 100ms | take 5 | scan 0 { $0 + $1 }"}))
    if status != 200:
        seen["errors"].append(f"present {status}")
    pause = 0
    while not stop.is_set():
        status, body = await request(port, "POST", "/api/teacher/present/step", key, json.dumps({"pause": pause % 6}))
        if status != 200:
            seen["errors"].append(f"present/step {status} {body[:200]}")
        pause += 1
        try:
            await asyncio.wait_for(stop.wait(), 2)
        except asyncio.TimeoutError:
            pass


def result_of(text):
    for line in text.splitlines():
        if line.strip():
            value = json.loads(line)
            if "result" in value:
                return value["result"]
    return None


class Stats:
    def __init__(self):
        self.check = []
        self.run = []
        self.errors = []


def exercises():
    names = sorted(n for n in os.listdir(WORKSHOP) if n.endswith(".pipe") and n[0].isdigit())
    out = []
    for name in names:
        with open(os.path.join(WORKSHOP, "solutions", name)) as f:
            solution = f.read()
        with open(os.path.join(WORKSHOP, name)) as f:
            shipped = f.read()
        out.append((name[:-5], solution, shipped))
    return out


async def join(port, room, name, stats):
    """A new learner's `ID:SECRET`, or None (an error counted)."""
    status, body = await request(port, "POST", "/api/join", {"X-Plumb-Room": room.token}, json.dumps({"name": name}))
    if status != 200:
        stats.errors.append(f"join {status} {body[:200]}")
        return None
    return json.loads(body)["learner"]


async def learner(room, port, number, stats, wrong_every=3, credential=None, pace=0.0):
    """Checks every exercise (a wrong answer first for some) and runs a pipeline every fifth, as
    a new learner or, given `credential`, as one who joined before; with `pace`, no sooner than
    that many seconds after the learner's last request began (a person's pace: the room allows
    each learner 10 requests a second)."""
    last = [0.0]

    async def paced():
        wait = last[0] + pace - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        last[0] = time.monotonic()

    if credential is None:
        credential = await join(port, room, f"learner {number}", stats)
    if credential is None:
        return None
    headers = {"X-Plumb-Room": room.token, "X-Plumb-Learner": credential}
    for index, (name, solution, shipped) in enumerate(exercises()):
        attempts = [(shipped, False)] if (index + number) % wrong_every == 0 else []
        attempts.append((solution, True))
        for text, should_pass in attempts:
            await paced()
            started = time.monotonic()
            status, body = await request(port, "POST", "/api/check", headers, json.dumps({"exercise": name, "text": text}))
            result = result_of(body) if status == 200 else None
            stats.check.append(time.monotonic() - started)
            if result is None or result.get("passed") is not should_pass:
                stats.errors.append(f"check {name} learner {number}: {status} {str(result)[:200] if result else body[:200]}")
        if index % 5 == 0:
            await paced()
            started = time.monotonic()
            status, body = await request(port, "POST", "/api/run", headers, json.dumps({"text": "interval 100ms | take 5 | scan 0 { $0 + $1 }"}))
            result = result_of(body) if status == 200 else None
            stats.run.append(time.monotonic() - started)
            if result is None or not (result.get("svg") or "").startswith("<?xml"):
                stats.errors.append(f"run learner {number}: {status} {body[:200]}")
    return credential


async def hostile_learner(room, port, stop, text):
    status, body = await request(port, "POST", "/api/join", {"X-Plumb-Room": room.token}, json.dumps({"name": "hostile"}))
    headers = {"X-Plumb-Room": room.token, "X-Plumb-Learner": json.loads(body)["learner"]}
    runs = 0
    while not stop.is_set():
        status, body = await request(port, "POST", "/api/run", headers, json.dumps({"text": text}))
        if status == 200:
            runs += 1
        else:
            await asyncio.sleep(0.2)
    return runs


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def hostile_requests(room, port):
    problems = []
    expect = [
        (await request(port, "POST", "/api/join", {"X-Plumb-Room": room.token}, "x" * (70 * 1024)), 413),
        (await request(port, "POST", "/api/join", {"X-Plumb-Room": room.token}, b'{"name": "\xff\xfe"}'), 400),
        (await request(port, "GET", "/%2e%2e/%2e%2e/etc/passwd"), 400),
        (await request(port, "GET", "/../room.json"), 400),
        (await request(port, "GET", "/api/exercises"), 403),
        (await request(port, "GET", "/api/exercises", {"X-Plumb-Room": "0" * 32}), 403),
        (await request(port, "GET", "/api/teacher/room", {"X-Plumb-Key": room.token}), 403),
    ]
    for (status, body), wanted in expect:
        if status != wanted:
            problems.append(f"hostile request answered {status}, expected {wanted}: {body[:120]}")
    for _ in range(1000):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHo")
        writer.close()
    status, _ = await request(port, "GET", "/static/room.css")
    if status != 200:
        problems.append(f"after 1,000 dropped connections the room answered {status}")
    return problems


class Sample:
    """The server process at one moment: resident memory (KiB), threads, open descriptors."""

    def __init__(self, pid, seconds, checks):
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        self.seconds = seconds
        self.checks = checks
        self.rss = int(fields["VmRSS"].split()[0])
        self.threads = int(fields["Threads"])
        self.fds = len(os.listdir(f"/proc/{pid}/fd"))


def slope(points):
    """Least-squares slope of (x, y) points; 0 for fewer than two."""
    if len(points) < 2:
        return 0.0
    mean_x = statistics.fmean(x for x, _ in points)
    mean_y = statistics.fmean(y for _, y in points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


def soak_verdict(samples, flat_mib_per_hour):
    """Prints the samples and whether memory, threads and descriptors stayed flat; the problems."""
    print(f"{'t (s)':>7} {'checks':>7} {'RSS MiB':>8} {'threads':>7} {'fds':>5}")
    for s in samples:
        print(f"{s.seconds:7.0f} {s.checks:7d} {s.rss / 1024:8.1f} {s.threads:7d} {s.fds:5d}")
    if len(samples) < 6:
        return [f"soak: {len(samples)} samples are too few for a verdict (a longer --soak or a shorter --sample-every)"]
    third = samples[len(samples) * 2 // 3:]
    per_second = slope([(s.seconds, s.rss / 1024) for s in third])
    whole = slope([(s.seconds, s.rss / 1024) for s in samples])
    print(f"memory: {samples[0].rss / 1024:.1f} → {samples[-1].rss / 1024:.1f} MiB (min {min(s.rss for s in samples) / 1024:.1f}, "
          f"max {max(s.rss for s in samples) / 1024:.1f}); slope {whole * 60:+.3f} MiB/min over the soak, "
          f"{per_second * 60:+.3f} MiB/min over its last third ({per_second * 3600:+.1f} MiB an hour at that rate)")
    print(f"threads: {samples[0].threads} → {samples[-1].threads} (max {max(s.threads for s in samples)}); "
          f"descriptors: {samples[0].fds} → {samples[-1].fds} (max {max(s.fds for s in samples)})")
    problems = []
    if per_second * 3600 > flat_mib_per_hour:
        problems.append(f"soak: memory still growing over the last third: {per_second * 60:+.3f} MiB/min")
    # A connection's thread and socket can outlive its answer by a moment, so a sample may catch
    # one or two: what must not rise is the floor (what is left when nothing is in flight).
    first = samples[:max(1, len(samples) // 3)]
    for what, floor_before, floor_after in (
            ("threads", min(s.threads for s in first), min(s.threads for s in third)),
            ("descriptors", min(s.fds for s in first), min(s.fds for s in third))):
        if floor_after > floor_before:
            problems.append(f"soak: the floor of {what} rose from {floor_before} to {floor_after}")
    print("soak verdict:", "flat" if not problems else "NOT flat")
    return problems


async def soak(room, port, arguments):
    """Rounds of checks and runs by a fixed set of learners; samples between rounds."""
    stats = Stats()
    fixed = None
    if not arguments.soak_joins:
        fixed = [await join(port, room, f"soak {n}", stats) for n in range(arguments.soak_learners)]
    round_number = 0

    async def one_round():
        nonlocal round_number
        round_number += 1
        if fixed is None:
            numbers = range(1000 + round_number * 100, 1000 + round_number * 100 + arguments.soak_learners)
            await asyncio.gather(*(learner(room, port, n, stats) for n in numbers))
        else:
            await asyncio.gather(*(learner(room, port, n, stats, credential=c, pace=0.15) for n, c in enumerate(fixed)))

    warm_until = time.monotonic() + arguments.warm_up
    while time.monotonic() < warm_until:
        await one_round()
    warm_checks = len(stats.check)
    started = time.monotonic()
    end = started + min(arguments.soak, DEADLINE)
    samples = [Sample(room.process.pid, 0, 0)]
    while time.monotonic() < end:
        await one_round()
        now = time.monotonic()
        if now - started >= samples[-1].seconds + arguments.sample_every or now >= end:
            samples.append(Sample(room.process.pid, now - started, len(stats.check) - warm_checks))
    print(f"soak: {arguments.warm_up:.0f} s warm-up, then {samples[-1].seconds:.0f} s; {round_number} rounds of "
          f"{arguments.soak_learners} {'new' if fixed is None else 'fixed'} learners; {len(stats.check)} checks, "
          f"{len(stats.run)} runs, errors {len(stats.errors)}; check p50 {percentile(stats.check, 50) * 1000:.0f} ms, "
          f"p99 {percentile(stats.check, 99) * 1000:.0f} ms")
    return stats.errors + soak_verdict(samples, arguments.flat_mib_per_hour)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--watch", action="store_true",
                        help="the teacher's page and the present view open (two teacher streams), a pipeline presented and stepped")
    parser.add_argument("--soak", type=float, default=0, help="seconds of steady traffic after the load, sampled")
    parser.add_argument("--soak-learners", type=int, default=4)
    parser.add_argument("--soak-joins", action="store_true", help="new learners every round instead of a fixed set")
    parser.add_argument("--warm-up", type=float, default=60, help="seconds of soak traffic before the first sample")
    parser.add_argument("--sample-every", type=float, default=30)
    parser.add_argument("--flat-mib-per-hour", type=float, default=5.0,
                        help="the largest growth of memory per hour, at the last third's slope, still called flat")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="plumb-load-") as state:
        room = start_room(state)
        port = int(room.base.rsplit(":", 1)[1])
        try:
            stats = Stats()
            stop = asyncio.Event()
            hostile = [asyncio.create_task(hostile_learner(room, port, stop, text)) for text in (
                "interval 1ms", "just 1" + " | map { $0 + 1 }" * 999)]
            seen = {"errors": []}
            watchers = []
            if arguments.watch:
                watchers = [asyncio.create_task(teacher_stream(room, port, stop, seen)) for _ in range(2)]
                watchers.append(asyncio.create_task(presenter(room, port, stop, seen)))
            started = time.monotonic()
            credentials = await asyncio.wait_for(
                asyncio.gather(*(learner(room, port, n, stats) for n in range(arguments.learners))), DEADLINE)
            elapsed = time.monotonic() - started
            stop.set()
            hostile_runs = await asyncio.gather(*hostile)
            await asyncio.gather(*watchers)
            problems = await hostile_requests(room, port)
            # Every learner's progress is kept: all exercises passed.
            for credential in credentials:
                if credential is None:
                    continue
                status, body = await request(port, "GET", "/api/exercises", {"X-Plumb-Room": room.token, "X-Plumb-Learner": credential})
                passed = sum(1 for e in json.loads(body)["exercises"] if e["passed"]) if status == 200 else -1
                if passed != 15:
                    problems.append(f"a learner's progress shows {passed}/19 after the load")
            print(f"learners: {arguments.learners}; checks: {len(stats.check)}; runs: {len(stats.run)}; "
                  f"hostile runs meanwhile: {hostile_runs}; wall time {elapsed:.1f} s")
            print(f"check → verdict: p50 {percentile(stats.check, 50) * 1000:.0f} ms, p99 {percentile(stats.check, 99) * 1000:.0f} ms")
            print(f"run → diagram:   p50 {percentile(stats.run, 50) * 1000:.0f} ms, p99 {percentile(stats.run, 99) * 1000:.0f} ms")
            if arguments.watch:
                tables = seen.get("room", [])
                presents = seen.get("present", [])
                print(f"teacher streams (2): {len(tables)} table events, largest {max(tables, default=0)} B, "
                      f"mean {statistics.mean(tables) if tables else 0:.0f} B; {len(presents)} present events, "
                      f"largest {max(presents, default=0)} B")
                problems += seen["errors"]
                if len(tables) < 4:
                    problems.append(f"the teacher's streams saw {len(tables)} table events")
            if arguments.soak > 0:
                problems += await soak(room, port, arguments)
            errors = stats.errors + problems
            for error in errors[:20]:
                print("error:", error)
            print(f"errors: {len(errors)}")
            print(f"{0 if errors else 1} passed, {1 if errors else 0} failed")
            return 1 if errors else 0
        finally:
            stop_room(room)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
