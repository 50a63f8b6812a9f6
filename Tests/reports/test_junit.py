"""`plumb test --report junit FILE.xml` read back by junitparser (PyPI), a consumer nobody here
wrote: a suite per file, a case per `expect` line, failures with their text and marble diff,
skipped cases after the first failure, an error for a file with static errors. Run by
Scripts/check-reports."""

import os
import pathlib
import subprocess

from junitparser import Error, Failure, JUnitXml, Skipped

PLUMB = os.environ["PLUMB_BIN"]

FILES = {
    "pass.pipe": "from [1, 2] | map { $0 * 10 }\nexpect values [10, 20]\nexpect finished\n",
    "marbles.pipe": "marble \"-a-b-|\" | map { $0 + $0 }\nexpect marbles \"-'aa'--'bb'|\"\nexpect finished\n",
    "static.pipe": "just 1 | retyr 2\nexpect values [1]\n",
    "none.pipe": "just 1\n",
}


def run_report(tmp_path: pathlib.Path, names):
    for name in names:
        (tmp_path / name).write_text(FILES[name])
    report = tmp_path / "report.xml"
    result = subprocess.run(
        [PLUMB, "test", "--report", "junit", str(report)] + [str(tmp_path / n) for n in names],
        capture_output=True, text=True, timeout=300)
    return result, JUnitXml.fromfile(str(report))


def cases(suite):
    return {case.name: case for case in suite}


def test_every_expect_line_is_a_case_grouped_per_file(tmp_path):
    result, xml = run_report(tmp_path, ["pass.pipe", "marbles.pipe", "static.pipe", "none.pipe"])
    assert result.returncode == 65, result
    suites = {pathlib.Path(suite.name).name: suite for suite in xml}
    assert sorted(suites) == ["marbles.pipe", "none.pipe", "pass.pipe", "static.pipe"]
    assert xml.tests == 7 and xml.failures == 1 and xml.errors == 1 and xml.skipped == 2

    passing = cases(suites["pass.pipe"])
    assert sorted(passing) == ["line 2: expect values [10, 20]", "line 3: expect finished"]
    assert all(case.is_passed for case in passing.values())

    marbles = cases(suites["marbles.pipe"])
    failed = marbles["line 2: expect marbles \"-'aa'--'bb'|\""]
    [failure] = failed.result
    assert isinstance(failure, Failure)
    assert failure.message == "expected marbles \"-'aa'--'bb'|\", got \"-'aa'-'bb'-|\""
    # The marble diff, as plumb test prints it.
    assert "  expected -'aa'--   'bb'|\n  actual   -'aa'-'bb'-   |\n" in failure.text
    assert "frame 3 (300ms): expected no event, got 'bb'" in failure.text
    [skipped] = marbles["line 3: expect finished"].result
    assert isinstance(skipped, Skipped) and "line 2" in skipped.message

    static = cases(suites["static.pipe"])
    [error] = static["the script"].result
    assert isinstance(error, Error) and "unknown operator 'retyr'" in error.message
    assert isinstance(static["line 2: expect values [1]"].result[0], Skipped)

    assert [case.name for case in suites["none.pipe"]] == ["the script runs (it has no expect lines)"]


def test_one_file_in_process_reports_the_same(tmp_path):
    result, xml = run_report(tmp_path, ["marbles.pipe"])
    assert result.returncode == 1
    assert "FAIL" in result.stdout and "0 passed, 1 failed" in result.stdout
    [suite] = list(xml)
    assert suite.tests == 2 and suite.failures == 1 and suite.skipped == 1
