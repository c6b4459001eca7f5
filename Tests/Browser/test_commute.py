"""The commute pages in a real browser: a visitor is offered sign-in; a signed-in person adds a
trip by searching its places and reads its next leave time with the reasons, edits it (a bad
time is said next to its field) and deletes it; every page once with JavaScript off; German.

The dev server plans with the route estimator, unknown weather and Swiss holidays, so the leave
time depends on the wall clock: the tests check that it is a time and that the reasons are there.
"""

import re
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import assert_accessible, assert_no_console_errors, screenshots, tab_to, wait_for

ZURICH = "gz_geo_2657896"
WINTERTHUR = "gz_geo_2657970"
TRIP = {
    "name": "Office",
    "origin": {"latitude": 47.3779, "longitude": 8.5403, "label": "Zürich HB"},
    "destination": {"placeId": WINTERTHUR},
    "arrivalTime": "08:30",
    "timeZone": "Europe/Zurich",
    "repeatDays": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
}


def sign_in(server, driver):
    """A new account through the sign-up API (202 "check your mail", no session) and its
    sign-in; the token is the page session's cookie."""
    email = f"commuter-{uuid.uuid4().hex[:10]}@example.com"
    password = "correct horse battery staple"
    status, body = server.request(
        "POST", "/account/sign-up", {"email": email, "password": password, "name": "Commuter"})
    assert status == 202, body
    status, body = server.request("POST", "/account/sign-in", {"login": email, "password": password})
    assert status == 200, body
    token = body["accessToken"]
    driver.get(server.url("/commute"))
    driver.add_cookie({"name": "concierge_session", "value": token, "path": "/", "httpOnly": True})
    return token


def assert_leave_time_with_reasons(driver):
    leave = wait_for(driver, ".commute-leave-time")
    assert re.fullmatch(r"\d\d:\d\d", leave.text), leave.text
    reasons = [li.text for li in driver.find_elements(By.CSS_SELECTOR, ".commute-reasons li")]
    text = " ".join(reasons)
    for reason in ("The drive takes about", "traffic at that", "The weather is unknown", "Your buffer adds",
                   "Chance of arriving on time"):
        assert reason in text or reason in text.lower(), reasons


def test_commute_offers_a_signed_out_visitor_to_sign_in(server, browser):
    browser.get(server.url("/commute"))
    link = browser.find_element(By.CSS_SELECTOR, "a.button.primary")
    assert link.get_attribute("href").endswith("/account/sign-in?next=%2Fcommute")
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "commute-welcome")
    browser.get(server.url("/commute/my-trips/new"))
    assert "/account/sign-in?next=%2Fcommute%2Fmy-trips%2Fnew" in browser.current_url


def test_commute_adding_a_trip_and_reading_its_leave_time(server, browser):
    sign_in(server, browser)
    browser.get(server.url("/commute"))
    assert "You have no trips yet" in browser.page_source
    browser.find_element(By.LINK_TEXT, "Add a trip").click()
    wait_for(browser, "#name").send_keys("Office")
    # Typing searches as you go; the places appear as radio choices.
    browser.find_element(By.ID, "origin-query").send_keys("Zürich")
    wait_for(browser, f'#origin-choices input[value="{ZURICH}"]').click()
    browser.find_element(By.ID, "destination-query").send_keys("Winterthur")
    wait_for(browser, f'#destination-choices input[value="{WINTERTHUR}"]').click()
    browser.find_element(By.ID, "arrival_time").send_keys("08:30")
    browser.find_element(By.ID, "day-sat").click()
    browser.find_element(By.ID, "day-sun").click()
    assert_accessible(browser)
    screenshots(browser, "commute-new")
    browser.find_element(By.CSS_SELECTOR, ".commute-more summary").click()
    screenshots(browser, "commute-new-settings", scroll_to="#arrival_time")
    # The save button is reached and pressed by keyboard alone.
    tab_to(browser, "[data-commute-save]").send_keys(Keys.ENTER)
    notice = wait_for(browser, ".notice[role=status]")
    assert "Your trip is saved" in notice.text
    assert "Zürich → Winterthur" in browser.find_element(By.CSS_SELECTOR, ".commute-route").text
    assert_leave_time_with_reasons(browser)
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "commute-trips")


def test_commute_editing_and_deleting_a_trip(server, browser):
    token = sign_in(server, browser)
    status, trip = server.request("POST", "/commute/trips", TRIP, token=token)
    assert status == 201, trip
    browser.get(server.url("/commute"))
    assert_leave_time_with_reasons(browser)
    browser.find_element(By.CSS_SELECTOR, f'a[href="/commute/my-trips/{trip["id"]}/edit"]').click()
    name = wait_for(browser, "#name")
    assert name.get_attribute("value") == "Office"
    assert browser.find_element(By.ID, "origin-keep").is_selected()
    # A time that does not exist is said next to its field, which gets the focus.
    arrival = browser.find_element(By.ID, "arrival_time")
    arrival.clear()
    arrival.send_keys("25:00")
    browser.find_element(By.CSS_SELECTOR, "[data-commute-save]").click()
    error = wait_for(browser, "#arrival_time-error")
    assert "HH:MM" in error.text and error.get_attribute("role") == "alert"
    assert browser.switch_to.active_element.get_attribute("id") == "arrival_time"
    assert browser.find_element(By.ID, "arrival_time").get_attribute("value") == "25:00"
    assert_accessible(browser)
    # The refused form answers 400, which Chromium logs; anything else logged is a fault.
    assert_no_console_errors(browser, allow=("status of 400",))
    screenshots(browser, "commute-edit-error")
    arrival = browser.find_element(By.ID, "arrival_time")
    arrival.clear()
    arrival.send_keys("09:15")
    name = browser.find_element(By.ID, "name")
    name.clear()
    name.send_keys("Office late")
    screenshots(browser, "commute-edit")
    browser.find_element(By.CSS_SELECTOR, "[data-commute-save]").click()
    wait_for(browser, ".notice[role=status]")
    card = browser.find_element(By.ID, f'trip-{trip["id"]}')
    assert "Office late" in card.text and "Arrive by 09:15" in card.text
    assert_leave_time_with_reasons(browser)

    card.find_element(By.CSS_SELECTOR, 'a[href$="/delete"]').click()
    assert wait_for(browser, "h1").text == "Delete this trip?"
    assert_accessible(browser)
    screenshots(browser, "commute-delete")
    browser.find_element(By.CSS_SELECTOR, "button.danger").click()
    assert "The trip is deleted." in wait_for(browser, ".notice[role=status]").text
    status, listing = server.request("GET", "/commute/trips", token=token)
    assert status == 200 and listing["trips"] == []
    assert_no_console_errors(browser)


def test_commute_every_page_works_without_javascript(server, browser_nojs):
    driver = browser_nojs
    driver.get(server.url("/commute"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Commute"
    screenshots(driver, "commute-welcome-nojs")
    sign_in(server, driver)
    driver.get(server.url("/commute"))
    screenshots(driver, "commute-empty-nojs")
    driver.find_element(By.LINK_TEXT, "Add a trip").click()
    driver.find_element(By.ID, "name").send_keys("Gym")
    # "Find places" posts the form and shows the places as radio choices, keeping the input.
    driver.find_element(By.ID, "origin-query").send_keys("Zürich")
    driver.find_element(By.CSS_SELECTOR, 'button[name=find][value=origin]').click()
    wait_for(driver, f'#origin-choices input[value="{ZURICH}"]').click()
    assert driver.find_element(By.ID, "name").get_attribute("value") == "Gym"
    driver.find_element(By.ID, "destination-query").send_keys("Winterthur")
    driver.find_element(By.CSS_SELECTOR, 'button[name=find][value=destination]').click()
    wait_for(driver, f'#destination-choices input[value="{WINTERTHUR}"]').click()
    assert driver.find_element(By.CSS_SELECTOR, f'#origin-choices input[value="{ZURICH}"]').is_selected()
    for day in ("sat", "sun"):
        driver.find_element(By.ID, f"day-{day}").click()
    driver.find_element(By.ID, "arrival_time").send_keys("18:00")
    assert_accessible(driver)
    screenshots(driver, "commute-new-nojs")
    driver.find_element(By.CSS_SELECTOR, "[data-commute-save]").click()
    assert_leave_time_with_reasons(driver)
    assert_accessible(driver)
    screenshots(driver, "commute-trips-nojs")

    driver.find_element(By.CSS_SELECTOR, 'a[href$="/edit"]').click()
    name = driver.find_element(By.ID, "name")
    name.clear()
    name.send_keys("Gym late")
    arrival = driver.find_element(By.ID, "arrival_time")
    arrival.clear()
    arrival.send_keys("19:30")
    screenshots(driver, "commute-edit-nojs")
    driver.find_element(By.CSS_SELECTOR, "[data-commute-save]").click()
    card = wait_for(driver, ".commute-trip")
    assert "Gym late" in card.text and "Arrive by 19:30" in card.text

    driver.find_element(By.CSS_SELECTOR, 'a[href$="/delete"]').click()
    assert_accessible(driver)
    screenshots(driver, "commute-delete-nojs")
    driver.find_element(By.CSS_SELECTOR, "button.danger").click()
    assert "The trip is deleted." in wait_for(driver, ".notice").text


def test_commute_speaks_german(server, browser):
    token = sign_in(server, browser)
    status, trip = server.request("POST", "/commute/trips", TRIP, token=token)
    assert status == 201, trip
    browser.get(server.url("/commute?lang=de"))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    assert wait_for(browser, ".commute-leave-label").text == "Losfahren um"
    reasons = browser.find_element(By.CSS_SELECTOR, ".commute-reasons").text
    assert "Die Fahrt dauert etwa" in reasons and "Chance, pünktlich anzukommen" in reasons
    assert_no_console_errors(browser)
    screenshots(browser, "commute-trips-de")
    browser.find_element(By.LINK_TEXT, "Fahrt hinzufügen").click()
    WebDriverWait(browser, 10).until(lambda d: "Ort suchen" in d.page_source)
    screenshots(browser, "commute-new-de")
    browser.get(server.url("/commute?lang=en"))
