"""Stepping in the browser (issue 37): the playground's Step, Continue and time slider, and the
teacher stepping the presented pipeline with every learner's present view following. What the
page shows at three instants is compared with what `plumb run --clock virtual` prints for the
same pipeline under `:step` and `:next` (the shell's own stepping), read back from the page: the
stage lines, and the diagram's value and finish marks, lane by lane."""
import os
import re
import subprocess
import tempfile

from selenium.webdriver.common.by import By

from test_browser import SHOTS, browser, join, set_text, shown, wait  # noqa: F401 (browser is a fixture)

PIPELINE = "interval 100ms | take 3 | scan 0 { $0 + $1 }"
STAGE_LINE = re.compile(r"^\s*\+(\d+)\.(\d{3})s\s+│ \[(\d+)\] (\S+) (.*)$")


def shell_steps(pipeline, nexts):
    """`:step PIPELINE` then `:next` × nexts in the built plumb: the stage lines it printed, as
    (ms, lane, what), e.g. (200, 2, 'value 1')."""
    binary = os.environ["PLUMB_BIN"]
    with tempfile.TemporaryDirectory(prefix="plumb-step-") as directory:
        script = os.path.join(directory, "step.plumb")
        with open(script, "w") as f:
            f.write(":step " + pipeline + "\n" + ":next\n" * nexts)
        out = subprocess.run([binary, "run", "--clock", "virtual", "--no-color", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    found = []
    for line in out.stdout.splitlines():
        match = STAGE_LINE.match(line)
        if match:
            found.append((int(match.group(1)) * 1000 + int(match.group(2)), int(match.group(3)), match.group(5)))
    return found


def page_pause(driver):
    """What the playground shows now: the pause's time (ns), its stage lines as (ms, lane, what),
    and the diagram's marks per lane: value titles, and whether the lane shows a finish."""
    seen = driver.execute_script(
        """const marks = {};
           for (const g of document.querySelectorAll('#diagram svg g.mark')) {
             const lane = g.dataset.lane;
             marks[lane] = marks[lane] || { values: [], finished: false };
             if (g.classList.contains('value')) marks[lane].values.push(g.querySelector('title').textContent);
             if (g.classList.contains('finished')) marks[lane].finished = true;
           }
           return { ns: Number(document.getElementById('step-time').dataset.ns),
                    label: document.getElementById('step-time').textContent,
                    lines: Array.from(document.querySelectorAll('#step-lines li')).map((li) => li.textContent),
                    marks };"""
    )
    lines = []
    for line in seen["lines"]:
        match = STAGE_LINE.match(line)
        if match:
            lines.append((int(match.group(1)) * 1000 + int(match.group(2)), int(match.group(3)), match.group(5)))
    return seen["ns"], seen["label"], lines, seen["marks"]


def slide_to(driver, ms):
    driver.execute_script(
        "const s = document.getElementById('step-slider'); s.value = arguments[0]; s.dispatchEvent(new Event('input'));", str(ms))


def expected_marks(shell, upto_ms):
    """The marks the diagram should hold at `upto_ms`, from the shell's stage lines."""
    lanes = {}
    for ms, lane, what in shell:
        if ms > upto_ms:
            continue
        entry = lanes.setdefault(str(lane), {"values": [], "finished": False})
        if what.startswith("value "):
            entry["values"].append(what[len("value "):])
        if what == "finished":
            entry["finished"] = True
    return lanes


def test_the_step_slider_draws_the_diagram_at_three_instants_as_step_does(room, browser):
    shell = shell_steps(PIPELINE, 3)
    assert {ms for ms, _, _ in shell} == {100, 200, 300}, shell
    join(browser, room, "Stepper")
    browser.find_element(By.ID, "open-playground").click()
    set_text(browser, "pipeline", PIPELINE)
    browser.find_element(By.ID, "step").click()
    wait(browser, lambda: shown(browser, "stepper"))
    # Step stands at time 0 first, as :step does; the next press goes to 100 ms, as :next does.
    assert page_pause(browser)[0] == 0
    browser.find_element(By.ID, "step").click()
    assert page_pause(browser)[0] == 100_000_000
    # The slider at three instants: on a pause (100 ms), between two (250 ms: the 200 ms pause),
    # and at the end (300 ms).
    for ms, at in ((100, 100), (250, 200), (300, 300)):
        slide_to(browser, ms)
        ns, label, lines, marks = page_pause(browser)
        assert ns == at * 1_000_000, (ms, ns)
        assert label.startswith("▲ %d ms" % at), label
        assert lines == [s for s in shell if s[0] <= at], (ms, lines)
        assert marks.keys() == expected_marks(shell, at).keys()
        for lane, want in expected_marks(shell, at).items():
            assert marks[lane]["values"] == want["values"], (ms, lane, marks[lane])
            assert marks[lane]["finished"] == want["finished"], (ms, lane, marks[lane])
        if at == 200:
            browser.save_screenshot(os.path.join(SHOTS, "stepping.png"))
    assert "the run ended at 300 ms" in page_pause(browser)[1]
    # Continue goes to the end from anywhere.
    slide_to(browser, 0)
    browser.find_element(By.ID, "continue").click()
    assert page_pause(browser)[0] == 300_000_000


def test_the_teacher_steps_the_presented_pipeline_and_the_learners_view_follows(room, browser):
    join(browser, room, "Follower")
    learner_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(room.teacher_url)
    set_text(browser, "present-input", PIPELINE)
    browser.find_element(By.ID, "present-start").click()
    wait(browser, lambda: "every learner" in browser.find_element(By.ID, "present-status").text)
    browser.get(room.teacher_url.replace("/teacher?", "/present?"))
    wait(browser, lambda: shown(browser, "present-controls"))
    browser.find_element(By.ID, "present-step").click()
    wait(browser, lambda: browser.find_element(By.ID, "present-step-time").get_attribute("data-ns") == "0")
    browser.find_element(By.ID, "present-step").click()
    wait(browser, lambda: browser.find_element(By.ID, "present-step-time").get_attribute("data-ns") == "100000000")
    values = browser.execute_script(
        "return Array.from(document.querySelectorAll('#present-diagram svg g.mark.value title')).map((t) => t.textContent)")
    assert values == ["0", "0", "0"], values
    browser.save_screenshot(os.path.join(SHOTS, "present-stepping.png"))
    browser.switch_to.window(learner_tab)
    wait(browser, lambda: browser.find_element(By.ID, "present-step-time").get_attribute("data-ns") == "100000000")
    learner_values = browser.execute_script(
        "return Array.from(document.querySelectorAll('#present-diagram svg g.mark.value title')).map((t) => t.textContent)")
    assert learner_values == values
    assert "▲ 100 ms" in browser.find_element(By.ID, "present-step-time").text


def shell_compare(pipeline):
    """`:compare PIPELINE` in the built plumb: the rows (push, pull, differs) and the verdict lines."""
    binary = os.environ["PLUMB_BIN"]
    with tempfile.TemporaryDirectory(prefix="plumb-compare-") as directory:
        script = os.path.join(directory, "compare.plumb")
        with open(script, "w") as f:
            f.write(":compare " + pipeline + "\n")
        out = subprocess.run([binary, "run", "--clock", "virtual", "--no-color", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    verdict = [line for line in lines if line.startswith(("differs:", "same:", "why:"))]
    differing = [line[1:].split() for line in lines if line.startswith("≠")]
    return verdict, differing


def test_compare_shows_both_runs_on_one_axis_with_the_differences_and_why(room, browser):
    pipeline = "interval 100ms | take 3 | debounce 150ms"
    verdict, differing = shell_compare(pipeline)
    assert verdict[0] == "differs: 1 line (marked ≠)" and verdict[1].startswith("why: debounce"), verdict
    join(browser, room, "Comparer")
    browser.find_element(By.ID, "open-playground").click()
    set_text(browser, "pipeline", pipeline)
    browser.find_element(By.ID, "compare").click()
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#comparisons .comparison"))
    seen = browser.execute_script(
        """const c = document.querySelector('#comparisons .comparison');
           return {
             sides: Array.from(c.querySelectorAll('.side')).map((d) => d.textContent),
             differing: Array.from(c.querySelectorAll('tr.differs')).map((tr) => [tr.querySelector('td.push').textContent, tr.querySelector('td.pull').textContent]),
             verdict: Array.from(c.querySelectorAll('.verdict-line, .why')).map((d) => d.textContent),
             labels: Array.from(c.querySelectorAll('.diagram svg text')).map((t) => t.textContent).filter((t) => /^\\[\\d+\\] (push|pull) /.test(t)),
             axes: c.querySelectorAll('.diagram svg g.axis').length };""")
    # The page says what :compare says: the verdict, the why line, the one differing row.
    assert seen["verdict"] == verdict
    assert len(seen["differing"]) == len(differing) == 1
    assert seen["differing"][0][0] == "" and seen["differing"][0][1].split() == differing[0]
    assert seen["sides"][0].startswith("push (Combine publishers)") and seen["sides"][1].startswith("pull (AsyncSequence twins)")
    # Both runs' lanes in one diagram, on one time axis.
    assert any(" push " in label for label in seen["labels"]) and any(" pull " in label for label in seen["labels"])
    assert seen["axes"] == 1
    browser.save_screenshot(os.path.join(SHOTS, "compare.png"))

    # A stage with no async twin is E410, at its position, and nothing is compared.
    set_text(browser, "pipeline", "just 1 | retry 2")
    browser.find_element(By.ID, "compare").click()
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#run-diagnostics .diagnostic"))
    headline = browser.find_element(By.CSS_SELECTOR, "#run-diagnostics .headline").text
    assert headline.startswith("1:10: error[E410]:") and "'retry' has no async twin" in headline, headline
    assert not browser.find_elements(By.CSS_SELECTOR, "#comparisons .comparison")
