#!/usr/bin/env python3
"""The lines view in the real window (issue 22 part 2): with View > Weights as lines (kept
in the settings), on attn_weights, pointing at a query token keeps only its lines, a click
pins it (it stays pinned when the mouse leaves), a click on it again lets it go, and
Ctrl+click on two queries selects both for their summed weights.

The window reports the token pointed at and the one pinned in its layout report
(ATTNVIZ_TEST_LAYOUT: the "lines" line, see app/gui/kit/test_hook.h).

usage: lines_window_test.py <attnviz> [--quiet]
"""

import os
import sys
import time

import xdriver


def find_query(s):
    """Scans the left part of the canvas for a point over a query token; returns (x, y, token)."""
    x0, y0, w, h = s.layout().window("Canvas")
    for fy in (0.3, 0.4, 0.5, 0.6):
        for fx in [0.05 + 0.025 * i for i in range(16)]:
            x, y = int(x0 + w * fx), int(y0 + h * fy)
            s.xdo("mousemove", "--window", s.window_id, x, y)
            lay = s.wait_for(lambda l: l.mouse == (float(x), float(y)), 2.0)
            if lay and lay.lines and lay.lines["hovered"].startswith("q"):
                return x, y, lay.lines["hovered"]
    return None


def run(attnviz, log):
    s = xdriver.Session(attnviz, args=["-L", "6", "-E", "8", "-H", "2", "--lang", "en"], log=log)
    os.makedirs(os.path.join(s.tmp, "config", "attnviz"), exist_ok=True)
    with open(os.path.join(s.tmp, "config", "attnviz", "settings.ini"), "w") as f:
        f.write("weights_as=lines\nhint_seen=1\n")
    try:
        s.start_app()
        xdriver.check_draws(s, "at start")  # also puts the pointer over the window
        s.keys("Home")
        for _ in range(12):
            s.keys("Right")
            time.sleep(0.05)
        lay = s.wait_for(lambda l: l.shown and l.shown[0] == "attn_weights", 10.0)
        if lay is None:
            return "did not reach attn_weights: shown %r" % (s.layout().shown,)
        found = find_query(s)
        if found is None:
            return "no query token found under the pointer in the lines view: %r" % (s.layout().lines,)
        x, y, token = found
        log("  pointing at %s" % token)
        s.click(x, y)
        if s.wait_for(lambda l: l.lines and l.lines["pinned"] == token, 5.0) is None:
            return "a click on %s did not pin it: %r" % (token, s.layout().lines)
        x0, y0, w, h = s.layout().window("Canvas")
        s.xdo("mousemove", "--window", s.window_id, int(x0 + w * 0.5), int(y0 + h * 0.95))
        if s.wait_for(lambda l: l.lines and l.lines["hovered"] == "-" and l.lines["pinned"] == token, 5.0) is None:
            return "%s did not stay pinned when the pointer left: %r" % (token, s.layout().lines)
        s.click(x, y)
        if s.wait_for(lambda l: l.lines and l.lines["pinned"] == "-", 5.0) is None:
            return "a second click on %s did not let it go: %r" % (token, s.layout().lines)
        s.click(x, y, modifiers=("ctrl",))
        other = y + 40 if y + 40 < y0 + h * 0.8 else y - 40
        s.click(x, other, modifiers=("ctrl",))
        if s.wait_for(lambda l: l.lines and l.lines["selected"] == "2", 5.0) is None:
            return "Ctrl+click on two queries did not select both: %r" % (s.layout().lines,)
        return xdriver.check_draws(s, "after the lines view") or ""
    except xdriver.AppDied as died:
        return str(died)
    finally:
        s.close()


def main():
    return xdriver.script_main(__doc__, lambda attnviz, log, args: run(attnviz, log), "the lines view: pointing, pinning, letting go and Ctrl+click selection")


if __name__ == "__main__":
    sys.exit(main())
