"""Accessibility in a real browser (the review of 2026-11-27, docs/web/accessibility.md): axe-core's
WCAG 2.1 A/AA rules on every page in English and German, no sideways scrolling at 320 CSS px,
the seat map's states told by colour and shape at 3:1 against the map, a focus ring of 3:1, the
hold countdown as a timer with one-off announcements, and the language switch on a refused form.

Every other browser test also runs axe on each page it checks (conftest.assert_accessible); the
walk here lists the pages itself so that German is covered too.
"""

import datetime
import re
import time
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from axe_audit import axe_violations, describe
from conftest import ADMIN_TOKEN, navigating, tab_to, wait_for
from test_events import api_paid_booking, events_buyer, operator, seat
from test_rides import book_and_pay

PASSWORD = "a long passphrase"


def day(offset):
    return (datetime.date.today() + datetime.timedelta(days=offset)).isoformat()


# MARK: Contrast (WCAG 2.1's relative luminance)

def rgb(css):
    """(r, g, b) of a computed colour such as 'rgb(30, 123, 69)' or a '#1e7b45' attribute."""
    css = css.strip()
    if css.startswith("#"):
        return tuple(int(css[i:i + 2], 16) for i in (1, 3, 5))
    found = re.match(r"rgba?\((\d+),\s*(\d+),\s*(\d+)", css)
    assert found, f"not a colour: {css!r}"
    return tuple(int(part) for part in found.groups())


def contrast(first, second):
    def luminance(colour):
        channels = [value / 255 for value in colour]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(rgb(first)), luminance(rgb(second))), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# MARK: Signing in as the walk needs it

def sms_sign_in(driver, server, phone):
    """Rides' SMS sign-in with the code from the dev outbox (any language)."""
    driver.get(server.url("/rides"))
    wait_for(driver, "#phone").send_keys(phone + Keys.ENTER)
    code = wait_for(driver, "#code")
    code.send_keys(server.latest_sms_code(re.sub(r"\D", "", phone)) + Keys.ENTER)
    wait_for(driver, "#pickup")


def submit_without_browser_checks(driver, form_css):
    """Posts a form as it is, past the browser's own checks (the server's refusal is the point)."""
    navigating(driver, lambda: driver.execute_script(
        "HTMLFormElement.prototype.submit.call(document.querySelector(arguments[0]))", form_css))


# MARK: The walk

class Audit:
    """Collects, page by page, axe's WCAG 2.1 A/AA violations and pages wider than 320 px."""

    def __init__(self, driver, server, language):
        self.driver, self.server, self.language = driver, server, language
        self.violations, self.too_wide, self.pages = [], [], []

    def visit(self, path):
        self.driver.get(self.server.url(path))
        self.check(path)

    def check(self, name):
        driver = self.driver
        wait_for(driver, "h1")
        lang = driver.find_element(By.TAG_NAME, "html").get_attribute("lang")
        assert lang == self.language, f"{name}: the page speaks {lang!r}, not {self.language!r}"
        assert "method_not_allowed" not in driver.page_source, f"{name}: a JSON error instead of a page"
        where = f"[{self.language}] {name} ({driver.current_url})"
        self.pages.append(where)
        found = axe_violations(driver)
        if found:
            self.violations.append(describe(found, where))
        wide = self.overflow_at_320()
        if wide:
            self.too_wide.append(f"{where}: {wide}")

    def overflow_at_320(self):
        """'' when the page fits 320 CSS px, else its width and the elements that stick out."""
        driver = self.driver
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 320, "height": 640, "deviceScaleFactor": 1, "mobile": True})
        try:
            return driver.execute_script(
                """
                const root = document.documentElement;
                if (root.scrollWidth <= root.clientWidth) return '';
                const out = [];
                for (const el of document.body.querySelectorAll('*')) {
                  const box = el.getBoundingClientRect();
                  if (box.right > root.clientWidth + 0.5 && out.length < 4) {
                    out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                             (el.className && el.className.baseVal === undefined ? '.' + el.className : '') +
                             ' ' + Math.round(box.right) + 'px');
                  }
                }
                return 'scrollWidth ' + root.scrollWidth + ' > ' + root.clientWidth + ': ' + out.join(', ');
                """)
        finally:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def speak(self, language):
        self.driver.get(self.server.url(f"/?lang={language}"))


SIGNED_OUT_PAGES = [
    "/", "/account/sign-in", "/account/sign-up", "/account/forgot-password", "/account/verify-email",
    "/events", "/events?from=notadate", "/events?q=jazz", "/events/shows/shw_demo_2", "/events/verify-email",
    "/events/reset-password", "/stays", "/stays/sign-in", "/stays/register", "/commute", "/rides",
    "/ops/sign-in",
]


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_page_has_no_wcag_violation_and_fits_320_px(server, browser, language):
    audit = Audit(browser, server, language)
    audit.speak(language)
    for path in SIGNED_OUT_PAGES + [f"/stays/search?checkIn={day(20)}&checkOut={day(22)}&guests=2",
                                    f"/stays/search?checkIn={day(22)}&checkOut={day(20)}&guests=2"]:
        audit.visit(path)

    # Refused forms, shown again at their targets, and where their language switch leads.
    audit.visit("/account/sign-in")
    browser.find_element(By.ID, "login").send_keys("nobody@example.ch")
    browser.find_element(By.ID, "password").send_keys("not the password")
    submit_without_browser_checks(browser, "main form[action='/account/web/sign-in']")
    audit.check("account sign-in (wrong password)")
    other = "de" if language == "en" else "en"
    navigating(browser, browser.find_element(By.CSS_SELECTOR, f"nav.languages a[hreflang={other}]").click)
    audit.language = other
    audit.check("account sign-in (wrong password), then the language switch")
    audit.language = language
    audit.speak(language)
    audit.visit("/account/sign-up")
    browser.find_element(By.ID, "email").send_keys("not-an-address")
    submit_without_browser_checks(browser, "main form[action='/account/web/sign-up']")
    audit.check("account sign-up (with errors)")
    audit.visit("/stays/register")
    submit_without_browser_checks(browser, "form[action='/stays/register']")
    audit.check("stays register (with errors)")
    audit.visit("/rides")
    browser.find_element(By.ID, "phone").send_keys("123")
    submit_without_browser_checks(browser, "form[action='/rides/sign-in']")
    audit.check("rides sign-in (refused phone)")
    audit.visit("/ops/sign-in")
    browser.find_element(By.ID, "token").send_keys("not-the-token")
    submit_without_browser_checks(browser, "main form")
    audit.check("ops sign-in (wrong token)")

    # Rides, signed in by SMS: the form, a quote, the trips.
    sms_sign_in(browser, server, "+41 79 555 %s %02d" % ("11" if language == "en" else "22", int(time.time()) % 100))
    audit.check("rides booking form")
    pickup = (datetime.date.today() + datetime.timedelta(days=5)).isoformat()
    audit.visit(f"/rides/quote?pickup=Zurich+Airport&destination=Bern&date={pickup}&time=10:30&passengers=1")
    audit.speak("en")
    browser.get(server.url("/rides"))
    book_and_pay(browser, server)  # its checks read English
    audit.speak(language)
    audit.visit("/rides/trips")
    navigating(browser, browser.find_element(By.CSS_SELECTOR, ".trip h2 a").click)
    audit.check("rides trip")

    # An account (signed in through the account pages), the seat map, a hold, the sandbox
    # checkout, the tickets; commute and stays with that account.
    audit.speak("en")
    events_buyer(server, browser, f"walk{language}", "/account")
    audit.speak(language)
    for path in ["/account", "/account/delete", "/commute", "/commute/my-trips/new"]:
        audit.visit(path)
    audit.visit("/events/shows/shw_demo_1")
    free = browser.find_elements(By.CSS_SELECTOR, "#seatmap .seat.available")[-2:]
    for element in free:
        element.click()
    audit.check("events show (2 seats chosen)")
    navigating(browser, browser.find_element(By.CSS_SELECTOR, "#seat-form button[type=submit]").click)
    audit.check("events order (held)")
    navigating(browser, browser.find_element(By.CSS_SELECTOR, "a.pay").click)
    assert browser.find_elements(By.CSS_SELECTOR, "main h1"), "the sandbox checkout has a main landmark"
    audit.check("sandbox checkout")
    navigating(browser, browser.find_element(By.CSS_SELECTOR, "button.pay").click)
    audit.check("events order (paid: tickets)")
    audit.visit("/events/tickets")
    audit.visit(f"/stays/search?checkIn={day(20)}&checkOut={day(22)}&guests=2")

    # Operations.
    operator(browser, server, "/ops")
    audit.speak(language)
    for path in ["/ops", "/ops/rides", "/ops/orders", "/ops/scanner", "/ops/events", "/ops/stays"]:
        audit.visit(path)

    report = "\n".join(audit.violations + ["-- wider than 320 px:"] + audit.too_wide)
    print(f"axe and 320 px checked on {len(audit.pages)} pages:\n" + "\n".join(audit.pages))
    assert audit.violations == [] and audit.too_wide == [], report


# MARK: The seat map

def seat_look(driver, element):
    """How a seat is drawn: the colour that stands against the map, and its shape."""
    return driver.execute_script(
        """
        const seat = arguments[0], style = getComputedStyle(seat);
        const pattern = /url\\("?#([^")]+)"?\\)/.exec(style.fill);
        let colour = style.fill, shape = 'solid';
        if (pattern) {
          shape = pattern[1];
          colour = document.getElementById(pattern[1]).querySelector('rect').getAttribute('fill');
        } else if (style.fill === 'rgb(255, 255, 255)') {
          shape = 'ring ' + style.strokeDasharray;
          colour = style.stroke;
        }
        return {colour: colour, shape: shape, stroke: style.stroke, strokeWidth: style.strokeWidth};
        """, element)


def test_seat_states_differ_in_colour_and_shape_at_3_to_1_against_the_map(server, browser):
    api_paid_booking(server, "shw_demo_1", ["stalls-B3"])
    events_buyer(server, browser, "shapes", "/events/shows/shw_demo_1")
    # A held seat: the buyer's own hold, which the map draws as held like anyone's.
    seat(browser, "stalls-B5").click()
    navigating(browser, browser.find_element(By.CSS_SELECTOR, "#seat-form button[type=submit]").click)
    browser.get(server.url("/events/shows/shw_demo_1"))
    seat(browser, "circle-N4").click()
    background = browser.execute_script(
        "return getComputedStyle(document.querySelector('.seatmap-wrap')).backgroundColor")
    looks = {
        "available": seat_look(browser, seat(browser, "stalls-C1")),
        "selected": seat_look(browser, seat(browser, "circle-N4")),
        "reserved": seat_look(browser, seat(browser, "stalls-B5")),
        "sold": seat_look(browser, seat(browser, "stalls-B3")),
    }
    for state, look in looks.items():
        ratio = contrast(look["colour"], background)
        assert ratio >= 3, f"{state} seats are {look['colour']}, {ratio:.2f}:1 against the map {background}"
    shapes = {state: look["shape"] for state, look in looks.items()}
    assert len(set(shapes.values())) == 4, f"two states share a shape: {shapes}"
    assert shapes["selected"] == "seat-chosen" and shapes["sold"] == "seat-sold"
    # Free seats look the same in every section: the section is its outline and name, not a colour.
    free = {seat_look(browser, seat(browser, seat_id))["colour"] for seat_id in ["stalls-C1", "circle-M1", "gallery-T1"]}
    assert len(free) == 1, free
    labels = [label.text for label in browser.find_elements(By.CSS_SELECTOR, "#seatmap .section-label")]
    assert [label.split(" · ")[0] for label in labels] == ["Stalls", "Circle", "Gallery"]
    # The key draws each state as the map does.
    for state, look in looks.items():
        key = browser.find_element(By.CSS_SELECTOR, f".seatmap-legend .key-seat.{state}")
        assert seat_look(browser, key)["shape"] == look["shape"], state


def test_the_focus_ring_has_3_to_1_contrast_on_the_page_on_cards_and_on_the_seat_map(server, browser):
    browser.get(server.url("/account/sign-in"))
    field = tab_to(browser, "#login")
    style = browser.execute_script(
        "const s = getComputedStyle(arguments[0]); return [s.outlineColor, s.outlineStyle, s.outlineWidth]", field)
    assert style[1] == "solid" and float(style[2].rstrip("px")) >= 2, style
    assert contrast(style[0], "rgb(255, 255, 255)") >= 3, style

    browser.get(server.url("/"))
    link = tab_to(browser, ".cards a")
    colour, card = browser.execute_script(
        "return [getComputedStyle(arguments[0]).outlineColor,"
        " getComputedStyle(arguments[0].closest('.card')).backgroundColor]", link)
    assert contrast(colour, card) >= 3, (colour, card)

    events_buyer(server, browser, "focus", "/events/shows/shw_demo_1")
    focused = tab_to(browser, "#seatmap .seat[tabindex='0']")
    ring = seat_look(browser, focused)
    background = browser.execute_script(
        "return getComputedStyle(document.querySelector('.seatmap-wrap')).backgroundColor")
    assert contrast(ring["stroke"], background) >= 3, (ring, background)
    assert float(ring["strokeWidth"].rstrip("px")) >= 4, ring
    focused.send_keys(Keys.ENTER)  # chosen and focused: the ring still differs from the chosen outline
    chosen_ring = seat_look(browser, browser.switch_to.active_element)
    browser.find_element(By.TAG_NAME, "h1").click()
    chosen = seat_look(browser, seat(browser, focused.get_attribute("data-seat-id")))
    assert chosen_ring["stroke"] != chosen["stroke"], (chosen_ring, chosen)


# MARK: The hold countdown

CLOCK = """
(() => {
  const realNow = Date.now.bind(Date);
  window.__clockShift = 0;
  Date.now = () => realNow() + window.__clockShift;
})();
"""


def leave_on_the_clock(driver, seconds):
    """Moves the page's clock (Date.now) so that the hold has `seconds` left."""
    driver.execute_script(
        """
        const until = Number(document.querySelector('[data-countdown-until]').getAttribute('data-countdown-until'));
        window.__clockShift = 0;
        window.__clockShift = until - Date.now() - arguments[0] * 1000;
        """, seconds)


def said(driver, region, text, timeout=5):
    WebDriverWait(driver, timeout).until(lambda d: region.text == text or region.get_attribute("textContent") == text)


def test_the_hold_countdown_is_a_timer_announced_at_5_minutes_1_minute_and_lapse(server, browser):
    events_buyer(server, browser, "timer", "/events/shows/shw_demo_2")
    # The page's clock is the test's: no waiting for real minutes.
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CLOCK})
    seat(browser, "gallery-Q3").click()
    navigating(browser, browser.find_element(By.CSS_SELECTOR, "#seat-form button[type=submit]").click)
    timer = browser.find_element(By.CSS_SELECTOR, ".countdown")
    assert timer.get_attribute("role") == "timer"
    live = browser.execute_script("return arguments[0].closest('[role=status],[role=alert],[aria-live]')", timer)
    assert live is None, "the ticking countdown is inside a live region"
    region = browser.find_element(By.ID, timer.get_attribute("data-announcer"))
    assert region.get_attribute("role") == "status" and region.get_attribute("aria-live") == "polite"
    assert region.get_attribute("textContent") == ""  # 15 minutes left: nothing said

    leave_on_the_clock(browser, 302)
    said(browser, region, "5 minutes left to pay; then the seats go back on sale.")
    leave_on_the_clock(browser, 290)
    time.sleep(1.5)  # two ticks: the warning is said once, not again as the seconds go by
    assert region.get_attribute("textContent") == "5 minutes left to pay; then the seats go back on sale."
    assert re.fullmatch(r"4:[45]\d", timer.text), timer.text

    leave_on_the_clock(browser, 62)
    said(browser, region, "1 minute left to pay.")
    assert browser.find_elements(By.CSS_SELECTOR, "a.pay")

    leave_on_the_clock(browser, -1)
    lapsed = "The hold has lapsed and the seats went back on sale. Please choose seats again."
    said(browser, region, lapsed)
    assert timer.text == "lapsed"
    assert browser.find_elements(By.CSS_SELECTOR, "a.pay") == [], "Pay is still offered after the hold lapsed"
    notice = wait_for(browser, "[data-hold-lapsed]")
    again = notice.find_element(By.LINK_TEXT, "Hold seats again")
    assert again.get_attribute("href").endswith("/events/shows/shw_demo_2")


# MARK: The language switch

def test_the_language_switch_on_a_refused_form_leads_to_the_form_in_that_language(server, browser):
    browser.get(server.url("/account/sign-in?lang=en"))
    wait_for(browser, "#login").send_keys("nobody@example.ch")
    navigating(browser, lambda: browser.find_element(By.ID, "password").send_keys("wrong password" + Keys.ENTER))
    assert urllib.parse.urlsplit(browser.current_url).path == "/account/web/sign-in"
    heading = navigating(browser, browser.find_element(By.CSS_SELECTOR, "nav.languages a[hreflang=de]").click)
    assert heading.text == "Anmelden"
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    assert urllib.parse.urlsplit(browser.current_url).path == "/account/sign-in"

    browser.get(server.url("/rides"))
    wait_for(browser, "#phone").send_keys("123" + Keys.ENTER)
    wait_for(browser, "#phone-error")
    heading = navigating(browser, browser.find_element(By.CSS_SELECTOR, "nav.languages a[hreflang=en]").click)
    assert heading.text == "Sign in to book a ride"
    assert urllib.parse.urlsplit(browser.current_url).path == "/rides"
