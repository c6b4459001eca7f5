"""The stays pages in a real browser: registering (a refused field first), searching, reserving a
prepaid room and paying it on the sandbox checkout, finding it in my reservations and cancelling
it under the policy; the operator's arrivals and occupancy page; every stays page once with
JavaScript off. Screenshots of each page at 390x844 and 1280x800."""

import datetime
import time
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ADMIN_TOKEN, assert_accessible, assert_no_console_errors, screenshots, wait_for

PASSWORD = "correct horse battery"


def unique(name):
    return f"{name}{int(time.time() * 1000) % 10_000_000}"


def day(offset):
    return (datetime.date.today() + datetime.timedelta(days=offset)).isoformat()


def noon_millis(offset):
    """Epoch milliseconds of noon UTC on a day from today (the same date in Zurich)."""
    date = datetime.date.today() + datetime.timedelta(days=offset)
    moment = datetime.datetime.combine(date, datetime.time(12), tzinfo=datetime.timezone.utc)
    return int(moment.timestamp() * 1000)


def fill(driver, values):
    for name, value in values.items():
        field = driver.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)


def register(driver, server, username, email=None):
    driver.get(server.url("/stays/register"))
    fill(driver, {"username": username, "firstName": "Anna", "lastName": "Meier",
                  "email": email or f"{username}@example.ch", "phone": "+41 79 123 45 67", "password": PASSWORD})
    driver.find_element(By.CSS_SELECTOR, "form[action='/stays/register'] button[type=submit]").click()
    sign_in_after_registering(driver, username)


def sign_in_after_registering(driver, username):
    """Registering does not sign in (the same page follows a taken address): the sign-in page says
    "check your mail", and the guest signs in there."""
    assert "check your mail" in wait_for(driver, ".notice").text.lower()
    fill(driver, {"login": username, "password": PASSWORD})
    driver.find_element(By.CSS_SELECTOR, "form[action='/stays/sign-in'] button[type=submit]").click()
    wait_for_url(driver, "/stays/reservations")  # signed in: the guest's reservations, before going on


def verify_email(server, email):
    """Opens the verification mail's token, as the guest would: a room paid at the hotel needs a
    verified email (docs/limits.md). The guest confirms signed in (a session of the account sent
    with it): a link opened without one counts as a stranger's proof of the mailbox, which
    removes the password chosen at registration and signs every session out."""
    status, body = server.request("POST", "/stays/login", {"username": email, "password": PASSWORD})
    assert status == 200, body
    link = server.latest_email_link(email, "/account/verify-email")
    token = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["token"][0]
    status, body = server.request("POST", "/account/email/verify", {"token": token}, token=body["data"]["token"])
    assert status == 200, body


def assert_only_the_refusal_in_the_console(driver):
    """A refused form answers 400, which Chromium logs as a failed load; nothing else may be there."""
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
              and "favicon.ico" not in entry["message"] and "status of 400" not in entry["message"]]
    assert errors == [], errors


def wait_for_url(driver, fragment):
    WebDriverWait(driver, 15).until(EC.url_contains(fragment))


def set_date(driver, field_id, value):
    driver.execute_script("document.getElementById(arguments[0]).value = arguments[1];", field_id, value)


def test_stays_register_reserve_pay_on_the_sandbox_see_it_and_cancel_it(server, browser):
    # The Suite is paid in advance on this server, so reserving it goes through the checkout.
    status, body = server.request("PATCH", "/stays/admin/room-types/4", {"paymentPolicy": "prepay"}, token=ADMIN_TOKEN)
    assert status == 200, body

    username = unique("anna")
    browser.get(server.url("/stays/register"))
    fill(browser, {"username": username, "firstName": "Anna", "lastName": "Meier", "email": "anna@",
                   "phone": "+41 79 123 45 67", "password": PASSWORD})
    browser.find_element(By.CSS_SELECTOR, "form[action='/stays/register'] button[type=submit]").click()
    error = wait_for(browser, "#email-error")
    assert error.get_attribute("role") == "alert" and "valid email address" in error.text
    assert browser.switch_to.active_element.get_attribute("id") == "email"  # focus moved to the field
    assert browser.find_element(By.ID, "email").get_attribute("aria-invalid") == "true"
    assert browser.find_element(By.ID, "username").get_attribute("value") == username  # the rest is kept
    assert browser.find_elements(By.ID, "username-error") == []
    assert_accessible(browser)
    assert_only_the_refusal_in_the_console(browser)
    screenshots(browser, "stays-register-error")

    fill(browser, {"email": f"{username}@example.ch", "password": PASSWORD})
    browser.find_element(By.CSS_SELECTOR, "form[action='/stays/register'] button[type=submit]").click()
    sign_in_after_registering(browser, username)
    browser.get(server.url("/stays"))

    # Picking a check-in after the check-out moves the check-out to the next day (stays-dates.js).
    browser.execute_script(
        "const f = document.getElementById('checkIn'); f.value = arguments[0];"
        " f.dispatchEvent(new Event('change'));", day(30))
    assert browser.find_element(By.ID, "checkOut").get_attribute("value") == day(31)
    set_date(browser, "checkIn", day(20))
    set_date(browser, "checkOut", day(22))
    browser.find_element(By.CSS_SELECTOR, "form.stays-search button[type=submit]").click()
    suite = wait_for(browser, "[data-room-id='4']")
    photo = suite.find_element(By.TAG_NAME, "img")
    assert photo.get_attribute("alt").startswith("Suite room:")
    assert browser.execute_script("return arguments[0].naturalWidth", photo) > 0
    assert "Paid in advance online" in suite.text and "CHF" in suite.text
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "stays-search")
    browser.get(browser.current_url.split("#")[0] + "&lang=de")
    assert "Gesamt für 2 Nächte" in wait_for(browser, "[data-room-id='4']").text
    screenshots(browser, "stays-search-de")
    browser.get(browser.current_url.replace("lang=de", "lang=en"))
    suite = wait_for(browser, "[data-room-id='4']")

    suite.find_element(By.CSS_SELECTOR, "a.button").click()
    wait_for(browser, "form[action='/stays/reserve']")
    assert "Free cancellation until" in browser.page_source
    assert_accessible(browser)
    screenshots(browser, "stays-reserve")
    browser.find_element(By.CSS_SELECTOR, "form[action='/stays/reserve'] button[type=submit]").click()

    pay = wait_for(browser, "button.pay")
    assert "/sandbox/checkout/" in browser.current_url
    pay.click()
    wait_for_url(browser, "paid=1")
    notice = wait_for(browser, ".notice[role=status]")
    assert "Paid. Your stay is confirmed" in notice.text
    assert "/stays/reservations/" in browser.current_url
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "stays-reservation-paid")

    browser.find_element(By.LINK_TEXT, "My reservations").click()
    upcoming = wait_for(browser, "#upcoming")
    assert "Suite" in upcoming.text and "Confirmed" in upcoming.text
    assert_accessible(browser)
    screenshots(browser, "stays-reservations")

    upcoming.find_element(By.PARTIAL_LINK_TEXT, "Cancel reservation").click()
    preview = wait_for(browser, "#cancel-preview")
    assert "you get back everything you paid" in preview.text
    assert_accessible(browser)
    screenshots(browser, "stays-cancel")
    browser.find_element(By.CSS_SELECTOR, "button.danger").click()
    wait_for_url(browser, "cancelled=1")
    notice = wait_for(browser, ".notice[role=status]")
    assert "Cancelled free of charge." in notice.text and "refunded" in notice.text
    browser.find_element(By.LINK_TEXT, "My reservations").click()
    past = wait_for(browser, "#past")
    assert "Cancelled" in past.text and "Suite" in past.text
    assert_no_console_errors(browser)
    screenshots(browser, "stays-reservations-after-cancel")


def test_stays_ops_shows_todays_arrivals_and_occupancy(server, browser):
    username = unique("otto")
    status, body = server.request("POST", "/stays/user/register", {
        "username": username, "firstName": "Otto", "lastName": "Arrival", "email": f"{username}@example.ch",
        "phone": "+41 79 765 43 21", "password": PASSWORD})
    assert status == 201, body
    # A room paid at the hotel needs a verified email (docs/limits.md).
    verify_email(server, f"{username}@example.ch")
    status, body = server.request("POST", "/stays/login", {"username": username, "password": PASSWORD})
    token = body["data"]["token"]
    status, body = server.request("POST", "/stays/appointment", {
        "roomHotelId": 2, "checkIn": noon_millis(0), "checkOut": noon_millis(1), "guests": 2}, token=token)
    assert status == 201, body

    browser.get(server.url("/ops/stays"))
    assert "/ops/sign-in" in browser.current_url
    wait_for(browser, "#token").send_keys(ADMIN_TOKEN)
    browser.find_element(By.CSS_SELECTOR, "form[action='/ops/sign-in'] button[type=submit]").click()
    arrivals = wait_for(browser, "#arrivals")
    assert "Otto Arrival" in arrivals.text
    bars = browser.find_elements(By.CSS_SELECTOR, "#occupancy svg.stays-bar")
    assert len(bars) == 14
    assert int(browser.find_element(By.CSS_SELECTOR, "#occupancy .stays-bar-booked").get_attribute("width")) > 0
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "ops-stays")


def test_every_stays_page_works_without_javascript(server, browser_nojs):
    driver = browser_nojs
    username = unique("nora")
    driver.get(server.url("/stays/register"))
    assert_accessible(driver)
    screenshots(driver, "stays-register-nojs")
    register(driver, server, username)
    verify_email(server, f"{username}@example.ch")
    driver.get(server.url("/stays"))
    assert_accessible(driver)
    screenshots(driver, "stays-start-nojs")

    # The form's own dates (tomorrow for two nights) and two guests.
    driver.find_element(By.CSS_SELECTOR, "form.stays-search button[type=submit]").click()
    double = wait_for(driver, "[data-room-id='2']")
    assert "Pay at the hotel" in double.text
    screenshots(driver, "stays-search-nojs")
    double.find_element(By.CSS_SELECTOR, "a.button").click()
    wait_for(driver, "form[action='/stays/reserve']")
    driver.find_element(By.ID, "purpose").send_keys("Conference")
    assert_accessible(driver)
    screenshots(driver, "stays-reserve-nojs")
    driver.find_element(By.CSS_SELECTOR, "form[action='/stays/reserve'] button[type=submit]").click()
    notice = wait_for(driver, ".notice[role=status]")
    assert "Reserved." in notice.text and "Conference" in driver.page_source
    assert_accessible(driver)
    screenshots(driver, "stays-reservation-nojs")

    driver.get(server.url("/stays/reservations"))
    upcoming = wait_for(driver, "#upcoming")
    assert "Double" in upcoming.text
    assert_accessible(driver)
    screenshots(driver, "stays-reservations-nojs")
    upcoming.find_element(By.PARTIAL_LINK_TEXT, "Cancel reservation").click()
    preview = wait_for(driver, "#cancel-preview")
    assert "free of charge" in preview.text or "first night" in preview.text
    assert_accessible(driver)
    screenshots(driver, "stays-cancel-nojs")
    driver.find_element(By.CSS_SELECTOR, "button.danger").click()
    wait_for_url(driver, "cancelled=1")
    assert "Cancelled" in wait_for(driver, ".notice[role=status]").text

    driver.delete_all_cookies()
    driver.get(server.url("/stays/sign-in"))
    fill(driver, {"login": username, "password": "not the password"})
    driver.find_element(By.CSS_SELECTOR, "form[action='/stays/sign-in'] button[type=submit]").click()
    assert "not right" in wait_for(driver, "#password-error").text
    assert_accessible(driver)
    screenshots(driver, "stays-sign-in-nojs")
    fill(driver, {"login": f"{username}@example.ch", "password": PASSWORD})
    driver.find_element(By.CSS_SELECTOR, "form[action='/stays/sign-in'] button[type=submit]").click()
    assert "Cancelled" in wait_for(driver, "#past").text

    driver.get(server.url("/ops/sign-in?next=/ops/stays"))
    wait_for(driver, "#token").send_keys(ADMIN_TOKEN)
    driver.find_element(By.CSS_SELECTOR, "form[action='/ops/sign-in'] button[type=submit]").click()
    wait_for(driver, "#occupancy")
    assert_accessible(driver)
    screenshots(driver, "ops-stays-nojs")
