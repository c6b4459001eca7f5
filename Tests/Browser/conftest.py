"""The web front end in a real browser: headless Chromium (Debian's chromium and chromium-driver)
driven through WebDriver against a live `concierge serve` that this suite starts on a free loopback
port, in dev mode, with a throwaway SQLite file. Screenshots go to $CONCIERGE_BROWSER_ARTIFACTS.

Shared helpers for every vertical's tests live here: the server (with the dev outbox and JSON
calls), a browser with or without JavaScript, screenshots at 390x844 and 1280x800, and checks that
a page is labelled for screen readers and ran without console errors (a CSP violation is one).
"""

import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ADMIN_TOKEN = "browser-tests-admin-token-0123456789abcdef"
ARTIFACTS = pathlib.Path(os.environ.get("CONCIERGE_BROWSER_ARTIFACTS", ".concierge/browser-artifacts"))
SIZES = [(390, 844), (1280, 800)]


class Server:
    """A live server and the JSON calls tests make beside the browser (the dev outbox)."""

    def __init__(self, base):
        self.base = base

    def url(self, path):
        return self.base + path

    def request(self, method, path, body=None, token=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
                return response.status, (json.loads(text) if text.startswith(("{", "[")) else text)
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            return error.code, (json.loads(text) if text.startswith(("{", "[")) else text)

    def outbox(self):
        status, body = self.request("GET", "/dev/outbox")
        assert status == 200, body
        return body["messages"]

    def latest_sms_code(self, phone_digits):
        """The newest six-digit code texted to a number (its digits, as E.164 without '+')."""
        for message in reversed(self.outbox()):
            recipient = re.sub(r"\D", "", message.get("to", "") or message.get("recipient", ""))
            if message.get("channel") == "sms" and recipient.endswith(phone_digits[-9:]):
                found = re.search(r"\b(\d{6})\b", message.get("body", ""))
                if found:
                    return found.group(1)
        raise AssertionError(f"no SMS code for {phone_digits} in the dev outbox")

    def latest_email_link(self, address, path_fragment, wait_seconds=20):
        """The newest link containing `path_fragment` in an email to `address`, waiting for the
        worker (every second) to deliver it."""
        deadline = time.time() + wait_seconds
        while True:
            for message in reversed(self.outbox()):
                if message.get("channel") == "email" and address in json.dumps(message):
                    found = re.search(r"https?://\S*" + re.escape(path_fragment) + r"\S*", message.get("body", ""))
                    if found:
                        return found.group(0)
            if time.time() > deadline:
                raise AssertionError(f"no email to {address} with {path_fragment}")
            time.sleep(0.3)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def server():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    binary = os.environ.get("CONCIERGE_BIN", ".build/debug/concierge")
    port = free_port()
    folder = tempfile.mkdtemp(prefix="concierge-browser-")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CONCIERGE_", "DATABASE_URL", "OTEL_"))}
    env.update(
        CONCIERGE_HOST="127.0.0.1",
        CONCIERGE_PORT=str(port),
        CONCIERGE_MODE="dev",
        CONCIERGE_SQLITE_PATH=os.path.join(folder, "browser.sqlite"),
        CONCIERGE_SQLITE_SYNCHRONOUS="normal",
        CONCIERGE_ADMIN_TOKEN=ADMIN_TOKEN,
        CONCIERGE_WORKER_INTERVAL_SECONDS="1",
        CONCIERGE_BCRYPT_COST="4",
        CONCIERGE_LOG_LEVEL="warning",
        # Sign-up limits count per client network, and every test signs up from 127.0.0.1: the
        # suite's few dozen accounts pass the default 20 an hour. Raised as the benchmark raises
        # its limits, so these tests check the pages, not the limiter (PasswordHashingLimitsHTTPTests
        # covers that).
        CONCIERGE_SIGNUP_PER_NETWORK="1000000",
        CONCIERGE_SIGNUP_PER_HOUR="1000000",
    )
    log = open(ARTIFACTS / "server.log", "w")
    process = subprocess.Popen([binary, "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while True:
        try:
            with urllib.request.urlopen(base + "/health", timeout=2):
                break
        except OSError:
            if process.poll() is not None or time.time() > deadline:
                process.kill()
                raise AssertionError(f"the server did not start; see {ARTIFACTS / 'server.log'}")
            time.sleep(0.2)
    yield Server(base)
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()
    shutil.rmtree(folder, ignore_errors=True)


def make_driver(javascript=True):
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
                     "--lang=en-US", "--disable-gpu"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(60)
    driver.javascript_enabled = javascript
    return driver


@pytest.fixture
def browser():
    driver = make_driver(javascript=True)
    yield driver
    driver.quit()


@pytest.fixture
def browser_nojs():
    driver = make_driver(javascript=False)
    yield driver
    driver.quit()


def wait_for(driver, css, timeout=15):
    """The first element matching `css`, once it is visible."""
    return WebDriverWait(driver, timeout).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))


def navigating(driver, action):
    """Runs `action` (a click or Enter that loads a page) and waits for the next page's h1."""
    old = driver.find_element(By.TAG_NAME, "html")
    action()

    def replaced(_):
        # ChromeDriver may answer a lookup of the old page's node mid-navigation with an
        # "inspector error: Node … does not belong to the document" instead of a stale-element
        # error (seen in CI); either way the old page is gone.
        try:
            old.is_enabled()
            return False
        except WebDriverException:
            return True

    WebDriverWait(driver, 15).until(replaced)
    return wait_for(driver, "h1")


def screenshots(driver, name, scroll_to=None):
    """The page as a phone (390x844) and a laptop (1280x800) show it, kept as artifacts;
    `scroll_to` (a CSS selector) brings that part of the page into view at each size (changing
    the size resets the scroll position)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )
        if scroll_to:
            driver.execute_script(
                "document.querySelector(arguments[0]).scrollIntoView({block: 'start'})", scroll_to)
        driver.save_screenshot(str(ARTIFACTS / f"{name}-{width}x{height}.png"))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def assert_accessible(driver):
    """Every page: a language, one h1, every form control labelled, every image described, and no
    WCAG 2.1 A/AA violation that axe-core finds (axe_audit.py)."""
    from axe_audit import assert_no_axe_violations
    problems = driver.execute_script(
        """
        const problems = [];
        if (!document.documentElement.lang) problems.push('html has no lang');
        if (document.querySelectorAll('h1').length !== 1) problems.push('not exactly one h1');
        for (const el of document.querySelectorAll('input, select, textarea')) {
          if (el.type === 'hidden' || el.type === 'submit' || el.type === 'button') continue;
          const labelled = (el.id && document.querySelector('label[for="' + el.id + '"]')) ||
            el.closest('label') || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
          if (!labelled) problems.push('unlabelled ' + el.tagName + ' ' + (el.name || el.id));
        }
        for (const img of document.querySelectorAll('img')) {
          if (!img.hasAttribute('alt')) problems.push('image without alt: ' + img.src);
        }
        for (const b of document.querySelectorAll('button')) {
          if (!b.textContent.trim() && !b.getAttribute('aria-label')) problems.push('button without a name');
        }
        return problems;
        """
    )
    assert problems == [], f"{driver.current_url}: {problems}"
    # axe runs on promises and timers, which a page without JavaScript never runs; the same pages
    # with JavaScript on are audited (the server's markup is the same, scripts only enhance).
    if getattr(driver, "javascript_enabled", True):
        assert_no_axe_violations(driver)


def assert_no_console_errors(driver, allow=()):
    """No script error and no Content-Security-Policy violation on the page. `allow` lists
    fragments of messages that are expected (Chromium logs a refused form's 400 as an error)."""
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
              and "favicon.ico" not in entry["message"]
              and not any(fragment in entry["message"] for fragment in allow)]
    assert errors == [], errors


def tab_to(driver, css, limit=80):
    """Presses Tab until the element matching `css` has focus (keyboard-only use); fails if never."""
    from selenium.webdriver.common.keys import Keys
    body = driver.find_element(By.TAG_NAME, "body")
    target = driver.find_element(By.CSS_SELECTOR, css)
    for _ in range(limit):
        if driver.switch_to.active_element == target:
            return target
        driver.switch_to.active_element.send_keys(Keys.TAB) if driver.switch_to.active_element else body.send_keys(Keys.TAB)
    raise AssertionError(f"Tab never reached {css}")
