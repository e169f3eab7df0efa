#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The web app of `thumbkit serve` in a real browser (headless Chromium through Selenium).

    scripts/browser-test.py --base http://127.0.0.1:PORT --password PW \
        --thumbkit .build/release/thumbkit --catalog C.sqlite --picture NEW.png

Logs in, rates a bug with the fourth star (4), checks that the page's script showed 4 without a
reload and then swapped in the rebuilt 4-star strip, then checks the reloaded page, `thumbkit
catalog show` and the rating strip; uploads a new picture and waits for the list thumbnail to
change; uploads a
text file and checks the error and that the picture stayed; adds a bug and removes it; walks a
food category down to a dish and checks that its 2x image is twice as wide as its 1x image.
Prints one line per step; exits 1 with the reason on the first failure.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def step(text):
    print("ok: " + text, flush=True)


def fail(text):
    print("FAIL: " + text, flush=True)
    sys.exit(1)


def wait_until(condition, what, timeout=90):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:  # a page in the middle of reloading
            pass
        time.sleep(0.3)
    fail("timed out waiting for " + what)


def catalog_show(args, record):
    out = subprocess.run(
        [args.thumbkit, "catalog", "show", record, "--json", "--catalog", args.catalog],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--thumbkit", required=True)
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--picture", required=True)
    args = parser.parse_args()

    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    try:
        run(driver, args)
    finally:
        driver.quit()


def not_rebuilding(driver):
    driver.refresh()
    return not driver.find_elements(By.CSS_SELECTOR, ".rebuilding")


def run(driver, args):
    base = args.base.rstrip("/")
    # Log in.
    driver.get(base + "/login")
    driver.find_element(By.NAME, "password").send_keys(args.password)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_until(lambda: driver.current_url.endswith("/bugs"), "the bug list after logging in")
    step("logged in")

    # Rate the first bug with the fourth star.
    link = driver.find_element(By.CSS_SELECTOR, "ul.rows a")
    href = link.get_attribute("href")
    bug_id = href.rstrip("/").split("/")[-1]
    driver.get(href)
    if driver.find_element(By.CSS_SELECTOR, "[data-rating]").get_attribute("data-rating") == "4":
        fail("bug %s is rated 4 already: the test could not tell a change" % bug_id)
    # The page's script rates in place: a mark on this page's window survives only if the page
    # is not reloaded, so finding it once the page shows 4 proves the script did the work (and
    # the script shows 4 only once the server answered that it stored it).
    driver.execute_script("window.thumbkitBrowserTest = 'still this page';")
    driver.find_element(By.CSS_SELECTOR, "button[name=rating][value='4']").click()
    wait_until(lambda: driver.find_element(By.CSS_SELECTOR, "[data-rating]").get_attribute("data-rating") == "4",
               "the page to show rating 4")
    if driver.execute_script("return window.thumbkitBrowserTest || null;") != "still this page":
        fail("the page was reloaded to show rating 4: the rating script did not rate in place")
    lit = [b.get_attribute("value") for b in driver.find_elements(By.CSS_SELECTOR, "button[name=rating].on")]
    if lit != ["0.5", "1", "1.5", "2", "2.5", "3", "3.5", "4"]:
        fail("after rating 4 in place the lit stars are %s" % lit)
    step("the page showed rating 4 without a reload (the rating script)")
    # Once the bug is rebuilt, the script puts the new strip in place, still without a reload.
    wait_until(lambda: "rating-4-stars" in (driver.find_element(By.CSS_SELECTOR, "img.stars").get_attribute("src") or ""),
               "the page's rating strip to become the 4-star one without a reload")
    if driver.execute_script("return window.thumbkitBrowserTest || null;") != "still this page":
        fail("the page was reloaded to show the new rating strip: the rating script did not swap it in place")
    step("the page showed the 4-star strip without a reload (the rating script)")
    driver.refresh()
    shown = driver.find_element(By.CSS_SELECTOR, "[data-rating]").get_attribute("data-rating")
    if shown != "4":
        fail("after a reload the page shows rating %s" % shown)
    rating = catalog_show(args, bug_id)["rating"]
    if rating != 4:
        fail("thumbkit catalog show says rating %s" % rating)
    wait_until(lambda: not_rebuilding(driver), "the bug to be rebuilt")
    strip = driver.find_element(By.CSS_SELECTOR, "img.stars").get_attribute("src")
    if "rating-4-stars" not in strip:
        fail("the rating strip is %s, not the 4-star one" % strip)
    step("rated bug %s with 4 stars (page, catalog and strip agree)" % bug_id)

    # Upload a new picture; the list thumbnail changes once it is rebuilt.
    def list_thumb():
        driver.get(base + "/bugs")
        row = driver.find_element(By.CSS_SELECTOR, "a[href='/bugs/%s'] img.thumb" % bug_id)
        return row.get_attribute("src"), row.get_attribute("srcset")

    before_thumb = list_thumb()
    if "2x" not in before_thumb[1]:
        fail("the list thumbnail's srcset has no 2x entry: %s" % before_thumb[1])
    image_before_upload = catalog_show(args, bug_id)["image"]
    driver.get(base + "/bugs/" + bug_id)
    driver.find_element(By.CSS_SELECTOR, "input[type=file][name=picture]").send_keys(os.path.abspath(args.picture))
    # The upload answers with the same URL: a mark on this page tells the answer's page from it.
    # Until the server has stored the picture (on a loaded machine, after the click returns), the
    # page shows no rebuild, and waiting for none would pass at once.
    driver.execute_script("window.thumbkitBrowserTest = 'before the upload';")
    driver.find_element(By.CSS_SELECTOR, "form[action$='/picture'] button").click()
    wait_until(lambda: driver.current_url.endswith("/bugs/" + bug_id)
               and driver.execute_script("return window.thumbkitBrowserTest || null;") is None,
               "the bug page after the upload")
    if driver.find_elements(By.CSS_SELECTOR, ".error"):
        fail("the upload was refused: " + driver.find_element(By.CSS_SELECTOR, ".error").text)
    wait_until(lambda: catalog_show(args, bug_id)["image"] != image_before_upload, "the catalog to hold the new picture")
    wait_until(lambda: not_rebuilding(driver), "the new picture to be built")
    after_thumb = list_thumb()
    if after_thumb[0] == before_thumb[0]:
        fail("the list thumbnail did not change: %s" % after_thumb[0])
    step("uploaded a new picture; the thumbnail changed to %s" % after_thumb[0].split("/")[-1])

    # Upload a text file: an error, and the picture stays.
    image_before = catalog_show(args, bug_id)["image"]
    with tempfile.NamedTemporaryFile("w", suffix=".png", delete=False) as text:
        text.write("this is not a picture\n")
    driver.get(base + "/bugs/" + bug_id)
    driver.find_element(By.CSS_SELECTOR, "input[type=file][name=picture]").send_keys(text.name)
    driver.find_element(By.CSS_SELECTOR, "form[action$='/picture'] button").click()
    error = wait_until(lambda: driver.find_element(By.CSS_SELECTOR, ".error"), "the upload error")
    os.unlink(text.name)
    if catalog_show(args, bug_id)["image"] != image_before:
        fail("a rejected upload changed the picture")
    step("a text file was refused (%s); the picture stayed" % error.text)

    # Add a bug, then remove it.
    driver.get(base + "/bugs/new")
    driver.find_element(By.NAME, "title").send_keys("Browser Beetle")
    driver.find_element(By.CSS_SELECTOR, "select[name=rating] option[value='3']").click()
    driver.find_element(By.CSS_SELECTOR, "input[type=file][name=picture]").send_keys(os.path.abspath(args.picture))
    driver.find_element(By.CSS_SELECTOR, "form[action='/bugs'] button").click()
    wait_until(lambda: driver.find_element(By.TAG_NAME, "h1").text == "Browser Beetle", "the new bug's page")
    new_id = driver.current_url.rstrip("/").split("/")[-1]
    if catalog_show(args, new_id)["rating"] != 3:
        fail("the new bug's rating is not 3")
    driver.find_element(By.CSS_SELECTOR, "form[action$='/remove'] button").click()
    wait_until(lambda: driver.current_url.endswith("/bugs"), "the list after removing")
    if "Browser Beetle" in driver.page_source:
        fail("the removed bug is still listed")
    step("added bug %s and removed it" % new_id)

    # Food: a category, a dish, and its picture at 1x and 2x.
    driver.get(base + "/foods")
    driver.find_element(By.CSS_SELECTOR, "ul.rows a").click()
    wait_until(lambda: "/foods/categories/" in driver.current_url, "a category page")
    driver.find_element(By.CSS_SELECTOR, "ul.rows a").click()
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "img.detail"), "a dish page")
    widths = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const img = document.querySelector("img.detail");
        const entries = img.getAttribute("srcset").split(",").map(s => s.trim().split(/\\s+/));
        const load = url => new Promise(ok => { const i = new Image(); i.onload = () => ok(i.naturalWidth);
                                                 i.onerror = () => ok(-1); i.src = url; });
        const one = entries.find(e => e[1] === "1x"), two = entries.find(e => e[1] === "2x");
        if (!one || !two) { done(null); return; }
        Promise.all([load(one[0]), load(two[0])]).then(done);
    """)
    if not widths or widths[0] <= 0 or widths[1] != 2 * widths[0]:
        fail("the dish's 1x and 2x images are %s pixels wide" % (widths,))
    step("a dish's picture is %d px at 1x and %d px at 2x" % tuple(widths))
    print("browser test passed", flush=True)


if __name__ == "__main__":
    main()
