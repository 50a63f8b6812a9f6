"""The teacher's view on a projector (issue 37), in a headless browser at 1280×720: forty
learners joined through the API fit without scrolling, read back from the page's element
rectangles; the name column stays bounded with a long name; column widths do not move when a
cell gains a time; the totals row and the stuck marker; sorting; the room's common mistakes
grouped with counts and one shown on the projector without its author's name; the join URL's QR
code decoded by zbarimg; the present view's text at least 16 px."""
import json
import os
import subprocess
import tempfile
import urllib.request

from selenium.webdriver.common.by import By

from conftest import ROOT
from test_browser import SHOTS, browser, wait  # noqa: F401 (browser is a fixture)

LONG_NAME = "Maximiliane Alexandra von Hohenzollern-Sigmaringen"[:40]


def api(room, method, path, body=None, learner=None, key=False):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["X-Plumb-Key"] = room.key
    else:
        headers["X-Plumb-Room"] = room.token
    if learner:
        headers["X-Plumb-Learner"] = learner
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(room.base + path, method=method, headers=headers, data=data)
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read().decode()


def join(room, name):
    return json.loads(api(room, "POST", "/api/join", {"name": name}))["learner"]


def check(room, learner, exercise, text):
    """A check through the API, read to its result line."""
    lines = api(room, "POST", "/api/check", {"exercise": exercise, "text": text}, learner=learner).splitlines()
    return [json.loads(line)["result"] for line in lines if '"result"' in line][0]


def exercise_text(room, learner, name):
    return json.loads(api(room, "GET", "/api/exercise?name=" + name, learner=learner))["text"]


def solution(name):
    with open(os.path.join(ROOT, "Examples/workshop/solutions", name + ".pipe")) as f:
        return f.read()


def open_teacher(driver, room, rows):
    driver.get(room.teacher_url)
    wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".room-table tbody tr")) == rows)


def layout(driver):
    """What the page shows, read in one script: the viewport, the page's scroll size, every row's
    rectangle, the name cells (width, whether the text is cut, the title), the totals."""
    return driver.execute_script(
        """const rect = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
           return {
             viewport: [innerWidth, innerHeight],
             scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
             rows: Array.from(document.querySelectorAll('.room-table tbody tr')).map((tr) => ({
               name: tr.querySelector('th').textContent, title: tr.querySelector('th').title, rect: rect(tr),
               nameWidth: tr.querySelector('th').getBoundingClientRect().width,
               cut: tr.querySelector('th').scrollWidth > tr.querySelector('th').clientWidth,
               stuck: tr.classList.contains('stuck'), done: tr.querySelector('td.done').textContent,
               doneCut: tr.querySelector('td.done').scrollWidth > tr.querySelector('td.done').clientWidth,
               widths: Array.from(tr.children).map((c) => c.getBoundingClientRect().width) })),
             totals: Array.from(document.querySelectorAll('.room-table:first-of-type tr.total')).map((tr) => ({
               kind: tr.className, rect: rect(tr), cells: Array.from(tr.querySelectorAll('td.total-cell')).map((td) => [td.dataset.exercise, td.textContent]) })),
             headsCut: Array.from(document.querySelectorAll('.room-table th.exercise, .room-table td.total-cell'))
               .filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent + ':' + c.clientWidth + '/' + c.scrollWidth),
             present: rect(document.getElementById('present-start')),
             rule: document.getElementById('stuck-rule').textContent,
           };"""
    )


def visible(rect, viewport):
    left, top, right, bottom = rect
    return left >= 0 and top >= 0 and right <= viewport[0] and bottom <= viewport[1]


def test_forty_learners_fit_the_teacher_view_at_1280x720_with_totals_stuck_and_sorting(room, browser):
    names = [f"Learner {n:02d}" for n in range(1, 40)] + [LONG_NAME]
    learners = {name: join(room, name) for name in names}
    # Learner 01 passes exercise 1; Learner 02 fails it three times (stuck by the rule).
    assert check(room, learners["Learner 01"], "01-map", solution("01-map"))["passed"] is True
    wrong = exercise_text(room, learners["Learner 02"], "01-map").replace("todo", "$0 * 2")
    for _ in range(3):
        assert check(room, learners["Learner 02"], "01-map", wrong)["passed"] is False
    open_teacher(browser, room, 40)
    seen = layout(browser)
    viewport = seen["viewport"]
    assert viewport == [1280, 720]
    # No scrolling: the page is no larger than the screen, and every row is inside it.
    assert seen["scroll"][0] <= 1280 and seen["scroll"][1] <= 720, seen["scroll"]
    assert len(seen["rows"]) == 40
    for row in seen["rows"]:
        assert visible(row["rect"], viewport), row
    # The totals, under the exercises' names: 1 passed and 1 trying exercise 1, 38 not started.
    totals = {t["kind"].split()[1]: dict(t["cells"]) for t in seen["totals"]}
    assert totals["passed"]["01-map"] == "1" and totals["trying"]["01-map"] == "1" and totals["notStarted"]["01-map"] == "38"
    assert all(visible(t["rect"], viewport) for t in seen["totals"])
    # The name column is bounded: the long name is cut (ellipsis), its full text in the title.
    widths = {row["nameWidth"] for row in seen["rows"]}
    assert max(widths) <= 120, widths
    long_row = next(row for row in seen["rows"] if row["name"] == LONG_NAME)
    assert long_row["cut"] and long_row["title"] == LONG_NAME
    # Nothing else is cut: the counts of passed exercises show whole.
    assert not any(row["doneCut"] for row in seen["rows"])
    assert {row["name"]: row["done"] for row in seen["rows"]}["Learner 01"] == "1"
    # Nor are the exercises' numbers and their totals, two digits each with 19 exercises.
    assert seen["headsCut"] == [], seen["headsCut"]
    # The stuck marker, by the rule stated on the page.
    assert "3 failed checks" in seen["rule"]
    assert [row["name"] for row in seen["rows"] if row["stuck"]] == ["Learner 02"]
    # Present is reachable without scrolling past anyone.
    assert visible(seen["present"], viewport)
    browser.save_screenshot(os.path.join(SHOTS, "teacher-40.png"))

    # A cell gains a time (Learner 03 opens exercise 2): no column moves.
    before = [row["widths"] for row in seen["rows"]]
    exercise_text(room, learners["Learner 03"], "02-filter")
    wait(browser, lambda: "№2" in browser.execute_script(
        "return Array.from(document.querySelectorAll('.room-table tbody tr')).find((r) => r.querySelector('th').textContent === 'Learner 03').querySelector('td.now').textContent"))
    after = [row["widths"] for row in layout(browser)["rows"]]
    assert after == before

    # Sorted by progress, the learner who passed comes first; by stuck, the stuck one.
    browser.find_element(By.CSS_SELECTOR, "[data-sort=progress]").click()
    assert layout(browser)["rows"][0]["name"] == "Learner 01"
    browser.find_element(By.CSS_SELECTOR, "[data-sort=stuck]").click()
    first = layout(browser)["rows"][0]
    assert first["name"] == "Learner 02" and first["stuck"]


def test_a_learner_is_marked_stuck_after_ten_minutes_on_the_servers_clock(room, browser):
    ada = join(room, "Ada Waits")
    exercise_text(room, ada, "01-map")
    open_teacher(browser, room, 1)
    assert not layout(browser)["rows"][0]["stuck"]
    # Eleven minutes later on the server's clock (moved, not waited for: a room started for tests).
    api(room, "POST", "/api/teacher/test/clock", {"advance": 11 * 60}, key=True)
    wait(browser, lambda: layout(browser)["rows"][0]["stuck"])
    row = browser.execute_script(
        "const tr = document.querySelector('.room-table tbody tr'); return [tr.querySelector('td.now').textContent, tr.querySelector('td.now').title];")
    assert row[0].startswith("⚑") and "11m" in row[0], row
    assert "stuck: 11 min" in row[1], row
    assert "more than 10 min" in layout(browser)["rule"]


def test_the_rooms_common_mistakes_are_grouped_and_one_is_shown_without_its_name(room, browser):
    ada, bea, cy = join(room, "Ada Mistake"), join(room, "Bea Mistake"), join(room, "Cy Mistake")
    shipped = exercise_text(room, ada, "01-map")
    # Two kinds of wrong answer: Ada and Bea double, Cy adds 20.
    for learner, answer in ((ada, "$0 * 2"), (bea, "$0 + $0"), (cy, "$0 + 20")):
        assert check(room, learner, "01-map", shipped.replace("todo", answer))["passed"] is False
    open_teacher(browser, room, 3)
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#mistakes .mistake")) == 2)
    groups = browser.execute_script(
        """return Array.from(document.querySelectorAll('#mistakes .mistake')).map((m) =>
             [m.querySelector('.count').textContent, m.dataset.exercise, m.querySelector('.failure').textContent]);""")
    assert [g[0] for g in groups] == ["2×", "1×"]
    assert all(g[1] == "01-map" for g in groups)
    assert groups[0][2].startswith("expected values [120, 300, 1198, 6], got values [200, 500, 1998, 10]")
    assert groups[1][2].startswith("expected values [120, 300, 1198, 6], got values [120, 270, 1019, 25]")
    browser.save_screenshot(os.path.join(SHOTS, "teacher-mistakes.png"))
    # The table comes again at every change: the groups did not change, so their Show buttons stay
    # the same elements (CI once clicked a button a refresh had just replaced). A second on the
    # room's clock changes every duration, so the table's rows are drawn anew.
    # Both are marked in the page (Selenium cannot pass a replaced element back to a script).
    browser.execute_script(
        "document.querySelector('#mistakes button.show-mistake').dataset.probe = 'kept';"
        "document.querySelector('.room-table tbody tr').dataset.probe = 'kept';")
    api(room, "POST", "/api/teacher/test/clock", {"advance": 61}, key=True)
    wait(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, ".room-table tbody tr[data-probe]"))
    shows = browser.find_elements(By.CSS_SELECTOR, "#mistakes .mistake button.show-mistake")
    assert shows and shows[0].get_attribute("data-probe") == "kept", "a refresh replaced the unchanged mistakes"
    # Show puts one of the two answers on the projector, and no learner's name.
    shows[0].click()
    wait(browser, lambda: "present view" in browser.find_element(By.ID, "present-status").text)
    present = json.loads(api(room, "GET", "/api/present"))
    assert present["active"] and present["text"] in (shipped.replace("todo", "$0 * 2"), shipped.replace("todo", "$0 + $0"))
    assert "Mistake" not in json.dumps(present)


def test_the_join_qr_code_decodes_to_the_learners_url_and_loopback_is_told(room, browser):
    open_teacher(browser, room, 0)
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#join-qr svg"))
    assert browser.find_element(By.ID, "join-url").text == room.learner_url
    assert "phones and other machines cannot reach" in browser.find_element(By.ID, "join-warning").text
    command = browser.find_element(By.ID, "join-command").text
    assert "--host 0.0.0.0" in command and command.startswith("plumb serve ")
    with tempfile.TemporaryDirectory(prefix="plumb-qr-") as directory:
        picture = os.path.join(directory, "qr.png")
        browser.find_element(By.ID, "join-qr").screenshot(picture)
        decoded = subprocess.run(["zbarimg", "--raw", "-q", picture], capture_output=True, text=True, timeout=30).stdout.strip()
        assert decoded == room.learner_url
        # Large for the back of the room: a click shows it over the page, most of the screen's
        # height, still the learners' URL; another click closes it.
        browser.find_element(By.ID, "join-qr").click()
        wait(browser, lambda: browser.find_element(By.ID, "qr-large").is_displayed())
        size = browser.execute_script("const r = document.querySelector('#qr-large-code svg').getBoundingClientRect(); return [r.width, r.height, r.bottom];")
        assert size[0] >= 560 and size[1] >= 560 and size[2] <= 720, size
        large = os.path.join(directory, "qr-large.png")
        browser.find_element(By.ID, "qr-large-code").screenshot(large)
        decoded = subprocess.run(["zbarimg", "--raw", "-q", large], capture_output=True, text=True, timeout=30).stdout.strip()
        assert decoded == room.learner_url
        browser.save_screenshot(os.path.join(SHOTS, "teacher-qr-large.png"))
        browser.find_element(By.ID, "qr-large").click()
        wait(browser, lambda: not browser.find_element(By.ID, "qr-large").is_displayed())


def test_present_view_text_is_at_least_16_px_at_1280x720(room, browser):
    pipeline = "interval 100ms | take 5 | scan 0 { $0 + $1 }"
    api(room, "POST", "/api/teacher/present", {"text": pipeline}, key=True)
    browser.get(room.teacher_url.replace("/teacher?", "/present?"))
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#present-diagram svg text"))
    sizes = browser.execute_script(
        """const svg = document.querySelector('#present-diagram svg');
           const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
           return {
             pipeline: parseFloat(getComputedStyle(document.getElementById('present-text')).fontSize),
             text: document.getElementById('present-text').textContent,
             smallest: Math.min(...Array.from(svg.querySelectorAll('text')).map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)),
             ticks: Array.from(svg.querySelectorAll('text')).filter((t) => t.getAttribute('fill') === '#616161').map((t) => t.getBoundingClientRect().height),
             width: svg.getBoundingClientRect().width,
             right: svg.getBoundingClientRect().right,
             page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
             box: [document.getElementById('present-diagram').scrollWidth, document.getElementById('present-diagram').clientWidth] };""")
    assert sizes["text"] == pipeline
    assert sizes["pipeline"] >= 24
    assert sizes["smallest"] >= 16, sizes
    # The tick labels, as drawn (their boxes), not the 8 px of a diagram shrunk to fit.
    assert sizes["ticks"] and min(sizes["ticks"]) >= 16, sizes
    assert sizes["width"] >= 1000
    # A 500 ms run fits the projector's width: nothing scrolls sideways (the diagram is drawn
    # for the present view's width, then scaled up to it with its smallest text at 16 px).
    assert sizes["page"][0] <= sizes["page"][1] == 1280, sizes
    assert sizes["box"][0] <= sizes["box"][1] and sizes["right"] <= 1280, sizes
    browser.save_screenshot(os.path.join(SHOTS, "present-view.png"))
