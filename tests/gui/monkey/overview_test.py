#!/usr/bin/env python3
"""Model overview test (issue 22 part 3): the real window on tiny-lm. View > Overview shows a
thumbnail per layer and head; a click on one opens that layer and head on the step that was
on screen; the O key opens the overview again; Ctrl+click on two thumbnails adds their mean.

The window names the View menu, its Overview item and every thumbnail ("overview.<layer>.
<head>", "overview.mean") in its layout report (ATTNVIZ_TEST_LAYOUT, "item" lines), and the
step, enlarged head and layer on screen ("shown"), see app/gui/kit/test_hook.h.

usage: overview_test.py <attnviz> [--quiet]
"""

import sys
import time

import xdriver

LAYERS, HEADS = 2, 4  # tiny-lm (assets/models/tiny-lm.json)


def thumbs(lay):
    return sorted(name for name in lay.items if name.startswith("overview.") and name != "overview.mean")


def open_from_menu(s):
    lay = s.wait_for(lambda l: "menu.view" in l.items, 15.0)
    if lay is None:
        return "the View menu is not in the layout report"
    s.click(*xdriver.centre(lay.items["menu.view"]))
    lay = s.wait_for(lambda l: "menu.view.overview" in l.items, 5.0)
    if lay is None:
        return "View > Overview is not in the open View menu"
    s.click(*xdriver.centre(lay.items["menu.view.overview"]))
    lay = s.wait_for(lambda l: len(thumbs(l)) == LAYERS * HEADS, 20.0)
    if lay is None:
        return "View > Overview did not show %d thumbnails: %r" % (LAYERS * HEADS, thumbs(s.layout()))
    return ""


def click_thumb(s, log, layer, head):
    """Clicks thumbnail (layer, head); the step on screen must stay (check_draws moves it)."""
    lay = s.layout()
    step = lay.shown[0]
    name = "overview.%d.%d" % (layer, head)
    if name not in lay.items:
        return "no thumbnail %s (have %r)" % (name, thumbs(lay))
    s.click(*xdriver.centre(lay.items[name]))
    lay = s.wait_for(lambda l: l.shown == (step, head, layer) and not thumbs(l), 20.0)
    if lay is None:
        now = s.layout()
        return "the click on %s did not open layer %d, head %d on %s: shown %r, thumbnails %d" % (
            name, layer, head, step, now.shown, len(thumbs(now)))
    log("  %s opened: shown %r" % (name, lay.shown))
    return xdriver.check_draws(s, "after the click on " + name) or ""


def run(attnviz, log):
    s = xdriver.Session(attnviz, args=["--model", "tiny-lm", "--lang", "en"], log=log)
    try:
        s.start_app()
        lay = s.wait_for(lambda l: l.shown is not None, 15.0)
        if lay is None:
            return "the window reports no step on screen"
        log("  on screen: %r" % (lay.shown,))
        problem = open_from_menu(s) or click_thumb(s, log, 1, 2)
        if problem:
            return problem
        # The key O opens it again; a layer-0 head then opens layer 0.
        s.defocus()
        s.keys("o")
        if s.wait_for(lambda l: len(thumbs(l)) == LAYERS * HEADS, 20.0) is None:
            return "the O key did not open the overview"
        lay = s.layout()
        for name in ("overview.0.1", "overview.1.3"):
            s.click(*xdriver.centre(lay.items[name]), modifiers=("ctrl",))
            time.sleep(0.2)
        if s.wait_for(lambda l: "overview.mean" in l.items, 10.0) is None:
            return "Ctrl+click on two thumbnails did not add their mean"
        log("  Ctrl+click on two heads: their mean is shown")
        return click_thumb(s, log, 0, 3)
    except xdriver.AppDied as died:
        return str(died)
    finally:
        s.close()


def main():
    return xdriver.script_main(__doc__, lambda attnviz, log, args: run(attnviz, log), "View > Overview showed every head; a click opened its layer and head")


if __name__ == "__main__":
    sys.exit(main())
