"""The start page, the language switch, the operator's sign-in, and the platform's page rules
(CSRF, cookies, CSP) in a real browser."""

import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ADMIN_TOKEN, assert_accessible, assert_no_console_errors, screenshots, tab_to, wait_for


def test_the_start_page_offers_the_four_verticals_and_sign_in(server, browser):
    browser.get(server.url("/"))
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, ".cards a")]
    assert [link.rsplit("/", 1)[-1] for link in links] == ["rides", "events", "stays", "commute"]
    assert browser.find_element(By.LINK_TEXT, "Sign in").get_attribute("href").endswith("/account/sign-in")
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "home")


def test_the_language_switch_speaks_german_and_remembers_it(server, browser):
    browser.get(server.url("/"))
    browser.find_element(By.CSS_SELECTOR, "nav.languages a[hreflang=de]").click()
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    assert "Fahrten" in browser.find_element(By.CSS_SELECTOR, "nav.primary").text
    browser.get(server.url("/"))  # the cookie keeps the choice
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    screenshots(browser, "home-de")


def test_an_operator_signs_in_with_the_admin_token_by_keyboard_alone(server, browser):
    browser.get(server.url("/ops"))
    assert "/ops/sign-in" in browser.current_url
    field = wait_for(browser, "#token")
    field.send_keys("not-the-token" + Keys.ENTER)
    error = wait_for(browser, "#sign-in-error")
    assert error.get_attribute("role") == "alert"
    assert browser.switch_to.active_element.get_attribute("id") == "token"  # focus moved to the field
    assert_accessible(browser)
    browser.find_element(By.ID, "token").send_keys(ADMIN_TOKEN + Keys.ENTER)
    heading = wait_for(browser, "h1")
    assert heading.text == "Operations"
    assert browser.find_element(By.LINK_TEXT, "Ride dispatch")
    screenshots(browser, "ops-index")

    # The sign-in is the audit log's newest entry (no named operator yet: the admin token's).
    tab_to(browser, "main a[href='/ops/audit']").send_keys(Keys.ENTER)
    wait_text(browser, "h1", "Audit log")
    newest = browser.find_element(By.CSS_SELECTOR, "table.audit tbody tr").text
    assert "admin token" in newest and "Signed in" in newest, newest
    assert_accessible(browser)
    assert_no_console_errors(browser, allow=("/ops/sign-in - Failed to load resource",))  # the wrong token's 401
    screenshots(browser, "ops-audit")


def wait_text(browser, css, text, timeout=15):
    """Waits until the element matching `css` shows `text` (the next page has loaded)."""
    WebDriverWait(browser, timeout).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))


def test_a_form_posted_without_its_csrf_token_is_refused(server):
    request = urllib.request.Request(server.url("/ops/sign-in"), data=b"token=x", method="POST")
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("expected 403")
    except urllib.error.HTTPError as error:
        assert error.code == 403
        assert "This form has expired" in error.read().decode()


def test_pages_set_strict_cookies_and_a_policy_without_unsafe_inline(server):
    with urllib.request.urlopen(server.url("/"), timeout=10) as response:
        policy = response.headers["Content-Security-Policy"]
        cookie = response.headers["Set-Cookie"]
    assert "unsafe-inline" not in policy and "script-src 'self'" in policy
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_the_start_page_works_without_javascript(server, browser_nojs):
    browser_nojs.get(server.url("/"))
    assert browser_nojs.find_element(By.TAG_NAME, "h1").text
    assert_accessible(browser_nojs)
    screenshots(browser_nojs, "home-nojs")
