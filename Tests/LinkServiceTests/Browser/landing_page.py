#!/usr/bin/env python3
"""Opens a linkd landing page in headless Chromium (chromium-driver, python3-selenium) at 390x844 with an
iPhone User-Agent, checks that the buttons are visible and point where they should, and saves a screenshot.

Usage: landing_page.py URL HOST EXPECTED_JSON SCREENSHOT [SCREENSHOT...]
  URL            what the browser opens (http://HOST:PORT/path); HOST is mapped to 127.0.0.1
  EXPECTED_JSON  {"open": href, "get": href, "web": href}
Exits 0 when every check passes, 1 with one line per failure otherwise (Tests/LinkServiceTests/BrowserLandingTests.swift).
"""
import json
import shutil
import sys
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
          "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")


def main():
    url, host, expected, shots = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4:]
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=390,844", "--force-device-scale-factor=1", f"--user-agent={IPHONE}",
                 f"--host-resolver-rules=MAP {host} 127.0.0.1", "--hide-scrollbars"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    failures = []
    try:
        driver.set_window_size(390, 844)
        driver.get(url)
        width = driver.execute_script("return window.innerWidth")
        if driver.execute_script("return navigator.userAgent") != IPHONE:
            failures.append("the browser does not send the iPhone User-Agent")
        for id, href in expected.items():
            found = driver.find_elements(By.ID, id)
            if not found:
                failures.append(f"no #{id}")
                continue
            element = found[0]
            if not element.is_displayed():
                failures.append(f"#{id} is not visible")
            rect = element.rect
            if rect["width"] < 200 or rect["height"] < 40 or rect["x"] < 0 or rect["x"] + rect["width"] > width or rect["y"] + rect["height"] > 844:
                failures.append(f"#{id} is not a full button on screen: {rect} in {width} px")
            if element.get_attribute("href") != href:
                failures.append(f"#{id} points to {element.get_attribute('href')!r}, not {href!r}")
        # The page fits the viewport's width (no horizontal scrolling at 390 px, nor at 320).
        if driver.execute_script("return document.documentElement.scrollWidth") > width:
            failures.append("the page is wider than the viewport")
        for path in shots:
            driver.save_screenshot(path)
        driver.set_window_size(320, 640)
        if driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth"):
            failures.append("the page is wider than a 320 px viewport")
        title = driver.title
        if not title:
            failures.append("the page has no title")
    finally:
        driver.quit()
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
