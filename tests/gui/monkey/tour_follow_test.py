#!/usr/bin/env python3
"""Help > Tour and Follow in the real window at 1024x768 (issue 20 parts 5 and 6).

Tour: opens Help > Tour from the menu bar, steps through every slide (Right, Left, the
bubble's Next) and checks, on each, that the outline is exactly the rectangle of the window
part the slide names (assets/lessons/tour.en.json, "highlight") and that the bubble is on
screen and covers none of it; Close ends the tour, and so does Escape.

Follow: pins a weight with a click, follows it with the inspector's Follow button, checks
the strip under the canvas lists the followed number at each step with the values the
command line's `attnviz trace` writes for the same configuration, unfollows, then follows
it again from the cell's right-click menu.

The window names its rectangles and the strip in its layout report (ATTNVIZ_TEST_LAYOUT:
"item", "window", "tour_highlight <id> x y w h", "tour_bubble x y w h" and "follow <strip>"
lines, see app/gui/kit/test_hook.h).

usage: tour_follow_test.py <attnviz> [--quiet]
"""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

import xdriver

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
SCREEN = (1024, 768)
CONFIG = ["--tokens", "the cat sat on the mat", "-E", "8", "-H", "2", "--mask", "causal"]
# The ImGui window each element ID is the dock slot of (storage: a band inside the canvas).
WINDOWS = {"controls": "###window.controls", "timeline": "Timeline", "canvas": "Canvas", "explanation": "###window.explanation",
           "inspector": "###window.inspector", "code": "###window.code", "menu": "##MainMenuBar"}


def report(s):
    try:
        with open(s.layout_path) as f:
            return f.read()
    except OSError:
        return ""


def lines_of(text, prefix):
    return [line[len(prefix):] for line in text.splitlines() if line.startswith(prefix)]


def rects_of(text, prefix):
    """{id: (x, y, w, h)} of "tour_highlight id x y w h" lines, or [(x, y, w, h)] without ids."""
    out = {}
    for line in lines_of(text, prefix):
        parts = line.split()
        out[parts[0] if len(parts) == 5 else ""] = tuple(float(v) for v in parts[-4:])
    return out


def window_rect(layout, key):
    for name, rect in layout.windows.items():
        if name.startswith(key) or name.endswith(key):
            return rect
    return None


def overlap(a, b):
    return min(a[0] + a[2], b[0] + b[2]) > max(a[0], b[0]) and min(a[1] + a[3], b[1] + b[3]) > max(a[1], b[1])


def check_slide(s, ids, number, log):
    """Waits for the slide pointing at `ids`; returns a problem or ""."""
    def shown(lay):
        text = report(s)
        return set(rects_of(text, "tour_highlight ")) == set(ids) and lines_of(text, "tour_bubble ")
    if s.wait_for(shown, 20.0) is None:
        return "slide %d: no outline around %s (report: %s)" % (number, ids, lines_of(report(s), "tour_"))
    s.settle(0.3)
    text, lay = report(s), s.layout()
    highlights = rects_of(text, "tour_highlight ")
    bubble = rects_of(text, "tour_bubble ")[""]
    for element, rect in highlights.items():
        if element == "storage":
            canvas = window_rect(lay, "Canvas")
            inside = canvas and rect[0] >= canvas[0] and rect[1] >= canvas[1] and rect[0] + rect[2] <= canvas[0] + canvas[2] + 1
            if not inside:
                return "slide %d: the storage strip's outline %s is not inside the canvas %s" % (number, rect, canvas)
        else:
            want = window_rect(lay, WINDOWS[element])
            if want is None or max(abs(a - b) for a, b in zip(rect, want)) > 1.5:
                return "slide %d: the outline of %s is %s, its window %s" % (number, element, rect, want)
        if overlap(bubble, rect):
            return "slide %d: the bubble %s covers %s %s" % (number, bubble, element, rect)
    if bubble[0] < 0 or bubble[1] < 0 or bubble[0] + bubble[2] > SCREEN[0] or bubble[1] + bubble[3] > SCREEN[1]:
        return "slide %d: the bubble %s is off the %dx%d screen" % (number, bubble, SCREEN[0], SCREEN[1])
    log("  slide %d: %s outlined, bubble at %s" % (number, ", ".join(ids), bubble))
    return ""


def run_tour(s, log):
    with open(os.path.join(ROOT, "assets", "lessons", "tour.en.json")) as f:
        slides = [slide["highlight"] for slide in json.load(f)["slides"]]
    if not s.click_item("menu.help") or not s.click_item("tour.menu"):
        return "Help > Tour is not in the menu bar"
    problem = check_slide(s, slides[0], 1, log)
    # Right, the bubble's Next, Left (back one), then Right to the last slide.
    moves = [("Right", 1), ("next", 2), ("Left", 1)] + [("Right", i) for i in range(2, len(slides))]
    for move, index in moves:
        if problem:
            break
        if move == "next":
            if not s.click_item("tour.next"):
                return "the bubble has no Next button"
        else:
            s.keys(move)
        problem = check_slide(s, slides[index], index + 1, log)
    if problem:
        return problem
    if not s.click_item("tour.close"):
        return "the bubble has no Close button"
    if s.wait_for(lambda l: not lines_of(report(s), "tour_"), 10.0) is None:
        return "Close left the tour on screen"
    # Once more, then Escape: the tour closes (the monkey test's Escape never leaves it open).
    if not s.click_item("menu.help") or not s.click_item("tour.menu"):
        return "Help > Tour is not in the menu bar the second time"
    problem = check_slide(s, slides[0], 1, log)
    if problem:
        return problem
    s.keys("Escape")
    if s.wait_for(lambda l: not lines_of(report(s), "tour_"), 10.0) is None:
        return "Escape left the tour on screen"
    return ""


def read_npy(path):
    """A little-endian float32 .npy file as (shape, values)."""
    with open(path, "rb") as f:
        data = f.read()
    header_len = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + header_len].decode()
    shape = tuple(int(v) for v in re.search(r"'shape': \(([^)]*)\)", header).group(1).split(",") if v.strip())
    values = struct.unpack("<%df" % (len(data[10 + header_len:]) // 4), data[10 + header_len:])
    return shape, values


def trace_value(folder, step, index):
    shape, values = read_npy(os.path.join(folder, step + ".npy"))
    flat = 0
    for extent, i in zip(shape, index):
        flat = flat * extent + i
    return values[flat]


def check_strip(s, attnviz, log):
    """The strip's numbers against `attnviz trace` for the followed weight (0, 0, 3, 1)."""
    if s.wait_for(lambda l: lines_of(report(s), "follow "), 15.0) is None:
        return "following left no strip under the canvas"
    s.settle(0.3)
    strip = lines_of(report(s), "follow ")[-1]
    pairs = re.findall(r"(attn_\w+) (-?[0-9.e+-]+)(?= |$)", strip)
    if [p[0] for p in pairs] != ["attn_scores", "attn_scaled", "attn_masked", "attn_weights"]:
        return "the strip %r does not list the score, scaled, masked and weight" % strip
    folder = tempfile.mkdtemp(prefix="attnviz_trace_")
    subprocess.run([attnviz, "trace"] + CONFIG + ["--out", folder], check=True, stdout=subprocess.DEVNULL)
    for step, shown in pairs:
        want = trace_value(folder, step, (0, 0, 3, 1))
        if abs(float(shown) - want) > 5e-4 * max(1.0, abs(want)):
            return "the strip shows %s %s, the trace holds %r" % (step, shown, want)
    if "out (8" not in strip:
        return "the strip %r does not end in the out row it feeds" % strip
    log("  strip: " + strip)
    return ""


def run_follow(s, attnviz, log):
    steps = subprocess.run([attnviz, "trace", "--list-steps"] + CONFIG, check=True, capture_output=True, text=True).stdout.split()
    s.keys("Home")
    for _ in range(steps.index("attn_weights")):
        s.keys("Right")
        s.settle(0.1)
    lay = s.wait_for(lambda l: "canvas.panel0" in l.items and l.shown and l.shown[0] == "attn_weights", 15.0)
    if lay is None:
        return "the canvas does not show attn_weights (shown %r)" % (s.layout().shown,)
    x0, y0, x1, y1 = lay.items["canvas.panel0"]
    cell = (x0 + (x1 - x0) * 1.5 / 6, y0 + (y1 - y0) * 3.5 / 6)  # row 3, column 1 of head 0's 6 x 6
    s.click(*cell)
    if not s.click_item("follow.follow"):
        return "the inspector has no Follow button for the pinned cell"
    problem = check_strip(s, attnviz, log)
    if problem:
        return problem
    if not s.click_item("follow.unfollow") or s.wait_for(lambda l: not lines_of(report(s), "follow "), 10.0) is None:
        return "Unfollow left the strip"
    s.click(*cell, button=3)
    if s.wait_for(lambda l: l.window("##Popup_") is not None, 5.0) is None:
        return "a right click on a cell opened no menu"
    rows = s.popup_rows("##Popup_")
    if not rows:
        return "the cell's menu has no row"
    s.click(rows[0][0], rows[0][1])
    return check_strip(s, attnviz, log)


def run(attnviz, log):
    s = xdriver.Session(attnviz, ["--lang", "en"] + CONFIG, screen=SCREEN, log=log)
    try:
        s.start_app()
        problem = run_tour(s, log)
        problem = problem or run_follow(s, attnviz, log)
        return problem or xdriver.check_draws(s, "after the tour and following a cell") or ""
    except xdriver.AppDied as died:
        return str(died)
    finally:
        s.close()


def main():
    return xdriver.script_main(__doc__, lambda attnviz, log, args: run(os.path.abspath(attnviz), log),
                               "the tour outlined each part it names with its bubble beside it, "
                               "and a followed cell's strip held the trace's values")


if __name__ == "__main__":
    sys.exit(main())
