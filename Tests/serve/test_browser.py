"""The learner's and the teacher's pages in a headless browser: what a person sees and does in a
workshop room. Chromium (Debian's chromium and chromium-driver) driven by Selenium, or, with
PLUMB_BROWSER=firefox, Firefox (Debian's firefox-esr) driven through Marionette (firefox.py):
the same tests, one journey, two engines. Screenshots go to $PLUMB_SCREENSHOTS/BROWSER."""
import os

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, free_port, start_room, stop_room

BROWSER = os.environ.get("PLUMB_BROWSER", "chromium")
SHOTS = os.path.join(os.environ.get("PLUMB_SCREENSHOTS", "/tmp/plumb-serve-screenshots"), BROWSER)


@pytest.fixture
def browser():
    os.makedirs(SHOTS, exist_ok=True)
    if BROWSER == "firefox":
        from firefox import FirefoxDriver

        driver = FirefoxDriver(1280, 720)
        driver.set_page_load_timeout(30)
        yield driver
        driver.quit()
        return
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,720", "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # The page itself at a projector's 1280×720: the window's size counts the browser's own
    # frame (--window-size=1280,720 left a 1280×577 page), so grow the window by the difference.
    driver.get("about:blank")
    frame_width, frame_height = driver.execute_script(
        "return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]"
    )
    driver.set_window_size(1280 + frame_width, 720 + frame_height)
    assert driver.execute_script("return [window.innerWidth, window.innerHeight]") == [1280, 720]
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def wait(driver, condition, seconds=20):
    # A condition that read an element the page has just redrawn is asked again.
    return WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition())


def teacher_row(driver):
    """The teacher table's first row, read in one script: the learner's name and, per exercise,
    its cell's classes and text. The table is redrawn whenever the room changes (server-sent
    events) and every 10 s, so an element found one call earlier can already be gone."""
    return driver.execute_script(
        """const row = document.querySelector('.room-table tbody tr');
           if (!row) return null;
           const cells = {};
           for (const td of row.querySelectorAll('td.cell')) cells[td.dataset.exercise] = [td.className, td.textContent, td.title];
           return { name: row.querySelector('th').textContent, cells: cells };"""
    )


def shown(driver, element_id):
    return driver.find_element(By.ID, element_id).is_displayed()


def set_text(driver, element_id, text):
    driver.execute_script("arguments[0].value = arguments[1]", driver.find_element(By.ID, element_id), text)


def join(driver, room, name):
    driver.get(room.learner_url)
    wait(driver, lambda: shown(driver, "join"))
    # Nothing of the room is usable before a name is given.
    assert not shown(driver, "room") and not shown(driver, "open-playground")
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "join-button").click()
    wait(driver, lambda: shown(driver, "exercise") and driver.find_element(By.ID, "exercise-title").text == "01-map")


def run_pipeline(driver, text):
    driver.find_element(By.ID, "open-playground").click()
    set_text(driver, "pipeline", text)
    driver.find_element(By.ID, "run").click()
    wait(driver, lambda: driver.find_element(By.ID, "run-status").text == "done")
    events = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#events li")]
    marks = driver.find_elements(By.CSS_SELECTOR, "#diagram svg g.mark.value")
    return events, marks


def no_alert(driver):
    try:
        driver.switch_to.alert
        return False
    except NoAlertPresentException:
        return True


def test_a_learner_runs_a_pipeline_and_sees_events_and_marbles(room, browser):
    join(browser, room, "Ada")
    events, marks = run_pipeline(browser, "interval 100ms | take 3 | map { $0 * 10 }")
    assert [e.split(None, 1)[1] for e in events if " value " in f" {e} "] == ["value 0", "value 10", "value 20"]
    assert events[0].startswith("+0.000s") and "subscribed" in events[0]
    assert "finished" in events[-1]
    # Three stages, three values each: one marble per value per lane.
    assert len(marks) == 9
    texts = {label.get_attribute("textContent").strip() for label in marks[0].parent.find_elements(By.CSS_SELECTOR, "#diagram svg g.mark.value text")}
    assert {"0", "10", "20"} <= texts
    # Each value's label sits centred on its marble, drawn with the room's own style sheet: the
    # page's policy refuses the SVG's inline <style>, so room.css carries the diagram's rules
    # (labels once sat beside their marbles, starting at the circle's centre).
    placements = browser.execute_script(
        """return Array.from(document.querySelectorAll('#diagram svg g.mark.value')).map(g => {
             const c = g.querySelector('circle'), t = g.querySelector('text'), box = t.getBBox();
             return [getComputedStyle(t).textAnchor, box.x + box.width / 2, c.cx.baseVal.value];
           });"""
    )
    assert len(placements) == 9
    for anchor, label_centre, marble_centre in placements:
        assert anchor == "middle"
        assert abs(label_centre - marble_centre) < 1.5, placements
    browser.save_screenshot(os.path.join(SHOTS, "playground.png"))


def test_an_error_shows_its_position_and_fix_it(room, browser):
    join(browser, room, "Bea")
    browser.find_element(By.ID, "open-playground").click()
    set_text(browser, "pipeline", "just 1 | retyr 3")
    browser.find_element(By.ID, "run").click()
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#run-diagnostics .diagnostic"))
    headline = browser.find_element(By.CSS_SELECTOR, "#run-diagnostics .headline").text
    assert "1:10" in headline and "retyr" in headline
    browser.save_screenshot(os.path.join(SHOTS, "fix-it.png"))
    # Each thing said once: the suggestion is not repeated by the excerpt, the help and the message.
    box = browser.find_element(By.CSS_SELECTOR, "#run-diagnostics .diagnostic").text
    assert box.count("did you mean 'retry'?") == 1, box
    # Apply the fix makes it and runs it: the fixed pipeline's events and diagram come.
    browser.find_element(By.CSS_SELECTOR, "#run-diagnostics button.fix").click()
    assert browser.find_element(By.ID, "pipeline").get_attribute("value") == "just 1 | retry 3"
    wait(browser, lambda: browser.find_element(By.ID, "run-status").text == "done" and browser.find_elements(By.CSS_SELECTOR, "#diagram svg g.mark.value"))
    # The error is gone (a note or warning on the fixed text may stay).
    assert not any("retyr" in d.text or "error" in d.get_attribute("class") for d in browser.find_elements(By.CSS_SELECTOR, "#run-diagnostics .diagnostic"))
    assert any(item.text.endswith("value 1") for item in browser.find_elements(By.CSS_SELECTOR, "#events li"))


def test_a_run_stopped_at_its_cap_draws_what_it_sent_and_says_it_was_stopped(room, browser):
    join(browser, room, "Gil")
    events, marks = run_pipeline(browser, "interval 1ms")
    assert "stopped after 2000 events" in browser.find_element(By.ID, "run-error").text
    assert len(marks) > 100
    title = browser.find_element(By.CSS_SELECTOR, "#diagram svg").get_attribute("textContent")
    assert "stopped here: stopped after 2000 events" in title
    assert browser.find_elements(By.CSS_SELECTOR, "#diagram svg g.mark.cancel")
    browser.save_screenshot(os.path.join(SHOTS, "capped-run.png"))


def test_solving_exercise_one_passes_and_survives_a_reload_and_the_teacher_sees_it(room, browser):
    join(browser, room, "Cy")
    exercise = browser.find_element(By.ID, "editor").get_attribute("value")
    assert exercise.startswith("marble") and "todo" in exercise
    # A wrong answer first: the marble diff shows.
    set_text(browser, "editor", exercise.replace("todo", "$0 * 2"))
    browser.find_element(By.ID, "check").click()
    wait(browser, lambda: "not yet" in browser.find_element(By.ID, "verdict").text)
    assert "expected values [120, 300, 1198, 6]" in browser.find_element(By.ID, "message").text
    browser.find_element(By.ID, "hint").click()
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#hints li")) == 1)
    browser.execute_script("document.getElementById('check').scrollIntoView()")
    browser.save_screenshot(os.path.join(SHOTS, "failing-check.png"))
    set_text(browser, "editor", exercise.replace("todo", "$0 * 120 / 100"))
    browser.find_element(By.ID, "check").click()
    wait(browser, lambda: "passes" in browser.find_element(By.ID, "verdict").text)
    wait(browser, lambda: browser.find_element(By.ID, "progress").text == "1/19 done")
    browser.execute_script("document.getElementById('check').scrollIntoView()")
    browser.save_screenshot(os.path.join(SHOTS, "learner.png"))

    browser.refresh()
    wait(browser, lambda: shown(browser, "room") and browser.find_element(By.ID, "progress").text == "1/19 done")
    first = browser.find_element(By.CSS_SELECTOR, "#exercises li")
    assert "passed" in first.get_attribute("class")
    # The next exercise is opened; the first keeps the learner's text.
    wait(browser, lambda: browser.find_element(By.ID, "exercise-title").text == "02-filter")
    first.find_element(By.TAG_NAME, "button").click()
    wait(browser, lambda: "$0 * 120 / 100" in browser.find_element(By.ID, "editor").get_attribute("value"))
    # The hint taken before the reload is still shown.
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#hints li")) == 1)

    browser.get(room.teacher_url)
    row = wait(browser, lambda: teacher_row(browser))
    assert row["name"].startswith("Cy")
    classes, text, title = row["cells"]["01-map"]
    assert "passed" in classes and text == "✓"
    assert "hints: 1" in title
    browser.save_screenshot(os.path.join(SHOTS, "teacher.png"))


def test_progress_survives_a_server_restart(state_dir, browser):
    port = free_port()
    room = start_room(state_dir, port)
    try:
        join(browser, room, "Dee")
        with open(os.path.join(ROOT, "Examples/workshop/solutions/01-map.pipe")) as f:
            set_text(browser, "editor", f.read())
        browser.find_element(By.ID, "check").click()
        wait(browser, lambda: "passes" in browser.find_element(By.ID, "verdict").text)
    finally:
        stop_room(room)
    again = start_room(state_dir, port)
    try:
        assert again.learner_url == room.learner_url
        browser.get(again.learner_url)
        wait(browser, lambda: shown(browser, "room") and browser.find_element(By.ID, "progress").text == "1/19 done")
    finally:
        stop_room(again)


def test_present_mode_reaches_the_learner_page(room, browser):
    join(browser, room, "Eve")
    learner_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(room.teacher_url)
    set_text(browser, "present-input", "from [1, 2, 3] | scan 0 { $0 + $1 }")
    browser.find_element(By.ID, "present-start").click()
    wait(browser, lambda: "every learner" in browser.find_element(By.ID, "present-status").text)
    browser.switch_to.window(learner_tab)
    wait(browser, lambda: shown(browser, "present"))
    assert browser.find_element(By.ID, "present-text").text == "from [1, 2, 3] | scan 0 { $0 + $1 }"
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#present-diagram svg g.mark.value"))
    values = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#present-events li")]
    assert any(v.endswith("value 6") for v in values)
    browser.save_screenshot(os.path.join(SHOTS, "present.png"))


def test_script_in_names_pipelines_and_values_shows_as_text(room, browser):
    attack = "<script>alert(1)</script>"
    join(browser, room, attack)
    assert browser.find_element(By.ID, "who").text == attack
    events, marks = run_pipeline(browser, 'just "<script>alert(1)</script>" | map { $0 + "<img src=x onerror=alert(2)>" }')
    assert any("<script>alert(1)</script><img src=x onerror=alert(2)>" in e for e in events)
    assert no_alert(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, "#events script, #events img, #diagram script, #diagram img")
    svg_text = browser.find_element(By.CSS_SELECTOR, "#diagram svg").get_attribute("textContent")
    assert "<script>" in svg_text
    browser.get(room.teacher_url)
    assert wait(browser, lambda: teacher_row(browser))["name"].startswith(attack)
    assert no_alert(browser)


def requested(driver, part):
    """The page's requests whose URL contains `part` (the browser's resource timing)."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes(arguments[0]))", part)


def test_the_teacher_table_and_present_mode_update_live_over_server_sent_events(room, browser):
    browser.get(room.teacher_url)
    wait(browser, lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "open")
    teacher_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    join(browser, room, "Fay")
    learner_tab = browser.current_window_handle
    wait(browser, lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "open")
    browser.switch_to.window(teacher_tab)
    # The new learner's row arrives on the open stream: the page is never reloaded.
    assert wait(browser, lambda: teacher_row(browser))["name"].startswith("Fay")
    wait(browser, lambda: browser.find_element(By.ID, "summary").text.startswith("1 learner · "))
    browser.switch_to.window(learner_tab)
    with open(os.path.join(ROOT, "Examples/workshop/solutions/01-map.pipe")) as f:
        set_text(browser, "editor", f.read())
    browser.find_element(By.ID, "check").click()
    wait(browser, lambda: "passes" in browser.find_element(By.ID, "verdict").text)
    browser.switch_to.window(teacher_tab)
    wait(browser, lambda: "passed" in teacher_row(browser)["cells"]["01-map"][0])
    browser.save_screenshot(os.path.join(SHOTS, "teacher-live.png"))
    set_text(browser, "present-input", "from [4, 5] | map { $0 * 10 }")
    browser.find_element(By.ID, "present-start").click()
    browser.switch_to.window(learner_tab)
    wait(browser, lambda: shown(browser, "present") and browser.find_element(By.ID, "present-text").text == "from [4, 5] | map { $0 * 10 }")
    # Everything came on the streams: no page polled the table or present mode, and the
    # learner's check and runs went through the stream too (the POST answered 202).
    assert not requested(browser, "/api/present")
    browser.switch_to.window(teacher_tab)
    assert not requested(browser, "/api/teacher/room")
