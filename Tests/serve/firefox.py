"""Headless Firefox (Debian's firefox-esr) driven through Marionette, its own remote protocol, by
Mozilla's client `marionette_driver` (PyPI): Debian has no geckodriver, so Selenium cannot drive
it. `FirefoxDriver` offers the part of Selenium's WebDriver that Tests/serve uses, so
test_browser.py runs the same learner journey in Firefox as in Chromium.

Firefox is started with a fresh profile whose Marionette port is 0 (the system picks a free one,
which Firefox writes to MarionetteActivePort in the profile), so runs beside each other on one
machine never meet.
"""
import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time

from marionette_driver import errors as marionette_errors
from marionette_driver.marionette import Alert, Marionette, WebElement
from selenium.common import exceptions as selenium_errors

FIREFOX = os.environ.get("PLUMB_FIREFOX", "/usr/bin/firefox-esr")

# What Selenium raises for what Marionette raises, so WebDriverWait ignores the same misses.
_ERRORS = (
    (marionette_errors.NoSuchElementException, selenium_errors.NoSuchElementException),
    (marionette_errors.StaleElementException, selenium_errors.StaleElementReferenceException),
    (marionette_errors.NoAlertPresentException, selenium_errors.NoAlertPresentException),
    (marionette_errors.TimeoutException, selenium_errors.TimeoutException),
)

# Preferences of the throwaway profile: Marionette on a free port, and nothing that reaches the
# network by itself (updates, telemetry, safe browsing lists, captive portal and connectivity
# checks, the new-tab page's content).
_PREFERENCES = {
    "marionette.port": 0,
    "app.update.disabledForTesting": True,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "browser.newtabpage.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "media.gmp-manager.updateEnabled": False,
    "remote.prefs.recommended": True,
}


@contextlib.contextmanager
def _as_selenium():
    try:
        yield
    except marionette_errors.MarionetteException as error:
        for theirs, ours in _ERRORS:
            if isinstance(error, theirs):
                raise ours(str(error)) from error
        raise


class FirefoxElement:
    """An element, answering as a Selenium WebElement does."""

    def __init__(self, driver, element):
        self.parent = driver
        self.element = element

    @property
    def text(self):
        with _as_selenium():
            return self.element.text

    def get_attribute(self, name):
        # Selenium's get_attribute gives the property when there is one (`value` is what was
        # typed, `textContent` the text), and the attribute otherwise (`class`).
        with _as_selenium():
            if name != "class":
                value = self.element.get_property(name)
                if value is not None:
                    return value
            return self.element.get_attribute(name)

    def is_displayed(self):
        with _as_selenium():
            return self.element.is_displayed()

    def click(self):
        with _as_selenium():
            self.element.click()

    def send_keys(self, *text):
        with _as_selenium():
            self.element.send_keys(*text)

    def screenshot(self, path):
        """The element as drawn, as Selenium's element screenshot gives it (a PNG file)."""
        with _as_selenium():
            png = self.parent.marionette.screenshot(element=self.element, format="binary")
        with open(path, "wb") as f:
            f.write(png)
        return True

    def find_element(self, by, value):
        with _as_selenium():
            return FirefoxElement(self.parent, self.element.find_element(by, value))

    def find_elements(self, by, value):
        with _as_selenium():
            return [FirefoxElement(self.parent, e) for e in self.element.find_elements(by, value)]


class _SwitchTo:
    def __init__(self, driver):
        self.driver = driver

    def new_window(self, kind="tab"):
        with _as_selenium():
            handle = self.driver.marionette.open(type=kind, focus=True)["handle"]
            self.driver.marionette.switch_to_window(handle)

    def window(self, handle):
        with _as_selenium():
            self.driver.marionette.switch_to_window(handle)

    @property
    def alert(self):
        with _as_selenium():
            alert = Alert(self.driver.marionette)
            _ = alert.text  # raises NoAlertPresentException when there is none
            return alert


class FirefoxDriver:
    """firefox-esr --headless --marionette with a throwaway profile, and a session on it."""

    def __init__(self, width=1280, height=720):
        self.profile = tempfile.mkdtemp(prefix="plumb-firefox-")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for name, value in _PREFERENCES.items():
                text = "true" if value is True else "false" if value is False else str(value)
                f.write(f'user_pref("{name}", {text});\n')
        self.log = open(os.path.join(self.profile, "firefox.log"), "w")
        environment = dict(os.environ, MOZ_HEADLESS="1", MOZ_HEADLESS_WIDTH=str(width), MOZ_HEADLESS_HEIGHT=str(height))
        self.process = subprocess.Popen(
            [FIREFOX, "--headless", "--marionette", "--no-remote", "--profile", self.profile],
            env=environment, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            port = self._port()
            self.marionette = Marionette(host="127.0.0.1", port=port, startup_timeout=60)
            self.marionette.start_session()
            self.browser_version = self.marionette.session_capabilities.get("browserVersion", "?")
            self._fit_viewport(width, height)
        except BaseException:
            self._end_process()
            raise
        self.switch_to = _SwitchTo(self)

    def _port(self):
        active = os.path.join(self.profile, "MarionetteActivePort")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"firefox-esr exited with {self.process.returncode} before Marionette listened")
            try:
                with open(active) as f:
                    text = f.read().strip()
                if text:
                    return int(text)
            except FileNotFoundError:
                pass
            time.sleep(0.1)
        raise RuntimeError("firefox-esr did not open its Marionette port within 60 s")

    def _fit_viewport(self, width, height):
        # The window includes Firefox's own toolbars: grow it until the page itself (what a
        # projector shows) is width × height, as Chromium's --window-size gives.
        inner = self.marionette.execute_script("return [window.innerWidth, window.innerHeight]")
        rect = self.marionette.window_rect
        self.marionette.set_window_rect(width=rect["width"] + width - inner[0], height=rect["height"] + height - inner[1])

    # Selenium's WebDriver, as far as the tests use it.

    def set_page_load_timeout(self, seconds):
        self.marionette.timeout.page_load = seconds

    def get(self, url):
        with _as_selenium():
            self.marionette.navigate(url)

    def refresh(self):
        with _as_selenium():
            self.marionette.refresh()

    def find_element(self, by, value):
        with _as_selenium():
            return FirefoxElement(self, self.marionette.find_element(by, value))

    def find_elements(self, by, value):
        with _as_selenium():
            return [FirefoxElement(self, e) for e in self.marionette.find_elements(by, value)]

    def execute_script(self, script, *arguments):
        passed = [a.element if isinstance(a, FirefoxElement) else a for a in arguments]
        with _as_selenium():
            result = self.marionette.execute_script(script, script_args=passed)
        return FirefoxElement(self, result) if isinstance(result, WebElement) else result

    @property
    def current_window_handle(self):
        return self.marionette.current_window_handle

    def save_screenshot(self, path):
        """What the viewport shows, as Selenium's screenshot does (not the whole page)."""
        with _as_selenium():
            png = self.marionette.screenshot(format="binary", full=False)
        with open(path, "wb") as f:
            f.write(png)
        return True

    def quit(self):
        try:
            self.marionette.delete_session()
        except Exception:  # the browser may be gone already; ending it below is what matters
            pass
        self._end_process()

    def _end_process(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)
