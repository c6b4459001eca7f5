"""Rides in a real browser: signing in by the code texted to the dev outbox, places picked from
the autocomplete listbox by keyboard, the date, a class, paying on the sandbox checkout, the
confirmation, my trips and cancelling; dispatching a booked ride on /ops/rides; and every rides
page once without JavaScript."""

import datetime
import re
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import ADMIN_TOKEN, assert_accessible, assert_no_console_errors, screenshots, tab_to, wait_for


def forget_expected_failures(driver):
    """A page that answers 400 or 409 on purpose logs its status; only that may be in the log."""
    unexpected = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                  and "favicon.ico" not in entry["message"]
                  and not re.search(r"status of 4(00|09)", entry["message"])]
    assert unexpected == [], unexpected


def page_is_fine(driver, name=None, scroll_to=None):
    assert_accessible(driver)
    assert_no_console_errors(driver)
    if name:
        screenshots(driver, name, scroll_to=scroll_to)


def sign_in(driver, server, phone, shots=False, javascript=True):
    """Phone, then a wrong code (said next to its field), then the code from the dev outbox."""
    driver.get(server.url("/rides"))
    field = wait_for(driver, "#phone")
    if shots:
        page_is_fine(driver, "rides-sign-in")
    field.send_keys(phone + Keys.ENTER)
    code = wait_for(driver, "#code")
    if shots:
        page_is_fine(driver, "rides-code")
    code.send_keys("000000" + Keys.ENTER)
    error = wait_for(driver, "#code-error")
    assert error.get_attribute("role") == "alert" and "not right" in error.text
    forget_expected_failures(driver)
    if javascript:
        assert driver.switch_to.active_element.get_attribute("id") == "code"  # focus moved to the field
    texted = server.latest_sms_code(re.sub(r"\D", "", phone))
    driver.find_element(By.ID, "code").send_keys(texted + Keys.ENTER)
    assert wait_for(driver, "h1").text == "Book a ride"


def pick_place(driver, field_id, typed, expected):
    """Types into a place field and picks the first suggestion with the keyboard alone."""
    field = driver.find_element(By.ID, field_id)
    field.clear()
    field.send_keys(typed)
    wait_for(driver, f"#{field_id}-listbox [role=option]")
    assert field.get_attribute("aria-expanded") == "true"
    field.send_keys(Keys.ARROW_DOWN)
    assert field.get_attribute("aria-activedescendant") == f"{field_id}-option-0"
    field.send_keys(Keys.ENTER)
    assert expected in field.get_attribute("value")
    assert field.get_attribute("aria-expanded") == "false"
    return driver.find_element(By.CSS_SELECTOR, f"input[type=hidden][name={field_id}Id]").get_attribute("value")


def pickup_day(days_ahead=4):
    return (datetime.datetime.now(ZoneInfo("Europe/Zurich")) + datetime.timedelta(days=days_ahead)).date()


def book_and_pay(driver, server, shots=False):
    """From the booking form to the confirmation page; returns the booking's reference."""
    assert pick_place(driver, "pickup", "ZRH", "Zurich Airport") == "gz_iata_ZRH"
    assert pick_place(driver, "destination", "Bern", "Bern") == "gz_geo_2661552"
    day = pickup_day()
    driver.execute_script("arguments[0].value = arguments[1]", driver.find_element(By.ID, "date"), day.isoformat())
    driver.execute_script("arguments[0].value = '10:30'", driver.find_element(By.ID, "time"))
    Select(driver.find_element(By.ID, "passengers")).select_by_value("2")
    driver.find_element(By.ID, "flight").send_keys("lx 318")
    if shots:
        page_is_fine(driver, "rides-book")
    driver.find_element(By.CSS_SELECTOR, "#ride-form button[type=submit]").click()
    wait_for(driver, "#quote-heading")
    prices = [el.text for el in driver.find_elements(By.CSS_SELECTOR, ".class-price")]
    assert len(prices) == 3 and all(price.startswith("CHF ") for price in prices)
    assert "10:30" in driver.find_element(By.CSS_SELECTOR, ".quote .note").text
    if shots:
        page_is_fine(driver, "rides-quote", scroll_to="#quote")
    # By keyboard alone: Tab into the class group, the arrow picks First, Tab to Book, Enter.
    tab_to(driver, "#class-business").send_keys(Keys.ARROW_DOWN)
    assert driver.find_element(By.ID, "class-first").is_selected()
    tab_to(driver, "#book").send_keys(Keys.ENTER)
    pay = wait_for(driver, "button.pay")
    assert "/sandbox/checkout/" in driver.current_url
    if shots:
        screenshots(driver, "rides-sandbox-checkout")
    pay.click()
    WebDriverWait(driver, 15).until(lambda d: "/rides/trips/" in d.current_url)
    heading = wait_for(driver, "h1")
    assert heading.text == "Your ride is booked", driver.page_source[:2000]
    assert re.search(r"/rides/trips/VRM-\d+\?t=", driver.current_url)
    assert driver.find_element(By.ID, "status").text == "Confirmed"
    assert "LX318" in driver.page_source
    if shots:
        page_is_fine(driver, "rides-confirmation")
    return driver.find_element(By.ID, "reference").text


def test_a_customer_books_a_ride_pays_on_the_sandbox_and_cancels_it(server, browser):
    sign_in(browser, server, "+41 79 777 00 01", shots=True)
    reference = book_and_pay(browser, server, shots=True)
    browser.find_element(By.LINK_TEXT, "My trips").click()
    card = wait_for(browser, f".trip[data-reference='{reference}']")
    assert "Confirmed" in card.text and "CHF" in card.text
    page_is_fine(browser, "rides-trips")
    card.find_element(By.CSS_SELECTOR, "button.danger").click()
    WebDriverWait(browser, 15).until(lambda d: d.current_url.endswith("?cancelled=1"))
    assert wait_for(browser, "h1").text == "Ride cancelled"
    assert "The ride is cancelled" in browser.find_element(By.CSS_SELECTOR, ".notice[role=status]").text
    page_is_fine(browser, "rides-cancelled")
    # The confirmation email went out through the outbox when the payment arrived.
    WebDriverWait(browser, 15).until(
        lambda _: any(reference in (m.get("body") or "") for m in server.outbox() if m.get("channel") in ("sms", "email")))


def test_a_pickup_too_soon_is_said_next_to_the_date_and_the_form_keeps_what_was_typed(server, browser):
    sign_in(browser, server, "+41 79 777 00 02")
    pick_place(browser, "pickup", "Geneva", "Geneva")
    pick_place(browser, "destination", "Lausanne", "Lausanne")
    # The earliest day the date field allows, at a time before the 48 hours are up.
    soon = pickup_day(2).isoformat()
    browser.execute_script("arguments[0].value = arguments[1]", browser.find_element(By.ID, "date"), soon)
    browser.execute_script("arguments[0].value = '00:05'", browser.find_element(By.ID, "time"))
    browser.find_element(By.ID, "flight").send_keys("lx 12")
    browser.find_element(By.CSS_SELECTOR, "#ride-form button[type=submit]").click()
    error = wait_for(browser, "#date-error")
    assert error.get_attribute("role") == "alert" and "48 hours ahead" in error.text
    date = browser.find_element(By.ID, "date")
    assert date.get_attribute("aria-invalid") == "true" and date.get_attribute("value") == soon
    assert browser.switch_to.active_element.get_attribute("id") == "date"
    assert "Geneva" in browser.find_element(By.ID, "pickup").get_attribute("value")
    assert browser.find_element(By.ID, "flight").get_attribute("value") == "lx 12"
    forget_expected_failures(browser)
    page_is_fine(browser, "rides-too-soon")


def test_an_operator_dispatches_a_booked_ride_on_ops_rides(server, browser):
    sign_in(browser, server, "+41 79 777 00 03")
    reference = book_and_pay(browser, server)
    browser.get(server.url("/ops/rides"))
    wait_for(browser, "#token").send_keys(ADMIN_TOKEN + Keys.ENTER)
    assert wait_for(browser, "h1").text == "Ride dispatch"
    page_is_fine(browser, "ops-rides")
    browser.find_element(By.LINK_TEXT, reference).click()
    wait_for(browser, "#assign")
    for name, value in (("name", "Marco Rossi"), ("phone", "+41791112233"), ("vehicle", "Mercedes S-Class"),
                        ("plate", "ZH 123456")):
        browser.find_element(By.ID, f"driver_{name}").send_keys(value)
    browser.find_element(By.CSS_SELECTOR, "#assign button[type=submit]").click()
    assert "Driver assigned" in wait_for(browser, ".notice[role=status]").text
    assert browser.find_element(By.ID, "status").text == "Driver assigned"
    page_is_fine(browser, "ops-rides-ride")
    browser.find_element(By.XPATH, "//button[normalize-space()='Driver on the way']").click()
    WebDriverWait(browser, 15).until(lambda d: d.current_url.endswith("?moved=en_route"))
    assert wait_for(browser, "#status").text == "Driver on the way"
    browser.get(server.url(f"/rides/trips/{reference}"))
    assert "Marco Rossi" in wait_for(browser, ".trip-facts").text
    assert browser.find_element(By.ID, "status").text == "Driver on the way"


def test_every_rides_page_works_without_javascript(server, browser_nojs):
    driver = browser_nojs
    sign_in(driver, server, "+41 79 777 00 04", javascript=False)
    page_is_fine(driver, "rides-book-nojs")
    # Without the listbox the typed text is searched and the matches come back as radio buttons.
    driver.find_element(By.ID, "pickup").send_keys("zurich airport")
    driver.find_element(By.ID, "destination").send_keys("bern")
    driver.find_element(By.CSS_SELECTOR, "#ride-form button[type=submit]").click()
    wait_for(driver, "#pickup-pick-0")
    assert driver.find_element(By.ID, "pickup-pick-0").is_selected()
    page_is_fine(driver, "rides-matches-nojs")
    driver.find_element(By.CSS_SELECTOR, "label[for=destination-pick-0]").click()
    driver.find_element(By.CSS_SELECTOR, "#ride-form button[type=submit]").click()
    wait_for(driver, "#quote-heading")
    assert len(driver.find_elements(By.CSS_SELECTOR, ".class-price")) == 3
    page_is_fine(driver, "rides-quote-nojs", scroll_to="#quote")
    driver.find_element(By.ID, "book").click()
    wait_for(driver, "button.pay").click()
    WebDriverWait(driver, 15).until(lambda d: "/rides/trips/" in d.current_url)
    assert wait_for(driver, "h1").text == "Your ride is booked"
    reference = driver.find_element(By.ID, "reference").text
    page_is_fine(driver, "rides-confirmation-nojs")
    driver.get(server.url("/rides/trips"))
    wait_for(driver, f".trip[data-reference='{reference}']")
    page_is_fine(driver, "rides-trips-nojs")
    driver.find_element(By.CSS_SELECTOR, f".trip[data-reference='{reference}'] button.danger").click()
    WebDriverWait(driver, 15).until(lambda d: d.current_url.endswith("?cancelled=1"))
    assert wait_for(driver, "h1").text == "Ride cancelled"
    driver.get(server.url("/ops/rides"))
    wait_for(driver, "#token").send_keys(ADMIN_TOKEN + Keys.ENTER)
    assert wait_for(driver, "h1").text == "Ride dispatch"
    page_is_fine(driver, "ops-rides-nojs")
    driver.find_element(By.LINK_TEXT, reference).click()
    assert wait_for(driver, "#status").text == "Cancelled"
    page_is_fine(driver, "ops-rides-ride-nojs")
    driver.get(server.url("/rides"))
    driver.find_element(By.CSS_SELECTOR, ".rides-sign-out button").click()
    assert wait_for(driver, ".notice[role=status]").text == "You are signed out."
    page_is_fine(driver)
