#!/usr/bin/env python3
"""Compare mode in the real window (issue 22 part 1): V turns it on, the A/B switch at the
top of the controls changes which side the controls edit, each ready contrast of the
Compare menu sets up A and B (and B's heads or steps change as the contrast says), hovering
a cell of the A - B column gives the inspector all three values, and V turns it off.

The window names the switch's and the menu's rectangles and its compare state in its
layout report (ATTNVIZ_TEST_LAYOUT: "item" and "compare" lines, see app/gui/kit/test_hook.h).

usage: compare_window_test.py <attnviz> [--quiet] [--screenshots DIR]
"""

import os
import sys
import time

import xdriver

# Every contrast of app/gui/state/compare_contrasts.cpp with the step it shows and B's heads
# (the window starts with 2 heads; the trained model has 4).
CONTRASTS = [("scale", "attn_weights", 1), ("heads", "attn_weights", 2), ("stacked", "out", 2), ("fused", "out", 2),
             ("trained", "attn_weights", 4), ("bfloat16", "attn_scores", 2), ("causal", "attn_weights", 2),
             ("rope_offset", "attn_scores", 2)]


def click_item(s, name, timeout=10.0):
    return "" if s.click_item(name, timeout) else "no item %s in the report" % name


def choose_contrast(s, log, contrast, step, b_heads):
    problem = click_item(s, "menu.compare")
    if problem:
        return problem
    problem = click_item(s, "compare.contrast." + contrast, 5.0)
    if problem:
        return problem
    # A worker that has finished may not have handed its result over yet: wait for B's heads too.
    lay = s.wait_for(lambda l: l.compare and l.compare["contrast"] == contrast and l.compare["busy"] == "0" and
                     l.shown and l.shown[0] == step and l.compare["b_heads"] == str(b_heads), 30.0)
    if lay is None:
        return "choosing %s did not show %s: %r, shown %r" % (contrast, step, s.layout().compare, s.layout().shown)
    log("  %s: %r, shown %r" % (contrast, lay.compare, lay.shown))
    if lay.compare["b_heads"] != str(b_heads):
        return "the contrast %s's B has %s heads, not %d" % (contrast, lay.compare["b_heads"], b_heads)
    return ""


def set_heads(s, value):
    """Ctrl+click on the controls' num_heads slider (a text field then), type `value`, Enter."""
    lay = s.wait_for(lambda l: "controls.num_heads" in l.items, 10.0)
    if lay is None:
        return "no num_heads slider in the report"
    s.click(*xdriver.centre(lay.items["controls.num_heads"]), modifiers=("ctrl",))
    if s.wait_for(lambda l: l.text_input, 5.0) is None:
        return "Ctrl+click did not turn the num_heads slider into a text field"
    s.keys("ctrl+a")
    s.type_text(value, 20)
    s.keys("Return")
    return ""


def hover_difference_cell(s):
    """Moves the mouse over the middle of the A - B column's picture; returns the cell flags."""
    canvas = s.layout().window("Canvas")
    if canvas is None:
        return None
    x, y, w, h = canvas
    s.xdo("mousemove", "--window", s.window_id, int(x + w * 5 / 6), int(y + h * 0.3))  # inside head 0 of A - B
    lay = s.wait_for(lambda l: l.compare and l.compare["cell"] == "111", 10.0)
    return lay.compare["cell"] if lay else s.layout().compare


def run(attnviz, log, shots):
    s = xdriver.Session(attnviz, args=["-L", "5", "-E", "8", "-H", "2", "--lang", "en"], log=log, screen=(1920, 1080))
    try:
        s.start_app()
        s.keys("v")
        lay = s.wait_for(lambda l: l.compare is not None and l.compare["edit"] == "b", 10.0)
        if lay is None:
            return "V did not turn compare mode on"
        problem = click_item(s, "compare.switch.a")
        if problem:
            return problem
        if s.wait_for(lambda l: l.compare and l.compare["edit"] == "a", 5.0) is None:
            return "the A switch did not make the controls edit A"
        problem = click_item(s, "compare.switch.b")
        if problem or s.wait_for(lambda l: l.compare and l.compare["edit"] == "b", 5.0) is None:
            return problem or "the B switch did not make the controls edit B"
        # The controls edit B: typing 1 into B's num_heads slider gives B one head, A keeps two.
        problem = set_heads(s, "1")
        if problem:
            return problem
        lay = s.wait_for(lambda l: l.compare and l.compare["b_heads"] == "1" and l.compare["busy"] == "0", 15.0)
        if lay is None or lay.compare["a_heads"] != "2":
            return "typing 1 into B's heads gave %r" % (s.layout().compare,)
        log("  B edited: %r" % lay.compare)
        for contrast, step, b_heads in CONTRASTS:
            problem = choose_contrast(s, log, contrast, step, b_heads)
            if problem:
                return problem
            s.settle(1.0)  # the step's animation ends
            if shots:
                s.save_png(os.path.join(shots, "compare_%s.png" % contrast))
            if contrast in ("scale", "causal"):
                cell = hover_difference_cell(s)
                if cell != "111":
                    return "hovering the A - B column of %s gave the inspector %r, not A, B and A - B" % (contrast, cell)
        problem = xdriver.check_draws(s, "after the contrasts")
        if problem:
            return problem
        s.keys("v")
        if s.wait_for(lambda l: l.compare is None, 5.0) is None:
            return "V did not turn compare mode off"
        return xdriver.check_draws(s, "after compare mode") or ""
    except xdriver.AppDied as died:
        return str(died)
    finally:
        s.close()


def main():
    return xdriver.script_main(__doc__, lambda attnviz, log, args: run(attnviz, log, args.screenshots), "compare mode, its switch, every contrast and the inspector's three values",
                               lambda parser: parser.add_argument("--screenshots", default=""))


if __name__ == "__main__":
    sys.exit(main())
