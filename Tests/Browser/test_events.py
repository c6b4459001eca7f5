"""The events pages in a real browser: choosing seats on the seat map by clicking and by keyboard,
paying on the sandbox checkout and seeing the tickets' QR codes; checking a ticket in on
/ops/scanner with a typed code and reading the counts on /ops/events; every events page once with
JavaScript off (the seat list instead of the map). Screenshots of each page at 390x844 and
1280x800."""

import re
import time
import urllib.parse
import urllib.request
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import (ADMIN_TOKEN, assert_accessible, assert_no_console_errors, navigating, screenshots, tab_to,
                      wait_for)

PASSWORD = "a long passphrase"


def fresh_email(name):
    return f"{name}-{uuid.uuid4().hex[:8]}@example.ch"


def events_buyer(server, browser, name, next_path):
    """Signs up through the events API, signs in on the account sign-in page, which returns to
    the events page the email links to, confirms the email there (signed in: a link opened
    without the account's session would remove the password chosen at sign-up) and goes on to
    `next_path`."""
    email = fresh_email(name)
    status, body = server.request("POST", "/events/api/auth/signup",
                                  {"email": email, "password": PASSWORD, "name": name.title()})
    assert status == 201, body
    link = urllib.parse.urlsplit(server.latest_email_link(email, "/events/verify-email"))
    browser.get(server.url("/account/sign-in?next=" + urllib.parse.quote(f"{link.path}?{link.query}", safe="")))
    wait_for(browser, "#login").send_keys(email)
    navigating(browser, lambda: browser.find_element(By.ID, "password").send_keys(PASSWORD + Keys.ENTER))
    navigating(browser, wait_for(browser, "main form button[type=submit]").click)
    assert "email address is confirmed" in wait_for(browser, ".notice").text
    browser.get(server.url(next_path))
    return email


def api_paid_booking(server, show, seats):
    """A paid booking made through the events API and the sandbox checkout; answers the booking."""
    email = fresh_email("door")
    status, body = server.request("POST", "/events/api/auth/signup",
                                  {"email": email, "password": PASSWORD, "name": "Door Test"})
    assert status == 201, body
    # Sign-up answers "check your mail" without a token: the buyer signs in, then confirms the
    # address with the token (without it the link would remove the password).
    status, body = server.request("POST", "/events/api/auth/signin", {"email": email, "password": PASSWORD})
    assert status == 200, body
    token = body["token"]
    link = server.latest_email_link(email, "/events/verify-email")
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
    status, body = server.request("POST", "/events/api/auth/verify-email",
                                  {"token": query["token"][0], "email": email}, token=token)
    assert status == 200, body
    status, checkout = server.request("POST", "/events/api/seat-checkout",
                                      {"showId": show, "specificSeatIds": seats}, token=token)
    assert status == 200, checkout
    pay = urllib.request.Request(server.url(urllib.parse.urlsplit(checkout["url"]).path), data=b"outcome=paid",
                                 method="POST")
    pay.add_header("Content-Type", "application/x-www-form-urlencoded")
    urllib.request.urlopen(pay, timeout=30).read()
    status, bookings = server.request("GET", "/events/api/user/bookings", token=token)
    assert status == 200
    return bookings[0]


def operator(browser, server, path):
    browser.get(server.url("/ops/sign-in?next=" + urllib.parse.quote(path, safe="")))
    navigating(browser, lambda: wait_for(browser, "#token").send_keys(ADMIN_TOKEN + Keys.ENTER))


def seat(browser, seat_id):
    return browser.find_element(By.CSS_SELECTOR, f'circle[data-seat-id="{seat_id}"]')


def test_choosing_seats_on_the_map_by_click_and_keyboard_paying_and_seeing_the_tickets_qr_codes(server, browser):
    events_buyer(server, browser, "anna", "/events/shows/shw_demo_2")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Swan Lake"
    first = seat(browser, "stalls-A1")
    assert first.get_attribute("aria-label").startswith("Row A, seat 1, Stalls, CHF ")
    assert first.get_attribute("role") == "checkbox"
    assert not browser.find_element(By.ID, "seat-list").get_attribute("open")  # the map replaces the list
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "events-show")

    # One seat by keyboard: Tab to the map (its one seat in the Tab order), arrow right, Enter.
    tab_to(browser, 'circle[data-seat-id="stalls-A1"]')
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert browser.switch_to.active_element.get_attribute("data-seat-id") == "stalls-A2"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    assert seat(browser, "stalls-A2").get_attribute("aria-checked") == "true"
    # Two seats by clicking.
    seat(browser, "circle-M7").click()
    seat(browser, "circle-M8").click()
    assert seat(browser, "circle-M8").get_attribute("aria-checked") == "true"
    chosen = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#selection-list li")]
    assert len(chosen) == 3 and chosen[0].startswith("Row A, seat 2, Stalls")
    status = browser.find_element(By.ID, "selection-status").text
    assert status.startswith("3 seats chosen, total CHF ")
    assert browser.find_element(By.ID, "selection-total").text in status
    screenshots(browser, "events-show-chosen")

    heading = navigating(browser, browser.find_element(By.CSS_SELECTOR, "#seat-form button[type=submit]").click)
    assert heading.text == "Your seats are held"
    countdown = browser.find_element(By.CSS_SELECTOR, "[data-countdown-until]")
    assert re.fullmatch(r"1[45]:\d\d", countdown.text)
    assert len(browser.find_elements(By.CSS_SELECTOR, "ul.seats li")) == 3
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "events-order-held")

    navigating(browser, browser.find_element(By.CSS_SELECTOR, "a.pay").click)
    assert navigating(browser, wait_for(browser, "button.pay").click).text == "Your tickets"
    images = browser.find_elements(By.CSS_SELECTOR, "img.qr")
    assert len(images) == 3
    for image in images:
        assert image.get_attribute("alt").startswith("QR code of the ticket for Row ")
        assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image)
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "events-order-paid")

    browser.get(server.url("/events/tickets"))
    assert len(browser.find_elements(By.CSS_SELECTOR, "img.qr")) == 3
    assert_accessible(browser)
    screenshots(browser, "events-tickets")


def test_the_seat_map_follows_seats_someone_else_takes(server, browser):
    events_buyer(server, browser, "ben", "/events/shows/shw_demo_4")
    seat(browser, "gallery-R9").click()
    assert seat(browser, "gallery-R9").get_attribute("aria-checked") == "true"
    api_paid_booking(server, "shw_demo_4", ["gallery-R9"])
    deadline = time.time() + 15
    while seat(browser, "gallery-R9").get_attribute("data-status") == "available" and time.time() < deadline:
        time.sleep(0.5)
    taken = seat(browser, "gallery-R9")
    assert taken.get_attribute("aria-label").endswith(", sold")
    assert taken.get_attribute("aria-checked") == "false"
    assert "was just taken by someone else" in browser.find_element(By.ID, "selection-status").text
    assert_no_console_errors(browser)


def test_checking_a_ticket_in_on_the_scanner_with_a_typed_code_and_the_counts(server, browser):
    booking = api_paid_booking(server, "shw_demo_3", ["circle-L5", "circle-L6"])
    operator(browser, server, "/ops/scanner")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Door scanner"
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "events-scanner")
    field = browser.find_element(By.ID, "code")
    assert browser.switch_to.active_element == field  # ready for the next ticket
    navigating(browser, lambda: field.send_keys(booking["qrCode"] + Keys.ENTER))
    answer = wait_for(browser, "#scan-answer")
    assert answer.get_attribute("role") == "status"
    assert answer.text.startswith("Admitted: Circle L5, Circle L6 (door-")
    screenshots(browser, "events-scanner-admitted")
    navigating(browser, lambda: browser.find_element(By.ID, "code").send_keys(booking["qrCode"] + Keys.ENTER))
    answer = wait_for(browser, "#scan-answer")
    assert answer.get_attribute("role") == "alert"
    assert answer.text.startswith("Already checked in: Circle L5, Circle L6 was admitted at")
    assert_accessible(browser)
    screenshots(browser, "events-scanner-refused")

    browser.get(server.url("/ops/events"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Sales and check-ins"
    jazz = [card for card in browser.find_elements(By.CSS_SELECTOR, ".sales-show") if "Jazz Night" in card.text][0]
    assert int(jazz.find_element(By.CSS_SELECTOR, ".checked-in-count").text) >= 2
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "events-sales")


def test_every_events_page_works_without_javascript(server, browser_nojs):
    driver = browser_nojs
    driver.get(server.url("/events?q=jazz"))
    cards = driver.find_elements(By.CSS_SELECTOR, ".show-card")
    assert len(cards) == 1 and "Jazz Night" in cards[0].text
    assert_accessible(driver)
    screenshots(driver, "events-list-nojs")

    events_buyer(server, driver, "cleo", "/events/shows/shw_demo_5")
    # Without the script the map stays a picture and the list of free seats is the way to choose.
    assert driver.find_element(By.ID, "seat-list").get_attribute("open")
    assert driver.find_element(By.ID, "selection").get_attribute("hidden")
    driver.find_element(By.CSS_SELECTOR, 'input[name=seat][value="stalls-F3"]').click()
    driver.find_element(By.CSS_SELECTOR, 'input[name=seat][value="stalls-F4"]').click()
    assert_accessible(driver)
    screenshots(driver, "events-show-nojs")
    heading = navigating(driver, driver.find_element(By.CSS_SELECTOR, "#seat-form button[type=submit]").click)
    assert heading.text == "Your seats are held"
    assert len(driver.find_elements(By.CSS_SELECTOR, "ul.seats li")) == 2
    screenshots(driver, "events-order-held-nojs")
    navigating(driver, driver.find_element(By.CSS_SELECTOR, "a.pay").click)
    assert navigating(driver, wait_for(driver, "button.pay").click).text == "Your tickets"
    assert len(driver.find_elements(By.CSS_SELECTOR, "img.qr")) == 2
    assert_accessible(driver)
    screenshots(driver, "events-order-paid-nojs")

    # Best available, then releasing the hold from the tickets page.
    driver.get(server.url("/events/shows/shw_demo_5"))
    driver.find_element(By.ID, "quantity").send_keys("3")
    heading = navigating(driver, driver.find_element(By.CSS_SELECTOR, ".best button[type=submit]").click)
    assert heading.text == "Your seats are held"
    assert len(driver.find_elements(By.CSS_SELECTOR, "ul.seats li")) == 3
    driver.get(server.url("/events/tickets"))
    assert len(driver.find_elements(By.CSS_SELECTOR, "img.qr")) == 2
    assert_accessible(driver)
    screenshots(driver, "events-tickets-nojs")
    buttons = driver.find_elements(By.CSS_SELECTOR, ".booking-actions button.danger")
    assert len(buttons) == 2
    navigating(driver, buttons[-1].click)
    assert "The booking is cancelled." in wait_for(driver, ".notice").text

    driver.get(server.url("/events/verify-email"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Confirm your email address"
    assert_accessible(driver)
    screenshots(driver, "events-verify-email-nojs")
    driver.get(server.url("/events/reset-password"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Choose a new password"
    assert_accessible(driver)
    screenshots(driver, "events-reset-password-nojs")

    operator(driver, server, "/ops/scanner")
    Select(driver.find_element(By.ID, "show")).select_by_index(1)  # a typed code needs the door's show
    navigating(driver, lambda: driver.find_element(By.ID, "code").send_keys("not-a-ticket" + Keys.ENTER))
    assert wait_for(driver, "#scan-answer").text.startswith("Invalid: this code is not a valid ticket.")
    assert_accessible(driver)
    screenshots(driver, "events-scanner-nojs")
    driver.get(server.url("/ops/events"))
    assert len(driver.find_elements(By.CSS_SELECTOR, "svg.sales-chart")) >= 5
    assert_accessible(driver)
    screenshots(driver, "events-sales-nojs")
