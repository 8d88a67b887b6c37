#!/usr/bin/env python3
"""Signs in through single sign-on in headless Chromium (chromium-driver, python3-selenium): opens linkd's
/v1/sso/start, fills the test provider's login form with an email address and submits it, and follows the
redirects back through linkd's callback to the console.

Usage: sso_sign_in.py START_URL EMAIL
Prints `landed <url>` and `cookie <name> <httpOnly> <sameSite> <value>` for each cookie of linkd's origin; exits 0
when the browser landed on /console/ with an HttpOnly session cookie, 1 with one line per failure otherwise
(Tests/LinkServiceTests/BrowserSSOTests.swift).
"""
import shutil
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def main():
    start, email = sys.argv[1], sys.argv[2]
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=800,600"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    failures = []
    try:
        driver.get(start)
        WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.ID, "email"))
        driver.find_element(By.ID, "email").send_keys(email)
        driver.find_element(By.ID, "sign-in").click()
        WebDriverWait(driver, 60).until(lambda d: "/console/" in d.current_url or "/v1/sso/callback" in d.current_url)
        print("landed " + driver.current_url, flush=True)
        if not driver.current_url.endswith("/console/"):
            failures.append("the browser ended at %s: %s" % (driver.current_url, driver.find_element(By.TAG_NAME, "body").text[:500]))
        cookies = driver.get_cookies()
        for cookie in cookies:
            print("cookie %s %s %s %s" % (cookie["name"], cookie.get("httpOnly"), cookie.get("sameSite"), cookie["value"]), flush=True)
        session = [c for c in cookies if c["name"] == "linkd_session"]
        if not session:
            failures.append("no linkd_session cookie")
        elif not session[0].get("httpOnly") or session[0].get("sameSite") != "Lax":
            failures.append("the session cookie is not HttpOnly and SameSite=Lax: %r" % session[0])
    finally:
        driver.quit()
    for failure in failures:
        print(failure, flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
