"""The account pages in a real browser: sign up, confirm the email from the dev outbox's link,
sign out and in, Continue with Google through the dev identity provider, the account page,
sign out everywhere and deletion; the operator's orders page and cancelling an order there for its
customer with its refund; every account page once with
JavaScript off. Screenshots of each page at 390x844 and 1280x800."""

import re
import urllib.error
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ADMIN_TOKEN, assert_accessible, assert_no_console_errors, screenshots, tab_to, wait_for

PASSWORD = "correct horse battery"


def fresh_email(name):
    return f"{name}-{uuid.uuid4().hex[:8]}@example.ch"


def sign_up(browser, server, email, password=PASSWORD, name="Anna Muster"):
    """Signs up on the web, which leads to the sign-in page saying "Check your mail" (the same
    page whether the address was free or taken), then signs in there with the same password."""
    browser.get(server.url("/account/sign-up"))
    wait_for(browser, "#email").send_keys(email)
    browser.find_element(By.ID, "name").send_keys(name)
    browser.find_element(By.ID, "password").send_keys(password + Keys.ENTER)
    wait_text(browser, ".notice", "Check your mail")
    assert session_cookie(browser) is None
    browser.find_element(By.ID, "login").send_keys(email)
    browser.find_element(By.ID, "password").send_keys(password + Keys.ENTER)
    wait_text(browser, "main h1", "Your account")


def sign_up_by_api(server, email, password=PASSWORD, name=None):
    """The API's sign-up (202, "check your mail", no session), then its sign-in: the app's token."""
    body = {"email": email, "password": password}
    if name:
        body["name"] = name
    status, answer = server.request("POST", "/account/sign-up", body)
    assert status == 202 and answer["status"] == "check_your_mail", answer
    status, signed_in = server.request("POST", "/account/sign-in", {"login": email, "password": password})
    assert status == 200, signed_in
    return signed_in["accessToken"]


def sign_in(browser, server, login, password=PASSWORD):
    browser.get(server.url("/account/sign-in"))
    wait_for(browser, "#login").send_keys(login)
    browser.find_element(By.ID, "password").send_keys(password + Keys.ENTER)
    wait_text(browser, "main h1", "Your account")


def wait_text(browser, css, text, timeout=15):
    """Waits until the element matching `css` shows `text` (the next page has loaded)."""
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(browser, timeout).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))
    return browser.find_element(By.CSS_SELECTOR, css)


def session_cookie(browser):
    return browser.get_cookie("concierge_session")


def test_sign_up_with_field_messages_then_verify_the_email_from_the_outbox(server, browser):
    email = fresh_email("anna")
    browser.get(server.url("/account/sign-up"))
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "account-sign-up")
    wait_for(browser, "#email").send_keys("not-an-email")
    browser.find_element(By.ID, "password").send_keys("short" + Keys.ENTER)
    error = wait_for(browser, "#email-error")
    assert error.get_attribute("role") == "alert"
    assert browser.switch_to.active_element.get_attribute("id") == "email"  # focus on the field to fix
    screenshots(browser, "account-sign-up-errors")
    field = browser.find_element(By.ID, "email")
    field.clear()
    field.send_keys(email)
    browser.find_element(By.ID, "password").send_keys(PASSWORD + Keys.ENTER)
    # No session yet: the sign-in page says "check your mail", and signing in there opens one.
    wait_text(browser, ".notice", "Check your mail")
    assert session_cookie(browser) is None
    assert_accessible(browser)
    screenshots(browser, "account-sign-up-check-mail")
    browser.find_element(By.ID, "login").send_keys(email)
    browser.find_element(By.ID, "password").send_keys(PASSWORD + Keys.ENTER)
    wait_text(browser, "main h1", "Your account")
    cookie = session_cookie(browser)
    assert cookie and cookie["httpOnly"] and cookie.get("sameSite") == "Lax"

    # Opened in the browser that is signed in to the account: the one who signed up holds the
    # mailbox, and nothing made at sign-up is removed.
    link = server.latest_email_link(email, "/account/verify-email")
    browser.get(link)
    assert_accessible(browser)
    screenshots(browser, "account-verify-email")
    browser.find_element(By.CSS_SELECTOR, "form[action='/account/web/verify-email'] button").click()
    wait_text(browser, ".notice", "confirmed")
    assert browser.find_element(By.CSS_SELECTOR, ".account-badge.ok").text == "verified"


def test_sign_out_and_sign_in_again_with_a_wrong_password_said_next_to_the_field(server, browser):
    email = fresh_email("ben")
    sign_up(browser, server, email)
    browser.find_element(By.CSS_SELECTOR, "form[action='/account/web/sign-out'] button").click()
    wait_for(browser, "#login")
    assert "You are signed out" in browser.find_element(By.CSS_SELECTOR, ".notice").text
    assert session_cookie(browser) is None
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "account-sign-in")

    browser.find_element(By.ID, "login").send_keys(email)
    browser.find_element(By.ID, "password").send_keys("not the password" + Keys.ENTER)
    error = wait_for(browser, "#password-error")
    assert "not right" in error.text
    assert browser.switch_to.active_element.get_attribute("id") == "password"
    screenshots(browser, "account-sign-in-wrong-password")
    browser.find_element(By.ID, "password").send_keys(PASSWORD + Keys.ENTER)
    wait_text(browser, "main h1", "Your account")
    assert email in browser.find_element(By.CSS_SELECTOR, ".account-methods").text


def test_continue_with_google_in_dev_joins_the_account_with_the_verified_email(server, browser):
    email = fresh_email("carla")
    sign_up(browser, server, email)
    browser.get(server.latest_email_link(email, "/account/verify-email"))
    browser.find_element(By.CSS_SELECTOR, "form[action='/account/web/verify-email'] button").click()
    wait_for(browser, ".notice")
    browser.find_element(By.CSS_SELECTOR, "form[action='/account/web/sign-out'] button").click()
    wait_for(browser, "#login")

    browser.find_element(By.LINK_TEXT, "Continue with Google").click()
    wait_text(browser, "main h1", "Continue with Google (dev)")
    assert_accessible(browser)
    screenshots(browser, "account-google-dev")
    browser.find_element(By.ID, "email").send_keys(email + Keys.ENTER)
    wait_text(browser, "main h1", "Your account")
    kinds = [li.get_attribute("data-kind") for li in browser.find_elements(By.CSS_SELECTOR, ".account-method")]
    assert "oidc" in kinds and "email" in kinds  # one account: the password's and Google's
    assert "Google" in browser.find_element(By.CSS_SELECTOR, ".account-methods").text


def test_the_account_page_and_sign_out_everywhere(server, browser):
    email = fresh_email("dora")
    app_token = sign_up_by_api(server, email, name="Dora")
    sign_in(browser, server, email)
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "account-page")
    # The API's answer for apps is unchanged.
    status, json_body = server.request("GET", "/account", token=app_token, headers={"Accept": "application/json"})
    assert status == 200 and json_body["account"]["name"] == "Dora"

    browser.find_element(By.CSS_SELECTOR, "form[action='/account/web/sign-out-everywhere'] button").click()
    wait_text(browser, ".notice", "signed out everywhere")
    status, _ = server.request("GET", "/account", token=app_token, headers={"Accept": "application/json"})
    assert status == 401
    browser.get(server.url("/account"))
    assert "/account/sign-in" in browser.current_url


def test_delete_the_account_after_a_confirm_step(server, browser):
    email = fresh_email("emil")
    sign_up(browser, server, email)
    browser.find_element(By.LINK_TEXT, "Delete my account…").click()
    wait_text(browser, "main h1", "Delete your account?")
    assert_accessible(browser)
    screenshots(browser, "account-delete")
    browser.find_element(By.CSS_SELECTOR, "form[action='/account/web/delete'] button").click()
    wait_text(browser, ".notice", "Your account is deleted")
    status, _ = server.request("POST", "/account/sign-in", {"login": email, "password": PASSWORD})
    assert status == 401


def seed_orders(server):
    """A paid ride (SMS sign-in, app-book, the sandbox checkout) and a seat order (dev Google
    sign-in to events, best available seats), through the JSON APIs as the apps make them.
    Returns their references."""
    import datetime
    import urllib.parse
    import urllib.request
    phone = "+4179" + str(uuid.uuid4().int)[:7]
    server.request("POST", "/rides/sms-code-send", {"phone": phone})
    status, signed = server.request(
        "POST", "/rides/sms-code-verify", {"phone": phone, "code": server.latest_sms_code(phone[1:])})
    assert status == 200, signed
    pickup = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=4)).replace(
        minute=0, second=0, microsecond=0)
    status, ride = server.request("POST", "/rides/app-book", {
        "pickup": {"placeId": "gz_iata_ZRH", "description": "Zurich Airport"},
        "destination": {"placeId": "gz_geo_2657896", "description": "Zurich"},
        "dateTime": pickup.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "passengers": 2, "vehicleClass": "business"},
        token=signed["sessionToken"])
    assert status in (200, 201), ride
    payment = ride["checkoutUrl"].rsplit("/", 1)[1]
    request = urllib.request.Request(server.url(f"/sandbox/checkout/{payment}"), method="POST",
                                     data=urllib.parse.urlencode({"outcome": "paid"}).encode())
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as error:
        assert error.code in (303, 302), error.code
    references = [ride["quoteReference"]]

    email = fresh_email("fans")
    status, issued = server.request("GET", "/dev/id-token?" + urllib.parse.urlencode(
        {"provider": "google", "email": email, "emailVerified": "true"}))
    status, auth = server.request("POST", "/events/api/auth/social", {"provider": "google", "token": issued["idToken"]})
    assert status == 200, auth
    status, shows = server.request("GET", "/events/api/shows")
    if status == 200 and shows:
        status, checkout = server.request(
            "POST", "/events/api/seat-checkout", {"showId": shows[0]["id"], "quantity": 2}, token=auth["token"])
        assert status == 200, checkout
    return references


def test_the_operator_sees_orders_across_verticals(server, browser):
    references = seed_orders(server)
    browser.get(server.url("/ops/orders"))
    wait_for(browser, "#token").send_keys(ADMIN_TOKEN + Keys.ENTER)
    wait_text(browser, "main h1", "Orders and refunds")
    table = browser.find_element(By.CSS_SELECTOR, "table.orders").text
    assert references[0] in table and "Rides" in table and "Events" in table
    assert_accessible(browser)
    assert_no_console_errors(browser)
    screenshots(browser, "ops-orders")
    from selenium.webdriver.support.ui import Select
    Select(browser.find_element(By.ID, "vertical")).select_by_value("events")
    browser.find_element(By.CSS_SELECTOR, ".orders-filter button").click()
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(browser, 15).until(EC.url_contains("vertical=events"))
    assert "Rides" not in browser.find_element(By.CSS_SELECTOR, "table.orders").text

    # Cancelling the paid ride for its customer: the confirm page, then the refund in the ledger.
    ride = references[0]
    browser.get(server.url("/ops/orders?vertical=rides"))
    row = f'tr[data-reference="{ride}"]'
    wait_for(browser, f"{row} a.button.danger").click()
    wait_text(browser, "main h1", f"Cancel order {ride} for its customer")
    assert_accessible(browser)
    screenshots(browser, "ops-order-cancel")
    browser.find_element(By.CSS_SELECTOR, "main form[method=post] button.danger").click()
    wait_text(browser, ".notice[role=status]", f"Order {ride} is cancelled for its customer")
    cancelled = browser.find_element(By.CSS_SELECTOR, row).text
    assert "cancelled" in cancelled and "refund CHF" in cancelled, cancelled
    assert not browser.find_elements(By.CSS_SELECTOR, f"{row} a.button.danger")
    assert_no_console_errors(browser)


def test_every_account_page_works_without_javascript(server, browser_nojs):
    browser = browser_nojs
    email = fresh_email("nojs")
    pages = [("/account/sign-in", "account-sign-in-nojs"), ("/account/sign-up", "account-sign-up-nojs"),
             ("/account/forgot-password", "account-forgot-nojs")]
    for path, name in pages:
        browser.get(server.url(path))
        assert browser.find_element(By.TAG_NAME, "h1").text
        assert_accessible(browser)
        screenshots(browser, name)

    sign_up(browser, server, email)
    wait_text(browser, "main h1", "Your account")
    screenshots(browser, "account-page-nojs")
    browser.get(server.latest_email_link(email, "/account/verify-email"))
    browser.find_element(By.CSS_SELECTOR, "form[action='/account/web/verify-email'] button").click()
    wait_text(browser, ".notice", "confirmed")

    browser.get(server.url("/account/forgot-password"))
    browser.find_element(By.ID, "email").send_keys(email + Keys.ENTER)
    wait_text(browser, ".notice", "on its way")
    browser.get(server.latest_email_link(email, "/account/reset-password"))
    assert_accessible(browser)
    screenshots(browser, "account-reset-nojs")
    browser.find_element(By.ID, "password").send_keys("a brand new passphrase" + Keys.ENTER)
    wait_text(browser, ".notice", "password is changed")
    sign_in(browser, server, email, "a brand new passphrase")
    wait_text(browser, "main h1", "Your account")

    browser.find_element(By.CSS_SELECTOR, "form[action='/account/web/sign-out-everywhere'] button").click()
    wait_text(browser, ".notice", "signed out everywhere")
    browser.find_element(By.LINK_TEXT, "Continue with Google").click()
    browser.find_element(By.ID, "email").send_keys(fresh_email("gina") + Keys.ENTER)
    wait_text(browser, "main h1", "Your account")
    browser.find_element(By.LINK_TEXT, "Delete my account…").click()
    browser.find_element(By.CSS_SELECTOR, "form[action='/account/web/delete'] button").click()
    wait_text(browser, ".notice", "Your account is deleted")


def test_sign_in_by_keyboard_alone_and_in_german(server, browser):
    email = fresh_email("hans")
    sign_up_by_api(server, email)
    browser.get(server.url("/account/sign-in?lang=de"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Anmelden"
    assert browser.find_element(By.LINK_TEXT, "Weiter mit Google")
    screenshots(browser, "account-sign-in-de")
    tab_to(browser, "#login").send_keys(email)
    tab_to(browser, "#password").send_keys("falsches Passwort" + Keys.ENTER)
    assert "stimmen nicht" in wait_for(browser, "#password-error").text
    tab_to(browser, "#password").send_keys(PASSWORD + Keys.ENTER)
    wait_text(browser, "main h1", "Ihr Konto")
    screenshots(browser, "account-page-de")
