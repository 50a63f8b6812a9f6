#!/usr/bin/env python3
"""Load and hostile-request test of `plumb serve`, on loopback only, bounded in count and time.

    python3 Tests/serve/load_room.py [--learners 40] [--soak SECONDS]

Starts its own room (a free port, a temporary state folder). Each learner joins, then checks
every exercise's solution and, for some, the exercise as shipped (a wrong answer), and runs a
playground pipeline; two hostile learners meanwhile run `interval 1ms` and a 1,000-stage pipeline
over and over. Reports p50/p99 from Check to verdict and from Run to the final diagram, and the
errors (a non-200 answer, a missing result, a wrong verdict). Then hostile requests (oversize
bodies, bad UTF-8, traversal, wrong tokens, a learner's token on the teacher's endpoint, 1,000
connections opened and dropped) and a check that every learner's progress is still there. With
--soak it keeps a few learners going for that long and samples the server's memory and threads.
Exits 1 on any error.
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


async def learner(room, port, number, stats, wrong_every=3):
    status, body = await request(port, "POST", "/api/join", {"X-Plumb-Room": room.token}, json.dumps({"name": f"learner {number}"}))
    if status != 200:
        stats.errors.append(f"join {status} {body[:200]}")
        return None
    credential = json.loads(body)["learner"]
    headers = {"X-Plumb-Room": room.token, "X-Plumb-Learner": credential}
    for index, (name, solution, shipped) in enumerate(exercises()):
        attempts = [(shipped, False)] if (index + number) % wrong_every == 0 else []
        attempts.append((solution, True))
        for text, should_pass in attempts:
            started = time.monotonic()
            status, body = await request(port, "POST", "/api/check", headers, json.dumps({"exercise": name, "text": text}))
            result = result_of(body) if status == 200 else None
            stats.check.append(time.monotonic() - started)
            if result is None or result.get("passed") is not should_pass:
                stats.errors.append(f"check {name} learner {number}: {status} {str(result)[:200] if result else body[:200]}")
        if index % 5 == 0:
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


def sample(pid):
    with open(f"/proc/{pid}/status") as f:
        fields = dict(line.split(":", 1) for line in f if ":" in line)
    return int(fields["VmRSS"].split()[0]), int(fields["Threads"])


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--soak", type=float, default=0)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="plumb-load-") as state:
        room = start_room(state)
        port = int(room.base.rsplit(":", 1)[1])
        try:
            stats = Stats()
            stop = asyncio.Event()
            hostile = [asyncio.create_task(hostile_learner(room, port, stop, text)) for text in (
                "interval 1ms", "just 1" + " | map { $0 + 1 }" * 999)]
            started = time.monotonic()
            credentials = await asyncio.wait_for(
                asyncio.gather(*(learner(room, port, n, stats) for n in range(arguments.learners))), DEADLINE)
            elapsed = time.monotonic() - started
            stop.set()
            hostile_runs = await asyncio.gather(*hostile)
            problems = await hostile_requests(room, port)
            # Every learner's progress is kept: all exercises passed.
            for credential in credentials:
                if credential is None:
                    continue
                status, body = await request(port, "GET", "/api/exercises", {"X-Plumb-Room": room.token, "X-Plumb-Learner": credential})
                passed = sum(1 for e in json.loads(body)["exercises"] if e["passed"]) if status == 200 else -1
                if passed != 15:
                    problems.append(f"a learner's progress shows {passed}/15 after the load")
            print(f"learners: {arguments.learners}; checks: {len(stats.check)}; runs: {len(stats.run)}; "
                  f"hostile runs meanwhile: {hostile_runs}; wall time {elapsed:.1f} s")
            print(f"check → verdict: p50 {percentile(stats.check, 50) * 1000:.0f} ms, p99 {percentile(stats.check, 99) * 1000:.0f} ms")
            print(f"run → diagram:   p50 {percentile(stats.run, 50) * 1000:.0f} ms, p99 {percentile(stats.run, 99) * 1000:.0f} ms")
            if arguments.soak > 0:
                samples = []
                end = time.monotonic() + min(arguments.soak, DEADLINE)
                soak_stats = Stats()
                while time.monotonic() < end:
                    await asyncio.gather(*(learner(room, port, 1000 + n, soak_stats) for n in range(4)))
                    samples.append(sample(room.process.pid))
                print(f"soak: {len(samples)} rounds, {len(soak_stats.check)} checks, errors {len(soak_stats.errors)}; "
                      f"RSS KiB first/last {samples[0][0]}/{samples[-1][0]}, threads first/last {samples[0][1]}/{samples[-1][1]}")
                stats.errors += soak_stats.errors
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
