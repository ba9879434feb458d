#!/usr/bin/env python3
"""Drives the translators' page in headless Chromium through the DevTools protocol, as a
translator on a phone would: type the API key, search, open an entry, approve its suggestion.

    drive_review_page.py CHROMIUM URL API_KEY QUERY LANGUAGE SCREENSHOT.png

Prints one JSON object: what the page showed at each step. The Swift test that runs it checks
the database itself. Needs websocket-client (Scripts/bootstrap.sh --oracles installs it).
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket

chromium, url, api_key, query, language, screenshot = sys.argv[1:7]
profile = tempfile.mkdtemp(prefix="bundlekit-chromium-")
browser = subprocess.Popen(
    [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
     "--remote-debugging-port=0", "--remote-allow-origins=*", f"--user-data-dir={profile}",
     "about:blank"],
    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
try:
    port = None
    deadline = time.time() + 60
    while port is None and time.time() < deadline:
        line = browser.stderr.readline()
        if not line:
            break
        found = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
        if found:
            port = int(found.group(1))
    if port is None:
        raise SystemExit("Chromium did not open its DevTools port")
    pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
    page = next(p for p in pages if p["type"] == "page")
    socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
    counter = [0]

    def call(method, **params):
        counter[0] += 1
        ident = counter[0]
        socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def evaluate(expression):
        result = call("Runtime.evaluate", expression=expression, awaitPromise=True,
                      returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(expression, seconds=15):
        end = time.time() + seconds
        while time.time() < end:
            if evaluate(expression):
                return True
            time.sleep(0.1)
        return False

    # A phone-sized screen: 390 x 844 CSS pixels, as an iPhone 14's.
    call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=2,
         mobile=True)
    call("Page.enable")
    call("Page.navigate", url=url)
    report = {"loaded": wait_for("document.readyState === 'complete' && !!document.getElementById('q')")}
    evaluate(f"""(() => {{
      const key = document.getElementById('apikey');
      key.value = {json.dumps(api_key)};
      key.dispatchEvent(new Event('change'));
      document.getElementById('q').value = {json.dumps(query)};
      document.getElementById('lang').value = {json.dumps(language)};
      document.getElementById('state').value = 'needs_review';
      document.getElementById('go').click();
    }})()""")
    report["found"] = wait_for("document.querySelectorAll('#results tr.result').length > 0")
    report["results"] = evaluate(
        "[...document.querySelectorAll('#results tr.result')].map(r => r.textContent)")
    evaluate("document.querySelector('#results tr.result').click()")
    approve = f"#languages tr.translation[data-language={json.dumps(language)}] button.approve"
    report["approveShown"] = wait_for(f"!!document.querySelector({json.dumps(approve)})")
    report["fuzzyRows"] = evaluate("document.querySelectorAll('#fuzzy tr').length") \
        if wait_for("document.querySelectorAll('#fuzzy tr').length > 0", 5) else 0
    evaluate(f"document.querySelector({json.dumps(approve)}).click()")
    report["saved"] = wait_for("document.getElementById('status').textContent === 'Saved'")
    report["status"] = evaluate("document.getElementById('status').textContent")
    # Usable on a phone: nothing wider than the screen.
    report["pageWidth"] = evaluate("document.documentElement.scrollWidth")
    report["screenWidth"] = evaluate("window.innerWidth")
    shot = call("Page.captureScreenshot", format="png")
    with open(screenshot, "wb") as file:
        file.write(base64.b64decode(shot["data"]))
    socket.close()
    print(json.dumps(report))
finally:
    browser.kill()
    browser.wait()
    shutil.rmtree(profile, ignore_errors=True)
