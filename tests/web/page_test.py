#!/usr/bin/env python3
"""The page in headless Chromium (ctest "web: page in headless chromium"; make web-test).

Serves build-web/ on 127.0.0.1 (a free port), opens it with ?test in Debian's chromium
(SwiftShader's WebGL 2), waits for the marker the app sets after its first frames
(window.attnvizReady, frame_loop_browser.cpp) and for the first trace on screen (the
window's state report, app/gui/kit/test_hook.h, read from the page's file system), then
checks what keys do: Right steps forward, P switches to presentation and back. Then
the page draws the desktop's golden pictures of the default start (`attnviz snapshot`
through ?args=) and they are compared with tests/gui/golden/default_start under the
golden rule (tests/gui/checker/image_diff.h) with a documented browser tolerance
(BROWSER_DIFFERING_FRACTION). Last, File > Open query through the browser's file input
(a small .npy) and File > Export tensors, downloaded as a zip whose first step holds the
uploaded values.

    tests/web/page_test.py BUILD_WEB_DIR [--chromium chromium] [--screenshot out.png]
"""
import argparse
import json
import struct
import zipfile
import base64
import functools
import http.server
import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gui", "monkey"))
from cdp import Chromium  # noqa: E402
import png_diff  # noqa: E402
from xdriver import Layout  # noqa: E402  (the window's state report, parsed)

WIDTH, HEIGHT = 1280, 800
# The page's first start computes and draws the trained model's trace: a few seconds
# under SwiftShader on a loaded 2-core machine.
READY_SECONDS = 60

# The desktop's golden pictures of the window's default start (tests/gui/CMakeLists.txt,
# "gui golden default_start"), drawn in the page by the same command: `attnviz snapshot`.
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gui", "golden", "default_start")
GOLDEN_ARGS = ["snapshot", "--model", "tiny-lm", "--step", "attn_weights,next_token_probs", "--size", "640x400",
               "--out", "/tmp/golden"]

# The browser's tolerance: image_diff.h's channel tolerance (24) but 0.2 % of the pixels
# instead of 0.1 %. SwiftShader rounds the colour lookup of small heatmap cells a little
# differently from Mesa's llvmpipe: measured 0.015 % (attn_weights) and 0.124 %
# (next_token_probs, whose residual cells are 4 px) of differing pixels.
BROWSER_DIFFERING_FRACTION = 0.002

REPORT = "FS.analyzePath('/tmp/attnviz_layout.txt').exists ? FS.readFile('/tmp/attnviz_layout.txt', {encoding: 'utf8'}) : ''"


def serve(folder):
    """A quiet static server on a free port of 127.0.0.1; returns (server, url)."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    handler = functools.partial(Quiet, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/" % server.server_address[1]


def report_line(report, prefix):
    """The words after `prefix` on the report's first line starting with it, or None."""
    for line in report.splitlines():
        if line.startswith(prefix + " "):
            return line[len(prefix) + 1:].split()
    return None


class Page:
    def __init__(self, browser):
        self.browser = browser

    def report(self):
        return self.browser.evaluate(REPORT) or ""

    def wait_report(self, predicate, what, timeout=20):
        """Waits until predicate(report) holds; returns the report."""
        holder = {}

        def check():
            holder["r"] = self.report()
            return predicate(holder["r"])
        deadline = time.time() + timeout
        while time.time() < deadline:
            if check():
                return holder["r"]
            time.sleep(0.1)
        raise AssertionError("waited %d s for %s; last report:\n%s" % (timeout, what, holder.get("r", "")))


def read_page_file(browser, path):
    """A file of the page's file system, or None while it does not exist."""
    text = browser.evaluate(
        "(() => { if (!FS.analyzePath(%r).exists) return null; const b = FS.readFile(%r); let s = '';"
        " for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode.apply(null, b.subarray(i, i + 8192));"
        " return btoa(s); })()" % (path, path))
    return None if text is None else base64.b64decode(text)


def check_golden(chromium, url, profile):
    """The page's snapshots against the desktop's golden pictures (image_diff.h's rule)."""
    browser = Chromium(chromium, WIDTH, HEIGHT, profile)
    problems = []
    try:
        browser.open(url + "?args=" + "%20".join(GOLDEN_ARGS))
        for name in sorted(os.listdir(GOLDEN)):
            path = "/tmp/golden/" + name
            browser.wait_for("FS.analyzePath(%r).exists" % path, READY_SECONDS, path)
            with open(os.path.join(GOLDEN, name), "rb") as f:
                golden = png_diff.read_png(f.read())
            matches, differing, pixels, largest = png_diff.compare(png_diff.read_png(read_page_file(browser, path)), golden,
                                                                   max_differing_fraction=BROWSER_DIFFERING_FRACTION)
            print("page_test: golden %s: %d of %d pixels differ beyond the tolerance, largest difference %d"
                  % (name, differing, pixels, largest))
            if not matches:
                problems.append("golden %s differs in %d of %d pixels" % (name, differing, pixels))
    finally:
        browser.close()
    return problems


def write_npy(path, rows, cols):
    """A float32 (rows, cols) .npy of 0.1, 0.2, ... (NumPy's format, version 1.0)."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    values = struct.pack("<%df" % (rows * cols), *[0.1 * (i + 1) for i in range(rows * cols)])
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + values)


def click_item(browser, page, name):
    """Clicks the middle of the widget the window reports as `name` (note_item_for_tests)."""
    # Where it stays: a popup's first frame is laid out unseen, then placed.
    rect, deadline = None, time.time() + 20
    while time.time() < deadline:
        lay = Layout(page.wait_report(lambda r: name in Layout(r).items, "the item " + name))
        if lay.items[name] == rect:
            break
        rect = lay.items[name]
        time.sleep(0.3)
    x0, y0, x1, y1 = rect
    browser.click((x0 + x1) / 2, (y0 + y1) / 2)


def open_file_menu(browser, page):
    bar = Layout(page.report()).window("##MainMenuBar")
    browser.click(bar[0] + 15, bar[1] + bar[3] / 2)


def check_files(browser, page, work):
    """File > Open query through the browser's file input, then File > Export tensors as a
    download (a .zip of the trace's folder)."""
    query = os.path.join(work, "query.npy")
    write_npy(query, 4, 6)  # the page runs -L 4 -E 6 -H 2 (main below)
    open_file_menu(browser, page)
    click_item(browser, page, "menu.file.open_query")
    # The path field has the keyboard when the dialog opens: where it is.
    field = None
    for _ in range(60):  # where it stays (the popup's first frame is laid out unseen)
        focus = Layout(page.wait_report(lambda r: (Layout(r).focus or ("",) * 6)[5].startswith("Open"), "the path field")).focus
        if focus == field:
            break
        field = focus
        time.sleep(0.3)
    click_item(browser, page, "upload")
    browser.wait_for("document.getElementById('attnviz-upload') !== null", 10, "the file input")
    browser.set_file_input("#attnviz-upload", [query])
    folder = browser.evaluate("document.getElementById('attnviz-upload').dataset.folder")
    browser.wait_for("FS.analyzePath(%r).exists" % (folder + "/query.npy"), 10, "the uploaded file")
    # The path field, typed over, then Enter opens it.
    browser.click((field[0] + field[2]) / 2, (field[1] + field[3]) / 2)
    page.wait_report(lambda r: Layout(r).text_input, "the path field to take the keyboard")
    browser.key("a", "KeyA", 65, modifiers=2)  # Ctrl+A: the whole path
    browser.type_text(folder + "/query.npy")
    browser.key("Enter", "Enter", 13, text="\r")
    page.wait_report(lambda r: "upload" not in Layout(r).items, "the open dialog to close after Enter")
    browser.send("Browser.setDownloadBehavior", session=False, behavior="allow", downloadPath=work)
    open_file_menu(browser, page)
    click_item(browser, page, "menu.file.export_tensors")
    page.wait_report(lambda r: Layout(r).window("##path") is not None or "text_input 1" in r, "the export dialog")
    browser.key("Enter", "Enter", 13, text="\r")
    deadline = time.time() + 30
    zip_path = os.path.join(work, "attnviz_tensors.zip")
    while time.time() < deadline and not os.path.exists(zip_path):
        time.sleep(0.2)
    if not os.path.exists(zip_path):
        raise AssertionError("no download of attnviz_tensors.zip after File > Export tensors")
    with zipfile.ZipFile(zip_path) as z:
        names = z.namelist()
        if z.testzip() is not None or "attnviz_tensors/manifest.json" not in names:
            raise AssertionError("the downloaded zip lacks its manifest: %s" % names[:5])
        manifest = json.loads(z.read("attnviz_tensors/manifest.json"))
        first = z.read("attnviz_tensors/" + manifest["steps"][0]["file"])
    # The trace's first step is the query read from the uploaded file: its values end the .npy.
    with open(query, "rb") as f:
        uploaded = f.read()[-4 * 4 * 6:]  # the 4 x 6 float32 values
    if not first.endswith(uploaded):
        raise AssertionError("the trace's %s is not the uploaded query" % manifest["steps"][0]["file"])
    print("page_test: opened query.npy through the file input; downloaded attnviz_tensors.zip (%d files)" % len(names))


def step_index(report):
    words = report_line(report, "shown")
    return words[0] if words else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("site")
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--screenshot", default="")
    args = parser.parse_args()
    if not os.path.isfile(os.path.join(args.site, "index.html")):
        print("page_test: %s has no index.html (run make web)" % args.site, file=sys.stderr)
        return 2
    server, url = serve(args.site)
    profile = tempfile.mkdtemp(prefix="attnviz-chromium-")
    browser = Chromium(args.chromium, WIDTH, HEIGHT, profile)
    failures = []
    try:
        browser.open(url + "?test&args=-L%204%20-E%206%20-H%202")
        browser.wait_for("window.attnvizReady === true", READY_SECONDS, "the first frames")
        page = Page(browser)
        first = page.wait_report(lambda r: report_line(r, "shown") is not None, "the first trace on screen")
        print("page_test: first frames after %.0f ms; shown %s" %
              (browser.evaluate("window.attnvizFirstFrameMs"), report_line(first, "shown")))
        if args.screenshot:
            with open(args.screenshot, "wb") as f:
                f.write(browser.screenshot())
        # Right: the next step.
        before = step_index(first)
        browser.key("ArrowRight", "ArrowRight", 39)
        page.wait_report(lambda r: step_index(r) not in (None, before), "Right to step forward")
        # P: presentation on, and off again.
        browser.key("p", "KeyP", 80, text="p")
        page.wait_report(lambda r: "presentation 1" in r, "P to switch to presentation")
        browser.key("p", "KeyP", 80, text="p")
        page.wait_report(lambda r: "presentation 0" in r, "P to leave presentation")
        check_files(browser, page, tempfile.mkdtemp(prefix="attnviz-files-"))
    except (AssertionError, TimeoutError, RuntimeError) as e:
        failures.append(str(e))
    finally:
        errors = [text for kind, text in browser.console if kind == "error"]
        browser.close()
    try:
        failures += check_golden(args.chromium, url, tempfile.mkdtemp(prefix="attnviz-chromium-"))
    except (TimeoutError, RuntimeError, ValueError) as e:
        failures.append("golden pictures: %s" % e)
    server.shutdown()
    for text in errors:
        print("page_test: console error: %s" % text, file=sys.stderr)
    for failure in failures:
        print("page_test: FAILED: %s" % failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
