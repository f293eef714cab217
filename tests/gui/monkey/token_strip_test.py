#!/usr/bin/env python3
"""Token strip test (issue 30 part 2): the real window with --decode-from shows the prompt
and the decoded tokens above the canvas; a click on a token shows that decode step's trace
(the steps between made against the kept cache, the prefill never again), a click on an
earlier token shows its kept step, and the cache view outlines the row that step appended.

The window names each token's chip ("item token.<position>") and says which decode step is
on screen, how many are made and how many positions the cache holds ("decode_step K made M
cache S"), which step and head are shown ("shown ...") and which cache rows the canvas
outlines ("cache_rows first last of rows") in its layout report (ATTNVIZ_TEST_LAYOUT,
app/gui/window/test_hook.h).

usage: token_strip_test.py <attnviz> [--quiet]
"""

import sys

import xdriver

# L = 6: the prefill of rows 0..2, then decode steps 1..3 for positions 3, 4 and 5.
ARGS = ["--lang", "en", "--tokens", "the cat sat on the mat", "-E", "8", "-H", "4", "--num-kv-heads", "2",
        "--mask", "causal", "--rope", "--decode-from", "3"]


def report_value(s, key):
    """The words after `key` on its line of the layout report, or None."""
    try:
        with open(s.layout_path) as f:
            for line in f.read().splitlines():
                if line.startswith(key + " "):
                    return line[len(key) + 1:]
    except OSError:
        pass
    return None


def wait_decode(s, step, made, cache, timeout=20.0):
    want = "%d made %d cache %d" % (step, made, cache)
    if s.wait_for(lambda l: report_value(s, "decode_step") == want, timeout) is None:
        return "wanted decode_step %s, the window says %r" % (want, report_value(s, "decode_step"))
    return ""


def click_token(s, log, position):
    if not s.click_item("token.%d" % position, 15.0):
        return "no chip for the token at position %d (items: %r)" % (position, sorted(s.layout().items))
    log("  clicked the token at position %d" % position)
    return ""


def go_to_step(s, name, limit=40):
    """Presses Page Down until step `name` is on screen (from the first step). Without a
    window manager the keyboard follows the pointer: it rests on the menu bar's empty end."""
    bar = s.layout().window("##MainMenuBar")
    s.xdo("mousemove", "--window", s.window_id, int(bar[0] + min(bar[2] - 5, 400)) if bar else 5, int(bar[1] + 2) if bar else 5)
    s.keys("Home")
    for _ in range(limit):
        lay = s.wait_for(lambda l: l.shown is not None, 10.0)
        if lay and lay.shown[0] == name:
            return ""
        before = lay.shown[0] if lay else None
        s.keys("Next")
        s.wait_for(lambda l: l.shown is not None and l.shown[0] != before, 10.0)
    return "step %s never came on screen (shown: %r)" % (name, s.layout().shown)


def run(attnviz, log):
    s = xdriver.Session(attnviz, args=ARGS, log=log)
    try:
        s.start_app()
        # The worker's first result: the prefill, no decode step made yet, three rows cached.
        problem = wait_decode(s, 0, 0, 3)
        if problem:
            return "at start: " + problem
        problem = go_to_step(s, "k_cache")
        if problem:
            return problem
        if s.wait_for(lambda l: report_value(s, "cache_rows") == "0 2 of 3", 10.0) is None:
            return "the prefill's cache view outlines %r, not rows 0..2" % report_value(s, "cache_rows")
        # The last token: steps 1..3 made against the cache, the cache grows to six rows.
        problem = click_token(s, log, 5) or wait_decode(s, 3, 3, 6)
        if problem:
            return "after the last token: " + problem
        if s.wait_for(lambda l: report_value(s, "cache_rows") == "5 5 of 6", 10.0) is None:
            return "decode step 3's cache view outlines %r, not the new row 5" % report_value(s, "cache_rows")
        if s.layout().shown[0] != "k_cache":
            return "the step on screen changed with the token: %r" % (s.layout().shown,)
        # An earlier token: its kept step, nothing made, its cache of five rows.
        problem = click_token(s, log, 4) or wait_decode(s, 2, 3, 5)
        if problem:
            return "after an earlier token: " + problem
        if s.wait_for(lambda l: report_value(s, "cache_rows") == "4 4 of 5", 10.0) is None:
            return "decode step 2's cache view outlines %r, not the new row 4" % report_value(s, "cache_rows")
        # A prompt token: the prefill again, as it was kept.
        problem = click_token(s, log, 1) or wait_decode(s, 0, 3, 3)
        if problem:
            return "after a prompt token: " + problem
        return xdriver.check_draws(s, "after the token strip's clicks") or ""
    except xdriver.AppDied as died:
        return str(died)
    finally:
        s.close()


def main():
    return xdriver.script_main(__doc__, lambda attnviz, log, args: run(attnviz, log),
                               "the token strip's clicks showed each decode step against the kept cache, and the cache view its new row")


if __name__ == "__main__":
    sys.exit(main())
