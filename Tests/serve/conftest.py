"""Starts `plumb serve` on a free loopback port for the browser and load tests."""
import os
import re
import socket
import subprocess
import tempfile
import threading
import time

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class Room:
    def __init__(self, process, learner_url, teacher_url, state):
        self.process = process
        self.learner_url = learner_url
        self.teacher_url = teacher_url
        self.state = state
        self.base = learner_url.split("/?")[0]
        self.token = learner_url.split("room=")[1]
        self.key = teacher_url.split("key=")[1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_room(state, port=0):
    binary = os.environ.get("PLUMB_BIN", os.path.join(ROOT, ".build/debug/plumb"))
    # The table's clock may be moved by the tests (the stuck marker by time, with no wait): a
    # room on loopback started with PLUMB_SERVE_TEST_CLOCK=1 only.
    environment = dict(os.environ, PLUMB_SERVE_TEST_CLOCK="1")
    process = subprocess.Popen(
        [binary, "serve", os.path.join(ROOT, "Examples/workshop"), "--port", str(port), "--state", state],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment)
    learner = teacher = None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and (learner is None or teacher is None):
        line = process.stdout.readline()
        if not line:
            break
        found = re.search(r"learners: (\S+)", line)
        if found:
            learner = found.group(1)
        found = re.search(r"teacher:\s+(\S+)", line)
        if found:
            teacher = found.group(1)
    assert learner and teacher, "plumb serve printed no URLs"
    # Keep reading the request log, as a terminal would.
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    return Room(process, learner, teacher, state)


def stop_room(room):
    room.process.terminate()
    try:
        room.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        room.process.kill()


@pytest.fixture
def state_dir():
    with tempfile.TemporaryDirectory(prefix="plumb-room-") as directory:
        yield directory


@pytest.fixture
def room(state_dir):
    started = start_room(state_dir)
    yield started
    stop_room(started)
