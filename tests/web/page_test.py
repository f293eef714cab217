#!/usr/bin/env python3
"""The page in headless Chromium (ctest "web: page in headless chromium"; make web-test).

Serves build-web/ on 127.0.0.1 (a free port), opens it with ?test in Debian's chromium
(SwiftShader's WebGL 2), waits for the marker the app sets after its first frames
(window.attnvizReady, frame_loop_browser.cpp) and for the first trace on screen (the
window's state report, app/gui/kit/test_hook.h, read from the page's file system), then
checks that an idle page draws only a few of the browser's animation frames, and what
keys do: Right steps forward, P switches to presentation and back, F makes the page
full screen through the browser and back. Then
the page draws the desktop's golden pictures of the default start (`attnviz snapshot`
through ?args=) and they are compared with tests/gui/golden/default_start under the
golden rule (tests/gui/checker/image_diff.h) with a documented browser tolerance
(BROWSER_DIFFERING_FRACTION). Last, File > Open query through the browser's file input
(a small .npy) and File > Export tensors, downloaded as a zip whose first step holds the
uploaded values; File > Export animation downloads a looping, animated GIF of the
canvas' size (gif_check.py reads it); View > Present on screen says that the page opens
no speaker notes window; Help > Keyboard's N row says what N does in a page; Lesson > Open opens a shipped lesson,
Lesson > Save downloads it, and Lesson > Export slides as pictures draws them in the page
and downloads them as a zip of one PNG per slide; View > Language > zh-Hans survives a
reload (settings.ini in IndexedDB). A second page on a devicePixelRatio 2 screen draws
at twice the pixels (canvas, fonts, menu bar) and takes clicks where they land. Last,
the page in zh-Hant on tiny-lm-zh draws every character with a glyph.

    tests/web/page_test.py BUILD_WEB_DIR [--chromium chromium] [--screenshot out.png]
"""
import argparse
import json
import re
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
import gif_check  # noqa: E402
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
DRAWN_TEXT = "/tmp/attnviz_text.txt"  # every run of text the window drew (ATTNVIZ_TEST_TEXT, index.html)
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SHIPPED_LESSON = "head-split.en.json"  # in the page at /assets/lessons (web/page.cmake)
# An idle page (nothing moving, nothing computing) draws a frame when input arrives and
# otherwise two a second, as the desktop's idle window (app/gui/window/x11_events.h): of 60
# animation frames (a second at 60 Hz) at most this many are drawn.
IDLE_FRAMES = 60
IDLE_DRAWN_AT_MOST = 8


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


def check_chinese_glyphs(chromium, url, profile):
    """The page in zh-Hant on tiny-lm-zh (its vocabulary's characters on screen) has a glyph
    for every character it draws: no U+FFFD in the drawn text, no status line naming
    characters the fonts lack (web/cjk_subset.py keeps every character of the catalogues,
    lessons and models)."""
    browser = Chromium(chromium, WIDTH, HEIGHT, profile)
    try:
        browser.open(url + "?test&args=--lang%20zh-Hant%20--model%20tiny-lm-zh")
        browser.wait_for("window.attnvizReady === true", READY_SECONDS, "the first frames in zh-Hant")
        page = Page(browser)
        page.wait_report(lambda r: (report_line(r, "shown") or [""])[0] == "tokens", "tiny-lm-zh's tokens on screen")
        drawn = browser.evaluate("Module.attnvizFramesDrawn")  # the fonts are rebuilt between frames
        browser.wait_for("Module.attnvizFramesDrawn >= %d" % (drawn + 3), 10, "three more frames")
        missing = catalogue("status.glyphs_missing", "zh-Hant").split("{characters}")[0]
        said = [line for line in page.report().splitlines() if line.startswith("message " + missing)]
        boxes = [line for line in (read_page_file(browser, DRAWN_TEXT) or b"").decode("utf-8").splitlines()
                 if "\ufffd" in line]
        if said or boxes:
            return ["zh-Hant on tiny-lm-zh lacks glyphs: %s %s" % (said, boxes[:3])]
        print("page_test: zh-Hant on tiny-lm-zh: every character drawn has a glyph")
        return []
    finally:
        browser.close()


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


def catalogue(key, language="en"):
    with open(os.path.join(SOURCE, "assets", "lang", language + ".json"), encoding="utf-8") as f:
        return json.load(f)[key]


def wait_download(work, name, timeout=60):
    """The path of the browser's finished download `name` in `work` (Chromium writes a
    .crdownload first and renames it when done)."""
    path, deadline = os.path.join(work, name), time.time() + timeout
    while time.time() < deadline and not os.path.exists(path):
        time.sleep(0.2)
    if not os.path.exists(path):
        raise AssertionError("no download of %s (in the folder: %s)" % (name, sorted(os.listdir(work))))
    return path


def check_idle(browser):
    """Of IDLE_FRAMES animation frames of the idle page, at most IDLE_DRAWN_AT_MOST drawn
    (window.Module.attnvizFramesDrawn, window_events_browser.cpp). Waits for a quiet
    stretch: the first step's animation draws every frame while it plays."""
    browser.evaluate("window.attnvizTicks = 0; (function tick() { window.attnvizTicks++; requestAnimationFrame(tick); })(); 1")
    deadline, counts = time.time() + 30, None
    while time.time() < deadline:
        ticks, drawn = browser.evaluate("[window.attnvizTicks, Module.attnvizFramesDrawn]")
        browser.wait_for("window.attnvizTicks >= %d" % (ticks + IDLE_FRAMES), 20, "%d animation frames" % IDLE_FRAMES)
        counts = browser.evaluate("[window.attnvizTicks - %d, Module.attnvizFramesDrawn - %d]" % (ticks, drawn))
        if counts[1] <= IDLE_DRAWN_AT_MOST:
            print("page_test: idle: %d of %d animation frames drawn" % (counts[1], counts[0]))
            break
    else:
        raise AssertionError("the idle page drew %s of %s animation frames (at most %d)" % (counts[1], counts[0], IDLE_DRAWN_AT_MOST))
    # glfwPostEmptyEvent (the window asking for its next frame) wakes the idle page at once,
    # not at the next half second: three times, each within a few animation frames.
    # Counted in the page: the animation frames from the call to the next frame drawn (at
    # most 120 are watched).
    wake = ("new Promise(done => { const t0 = window.attnvizTicks, d0 = Module.attnvizFramesDrawn;"
            " Module.attnvizPostEmptyEvent();"
            " (function watch() { const waited = window.attnvizTicks - t0;"
            " if (Module.attnvizFramesDrawn > d0 || waited > 120) done(waited); else requestAnimationFrame(watch); })(); })")
    for _ in range(3):
        waited = browser.evaluate(wake)
        if waited > 4:
            raise AssertionError("glfwPostEmptyEvent woke the idle page only after %d animation frames" % waited)
        ticks = browser.evaluate("window.attnvizTicks")
        browser.wait_for("window.attnvizTicks >= %d" % (ticks + 10), 5, "10 animation frames")
    print("page_test: glfwPostEmptyEvent wakes the idle page within a few animation frames")


def check_notes_message(browser, page):
    """View > Present on screen, where a second screen is picked, says in the window that a
    page opens no speaker notes window there."""
    click_item(browser, page, "menu.view")
    click_item(browser, page, "menu.view.present_on")
    words = " ".join(catalogue("web.unavailable.notes_window").split())

    def shown():
        drawn = read_page_file(browser, DRAWN_TEXT) or b""
        runs = [line.split("\t", 4)[-1] for line in drawn.decode("utf-8").splitlines()]
        return words in " ".join(" ".join(runs).split())
    deadline = time.time() + 20
    while time.time() < deadline and not shown():
        time.sleep(0.2)
    if not shown():
        raise AssertionError("View > Present on screen does not say %r" % words)
    bar = Layout(page.report()).window("##MainMenuBar")  # a click outside the menus closes them
    browser.click(bar[0] + bar[2] - 20, bar[1] + bar[3] / 2)
    page.wait_report(lambda r: Layout(r).window("##Menu_") is None, "the menu to close")
    print("page_test: View > Present on screen says the page opens no speaker notes window")


def lesson_menu(browser, page, item):
    click_item(browser, page, "lesson.menu")
    click_item(browser, page, item)


def lesson_state(report):
    words = report_line(report, "lesson")  # "lesson 1 slides 8 current 0 dirty 0 presenting 0 slide 0"
    return None if not words else dict(open=words[0] == "1", slides=int(words[2]), current=int(words[4]),
                                       dirty=words[6] == "1")


def check_lesson(browser, page, work):
    """Lesson > Open a shipped lesson; Lesson > Save downloads it; Lesson > Export slides as
    pictures draws them in the page and downloads <name>_slides.zip, one PNG per slide."""
    with open(os.path.join(SOURCE, "assets", "lessons", SHIPPED_LESSON), encoding="utf-8") as f:
        shipped = json.load(f)
    count = len(shipped["slides"])
    lesson_menu(browser, page, "lesson.menu.open")
    page.wait_report(lambda r: Layout(r).text_input, "the lesson's path field")
    browser.key("a", "KeyA", 65, modifiers=2)  # Ctrl+A: the whole path
    browser.type_text("/assets/lessons/" + SHIPPED_LESSON)
    browser.key("Enter", "Enter", 13, text="\r")
    page.wait_report(lambda r: (lesson_state(r) or {}).get("slides") == count and report_line(r, "shown")[0] ==
                     shipped["slides"][0]["step"], "the shipped lesson's %d slides, its first step on screen" % count)
    print("page_test: opened /assets/lessons/%s: %d slides, slide 1's step %s on screen"
          % (SHIPPED_LESSON, count, shipped["slides"][0]["step"]))
    lesson_menu(browser, page, "lesson.menu.save")
    with open(wait_download(work, SHIPPED_LESSON), encoding="utf-8") as f:
        saved = json.load(f)
    if [s["title"] for s in saved["slides"]] != [s["title"] for s in shipped["slides"]]:
        raise AssertionError("the downloaded lesson's slides are not the shipped ones: %r" % saved["slides"])
    print("page_test: Lesson > Save downloaded %s (%d slides)" % (SHIPPED_LESSON, len(saved["slides"])))
    lesson_menu(browser, page, "lesson.menu.export_pictures")
    zip_name = SHIPPED_LESSON[:-len(".json")] + "_slides.zip"
    width, height = browser.evaluate("[Module.canvas.width, Module.canvas.height]")
    with zipfile.ZipFile(wait_download(work, zip_name, timeout=180)) as z:
        names = sorted(n for n in z.namelist() if n.endswith(".png"))
        if len(names) != count or not names[0].split("/")[-1].startswith("01_"):
            raise AssertionError("%s holds %r, not %d slide pictures" % (zip_name, names, count))
        for name in names:  # PNG files of the window's size (the size is in the IHDR chunk)
            data = z.read(name)
            if data[:8] != b"\x89PNG\r\n\x1a\n" or struct.unpack(">II", data[16:24]) != (width, height):
                raise AssertionError("%s in %s is no %dx%d PNG" % (name, zip_name, width, height))
        # The first slide drawn, not an empty frame: many colours (one pixel in 97 read).
        _, _, rgba = png_diff.read_png(z.read(names[0]))
        colours = len({bytes(rgba[i:i + 4]) for i in range(0, len(rgba), 4 * 97)})
        if colours < 16:
            raise AssertionError("%s has %d colours: not a slide" % (names[0], colours))
    done = catalogue("lesson.pictures.downloaded").replace("{file}", zip_name)
    page.wait_report(lambda r: "message " + done in r, "the status line: " + done)
    print("page_test: Lesson > Export slides as pictures downloaded %s: %d PNGs of %dx%d" % (zip_name, count, width, height))


def status_lines(report):
    """The report's "message ..." lines: what the status line says."""
    return set(re.findall("^message .*$", report, re.M))


def check_gif_export(browser, page, work):
    """File > Export animation with the dialog's defaults (this step, GIF, 1x, the canvas
    alone): the page writes the GIF (giflib and libimagequant compiled to WebAssembly) and
    downloads it, as a picture. It must be an animated GIF89a of the canvas' export size
    that loops, of as many images as the status line says, the first a whole drawn frame."""
    before = set(os.listdir(work))
    open_file_menu(browser, page)
    click_item(browser, page, "menu.file.export_animation")
    page.wait_report(lambda r: "text_input 1" in r, "the export animation dialog's path field")
    # How long the page is held between two of its animation frames while the export runs
    # (printed, not checked: speed is a benchmark figure, README "In the browser").
    browser.evaluate("window.attnvizGaps = []; (() => { let last = performance.now(); const tick = t => {"
                     " window.attnvizGaps.push(t - last); last = t; if (!window.attnvizGapsStop) requestAnimationFrame(tick);"
                     " }; requestAnimationFrame(tick); })()")
    said_before = status_lines(page.report())
    started = time.time()
    browser.key("Enter", "Enter", 13, text="\r")
    # The export's end is a new status line: the file written, or why not.
    report = page.wait_report(lambda r: status_lines(r) - said_before,
                              "the status line after the export", 300)
    seconds = time.time() - started
    written = catalogue("export.wrote_animation")  # "wrote {path} ({frames} frames, {seconds} s)"
    pattern = re.escape(written).replace(r"\{path\}", "(/.*)").replace(r"\{frames\}", "([0-9]+)").replace(r"\{seconds\}", "[0-9.]+")
    if not re.search("^message " + pattern + "$", report, re.M):
        raise AssertionError("the status line after File > Export animation says %s, not '%s'"
                             % (sorted(status_lines(report) - said_before), written))
    gaps = sorted(browser.evaluate("window.attnvizGapsStop = true; window.attnvizGaps") or [0])
    path, frames = re.search("^message " + pattern + "$", report, re.M).groups()
    name = os.path.basename(path)
    if not name.endswith(".gif") or name in before:
        raise AssertionError("the animation was written to %s, not a new .gif" % path)
    with open(wait_download(work, name), "rb") as f:
        data = f.read()
    gif = gif_check.read_gif(data)
    # The dialog's default area is the canvas alone: its window's size, with the step's title
    # strip below (kCanvasTitleEm 1.7 of the 26 px large font: export_image_size, export_runner.cpp).
    _, _, width, height = Layout(report).window("Canvas")
    height += int(26 * 1.7)
    if gif.version != "GIF89a" or not gif.loops or (gif.width, gif.height) != (width, height):
        raise AssertionError("%s is a %s of %dx%d (loops: %s), not a looping GIF89a of the canvas' export size %dx%d"
                             % (name, gif.version, gif.width, gif.height, gif.loops, width, height))
    if len(gif.images) < 2 or len(gif.images) != int(frames):
        raise AssertionError("%s holds %d images; the status line says %s frames" % (name, len(gif.images), frames))
    first = gif.images[0]
    colours = gif_check.colours_of(first)
    if (first.width, first.height) != (width, height) or len(colours) < 16:
        raise AssertionError("%s's first image is %dx%d of %d colours: not the drawn canvas"
                             % (name, first.width, first.height, len(colours)))
    print("page_test: File > Export animation downloaded %s: %d images of %dx%d (the first of %d colours), %.0f KB, "
          "in %.1f s; the page's frames meanwhile: median %.0f ms, longest %.0f ms"
          % (name, len(gif.images), width, height, len(colours), len(data) / 1024, seconds, gaps[len(gaps) // 2], gaps[-1]))


def screen_state(report):
    """The report's screen_state line as a dict: language, full_screen, screens, font_px."""
    words = report_line(report, "screen_state") or []
    return dict(zip(words[::2], words[1::2]))


def check_full_screen(browser, page):
    """F asks the browser for full screen (web/glfw_page.js: requestFullscreen on the page's
    element; headless Chromium grants it): the page's element is full screen, the window
    says full_screen 1 and its canvas fills the screen. F again leaves it."""
    browser.key("f", "KeyF", 70, text="f")
    browser.wait_for("document.fullscreenElement === document.documentElement", 20, "F to make the page full screen")
    page.wait_report(lambda r: screen_state(r).get("full_screen") == "1", "the window to say full_screen 1")
    size = browser.wait_for("Module.canvas.width === Math.round(screen.width * devicePixelRatio) &&"
                            " [screen.width, screen.height, Module.canvas.width, Module.canvas.height]",
                            20, "the canvas to fill the screen")
    browser.key("f", "KeyF", 70, text="f")
    browser.wait_for("document.fullscreenElement === null", 20, "F again to leave full screen")
    page.wait_report(lambda r: screen_state(r).get("full_screen") == "0", "the window to say full_screen 0")
    browser.wait_for("Module.canvas.width === Math.round(innerWidth * devicePixelRatio)", 20, "the canvas back to the page's size")
    # The browser leaves full screen by itself (its Esc, its menu): the window follows, so
    # one F enters full screen again (before, the first F only undid the stale state).
    browser.key("f", "KeyF", 70, text="f")
    browser.wait_for("document.fullscreenElement === document.documentElement", 20, "F to make the page full screen again")
    page.wait_report(lambda r: screen_state(r).get("full_screen") == "1", "the window to say full_screen 1 again")
    browser.evaluate("document.exitFullscreen()")
    browser.wait_for("document.fullscreenElement === null", 20, "the browser to leave full screen by itself")
    page.wait_report(lambda r: screen_state(r).get("full_screen") == "0", "the window to follow the browser out of full screen")
    browser.key("f", "KeyF", 70, text="f")
    browser.wait_for("document.fullscreenElement === document.documentElement", 20, "one F to go full screen after the browser left it")
    browser.key("f", "KeyF", 70, text="f")
    browser.wait_for("document.fullscreenElement === null", 20, "F to leave full screen")
    print("page_test: F: the page went full screen (screen %dx%d, canvas %dx%d) and back; one F after the browser left it" % tuple(size))


def check_keyboard_help(browser, page):
    """Help > Keyboard in the page: the N row says what N does in a browser (the notes stay
    over the canvas), not the desktop's separate notes window."""
    click_item(browser, page, "menu.help")
    click_item(browser, page, "menu.help.keyboard")
    words = " ".join(catalogue("shortcut.note.action.browser").split())
    desktop = " ".join(catalogue("shortcut.note.action").split())

    def drawn():
        runs = [line.split("\t", 4)[-1] for line in (read_page_file(browser, DRAWN_TEXT) or b"").decode("utf-8").splitlines()]
        return " ".join(" ".join(runs).split())
    deadline = time.time() + 20
    while time.time() < deadline and words not in drawn():
        time.sleep(0.2)
    if words not in drawn():
        raise AssertionError("Help > Keyboard does not say %r" % words)
    if desktop in drawn():
        raise AssertionError("Help > Keyboard in the page says the desktop's %r" % desktop)
    browser.key("Escape", "Escape", 27)
    page.wait_report(lambda r: "###dialog.keys" not in r, "the keyboard help to close")
    print("page_test: Help > Keyboard says what N does in the browser")


# The page's settings folder in IndexedDB (index.html mounts IDBFS there; emscripten's
# IDBFS keeps each file under its path in the database named after the mount point).
CONFIG = "/home/web_user/.config"


def stored_file(browser, path):
    """The text IndexedDB holds for the page's file `path`, or None."""
    return browser.evaluate(
        "new Promise(done => { const open = indexedDB.open(%r); open.onerror = () => done(null);"
        " open.onsuccess = () => { const db = open.result;"
        " if (!db.objectStoreNames.contains('FILE_DATA')) { db.close(); done(null); return; }"
        " const get = db.transaction('FILE_DATA').objectStore('FILE_DATA').get(%r);"
        " get.onerror = () => { db.close(); done(null); };"
        " get.onsuccess = () => { db.close(); const e = get.result;"
        " done(e && e.contents ? new TextDecoder().decode(e.contents) : null); }; }; })" % (CONFIG, path))


def check_settings_kept(browser, page):
    """View > Language > zh-Hans, then a reload: the page starts in zh-Hans (settings.ini
    kept in IndexedDB, read back before the app starts). imgui.ini lives in the same
    folder; it is written only when ImGui's own settings change, which the window's
    layout (every window placed by the app) does not do here, so it is not checked."""
    click_item(browser, page, "menu.view")
    click_item(browser, page, "menu.view.language")
    click_item(browser, page, "menu.view.language.zh-Hans")
    page.wait_report(lambda r: screen_state(r).get("language") == "zh-Hans", "View > Language to switch to zh-Hans")
    settings, deadline = None, time.time() + 30
    while time.time() < deadline:
        settings = stored_file(browser, CONFIG + "/attnviz/settings.ini")
        if settings and "language = zh-Hans" in settings.splitlines():
            break
        time.sleep(0.3)
    else:
        raise AssertionError("IndexedDB holds no settings.ini naming zh-Hans: %r" % settings)
    browser.evaluate("window.attnvizReady = false")  # the reloaded page sets it again
    browser.send("Page.reload")
    browser.wait_for("window.attnvizReady === true", READY_SECONDS, "the reloaded page's first frames")
    report = page.wait_report(lambda r: screen_state(r).get("language") is not None, "the reloaded page's report")
    if screen_state(report)["language"] != "zh-Hans":
        raise AssertionError("after a reload the page speaks %s, not the zh-Hans picked before" % screen_state(report)["language"])
    print("page_test: View > Language > zh-Hans survives a reload (settings.ini in IndexedDB)")


def check_device_pixel_ratio(chromium, url, profile, at_one):
    """On a screen of devicePixelRatio 2 the canvas has 2 pixels per CSS pixel each way, the
    window spans them (ImGui's display is the canvas's pixels), its fonts are rasterised
    at twice the size (sharp, not stretched), its menu bar is twice as tall as at ratio 1,
    and a click lands on what is under it (emscripten scales the mouse to canvas pixels).
    `at_one`: the main page's report at ratio 1."""
    browser = Chromium(chromium, WIDTH, HEIGHT, profile, scale=2)
    problems = []
    try:
        browser.open(url + "?test&args=-L%204%20-E%206%20-H%202")
        browser.wait_for("window.attnvizReady === true", READY_SECONDS, "the first frames at devicePixelRatio 2")
        page = Page(browser)
        report = page.wait_report(lambda r: report_line(r, "shown") is not None and Layout(r).window("##MainMenuBar"),
                                  "the first trace at devicePixelRatio 2")
        ratio, width, height, css_w, css_h = browser.evaluate(
            "[devicePixelRatio, Module.canvas.width, Module.canvas.height, Module.canvas.clientWidth, Module.canvas.clientHeight]")
        if ratio != 2 or (width, height) != (2 * css_w, 2 * css_h):
            problems.append("at devicePixelRatio %s the canvas is %dx%d for %dx%d CSS pixels" % (ratio, width, height, css_w, css_h))
        bar, bar_one = Layout(report).window("##MainMenuBar"), Layout(at_one).window("##MainMenuBar")
        font, font_one = int(screen_state(report).get("font_px", 0)), int(screen_state(at_one).get("font_px", 0))
        if bar[2] != width or abs(bar[3] - 2 * bar_one[3]) > 1 or font_one <= 0 or font != 2 * font_one:
            problems.append("at devicePixelRatio 2 the menu bar is %gx%g (at 1: %gx%g), the font %d px (at 1: %d) on a %d px canvas"
                            % (bar[2], bar[3], bar_one[2], bar_one[3], font, font_one, width))
        x0, y0, x1, y1 = Layout(page.wait_report(lambda r: "menu.view" in Layout(r).items, "the View menu")).items["menu.view"]
        browser.click((x0 + x1) / 4, (y0 + y1) / 4)  # canvas pixels / 2: CSS pixels
        page.wait_report(lambda r: Layout(r).window("##Menu_") is not None, "a click on View to open its menu")
        if not problems:
            print("page_test: devicePixelRatio 2: canvas %dx%d for %dx%d CSS px, menu bar %g px tall (%g at 1), font %d px (%d at 1)"
                  % (width, height, css_w, css_h, bar[3], bar_one[3], font, font_one))
    except (AssertionError, TimeoutError, RuntimeError) as e:
        problems.append("devicePixelRatio 2: %s" % e)
    finally:
        browser.close()
    return problems


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
    failures, at_one = [], ""
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
        check_idle(browser)
        # Right: the next step.
        before = step_index(first)
        browser.key("ArrowRight", "ArrowRight", 39)
        page.wait_report(lambda r: step_index(r) not in (None, before), "Right to step forward")
        # P: presentation on, and off again.
        browser.key("p", "KeyP", 80, text="p")
        page.wait_report(lambda r: "presentation 1" in r, "P to switch to presentation")
        browser.key("p", "KeyP", 80, text="p")
        page.wait_report(lambda r: "presentation 0" in r, "P to leave presentation")
        check_full_screen(browser, page)
        at_one = page.report()  # the window at devicePixelRatio 1, for check_device_pixel_ratio
        work = tempfile.mkdtemp(prefix="attnviz-files-")
        check_files(browser, page, work)
        check_gif_export(browser, page, work)
        check_notes_message(browser, page)
        check_keyboard_help(browser, page)
        check_lesson(browser, page, work)
        check_settings_kept(browser, page)  # last: the page speaks zh-Hans from here on
    except (AssertionError, TimeoutError, RuntimeError) as e:
        failures.append(str(e))
    finally:
        errors = [text for kind, text in browser.console if kind == "error"]
        browser.close()
    if at_one:
        failures += check_device_pixel_ratio(args.chromium, url, tempfile.mkdtemp(prefix="attnviz-chromium-"), at_one)
    try:
        failures += check_golden(args.chromium, url, tempfile.mkdtemp(prefix="attnviz-chromium-"))
    except (TimeoutError, RuntimeError, ValueError) as e:
        failures.append("golden pictures: %s" % e)
    try:
        failures += check_chinese_glyphs(args.chromium, url, tempfile.mkdtemp(prefix="attnviz-chromium-"))
    except (AssertionError, TimeoutError, RuntimeError) as e:
        failures.append("zh-Hant glyphs: %s" % e)
    server.shutdown()
    for text in errors:
        print("page_test: console error: %s" % text, file=sys.stderr)
    for failure in failures:
        print("page_test: FAILED: %s" % failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
