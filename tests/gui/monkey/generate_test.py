#!/usr/bin/env python3
"""Generate test (issue 30 part 3): in the real window at 1024x768, a trained next-token model
(the induction model on a stretch that repeats) generates tokens as a learner asks: typing a
number of new tokens into the Generate section (too many first: the section says how many
fit, and Generate is refused), pressing Generate, clicking a generated token in the token
strip, then Ctrl+click on the temperature and top-k sliders and typing values, which
generates again with the new settings.

The window says what the Generate section holds ("generate on|off tokens N fits|refused
temperature T top_k K top_p P seed S"), the generated tokens ("generated ..."), the decode
step on screen ("decode_step K made M cache S") and the next-token chart ("next_token step K
drawn ID bar I bars N kept K", or "next_token none step K" on the last token) in its layout
report (ATTNVIZ_TEST_LAYOUT, app/gui/window/test_hook.h), and where each widget is
("item gen.generate ...", "item next_token.bar.0 ...").

usage: generate_test.py <attnviz> [--quiet]
"""

import sys

import xdriver
from token_strip_test import report_value  # the layout report's line after a key

# <bos> and a stretch of six letters, then its first two again: copying continues "p r a f".
PROMPT = "k e p r a f k e"
ARGS = ["--lang", "en", "--model", "induction", "--tokens", PROMPT]


def wait_report(s, key, want, timeout=20.0):
    """Waits until the report's `key` line starts with `want`; '' or what it says instead."""
    if s.wait_for(lambda l: (report_value(s, key) or "").startswith(want), timeout) is None:
        return "wanted %s %r..., the window says %r" % (key, want, report_value(s, key))
    return ""


def type_into(s, log, item, value, ctrl):
    """Clicks the named field (Ctrl+click turns a slider into a text field), selects its text
    and types `value`, then Enter."""
    lay = s.wait_for(lambda l: item in l.items, 10.0)
    if lay is None:
        return "no widget %s in the report" % item
    x0, y0, x1, y1 = lay.items[item]
    # A number field's item is its group (field, -, +, label): its text field is at the left.
    s.click(x0 + 12 if not ctrl else (x0 + x1) / 2, (y0 + y1) / 2, modifiers=("ctrl",) if ctrl else ())
    if s.wait_for(lambda l: l.text_input, 10.0) is None:
        return "the %s field did not take the keyboard" % item
    s.keys("ctrl+a")
    s.type_text(value, 0)
    s.keys("Return")
    log("  typed %s into %s%s" % (value, item, " (Ctrl+click)" if ctrl else ""))
    return ""


def chart_in_strip(s):
    """The chart's first bar lies inside the token strip, which lies above the canvas."""
    lay = s.layout()
    strip, canvas = lay.window("Generation"), lay.window("Canvas")
    bar = lay.items.get("next_token.bar.0")
    if not strip or not canvas or not bar:
        return "no token strip, canvas or chart bar in the report (%r, %r, %r)" % (strip, canvas, bar)
    if not (strip[0] <= bar[0] and bar[2] <= strip[0] + strip[2] + 0.5 and strip[1] <= bar[1] and bar[3] <= strip[1] + strip[3] + 0.5):
        return "the chart's bar %r is outside the token strip %r" % (bar, strip)
    if strip[1] + strip[3] > canvas[1] + 0.5:
        return "the token strip %r reaches into the canvas %r" % (strip, canvas)
    return ""


def run(attnviz, log):
    s = xdriver.Session(attnviz, args=ARGS, screen=(1024, 768), log=log)
    try:
        s.start_app()
        problem = wait_report(s, "generate", "off tokens 8 fits")
        # Too many: 9 tokens (<bos> and eight letters) + 30 > max_len 32; 23 fit.
        problem = problem or type_into(s, log, "gen.tokens", "30", False) or wait_report(s, "generate", "off tokens 30 refused")
        if problem:
            return "typing 30 new tokens: " + problem
        if not s.click_item("gen.generate"):
            return "no Generate button"
        s.settle(0.3)
        if report_value(s, "decode_step") is not None:
            return "Generate ran although 30 tokens do not fit: %r" % report_value(s, "decode_step")
        problem = type_into(s, log, "gen.tokens", "4", False) or wait_report(s, "generate", "off tokens 4 fits")
        if problem:
            return "typing 4 new tokens: " + problem
        # Greedy (the default): the induction model continues the stretch by copying it.
        if not s.click_item("gen.generate"):
            return "no Generate button"
        log("  pressed Generate")
        problem = wait_report(s, "decode_step", "0 made 0 cache 9") or wait_report(s, "generated", "p r a f")
        problem = problem or wait_report(s, "next_token", "step 0 drawn ")
        if problem:
            return "after Generate: " + problem
        problem = chart_in_strip(s)
        if problem:
            return problem
        # The last generated token: its decode step, 13 cached positions, nothing more drawn.
        if not s.click_item("token.12", 15.0):
            return "no chip for the last generated token (items: %r)" % sorted(s.layout().items)
        problem = wait_report(s, "decode_step", "4 made 4 cache 13") or wait_report(s, "next_token", "none step 4")
        if problem:
            return "after clicking the last token: " + problem
        # Sampling: temperature 0.8 and top-k 3 typed into the sliders generate again.
        problem = type_into(s, log, "gen.temperature", "0.8", True) or wait_report(s, "generate", "on tokens 4 fits temperature 0.80")
        problem = problem or type_into(s, log, "gen.top_k", "3", True) or wait_report(s, "generate", "on tokens 4 fits temperature 0.80 top_k 3")
        if problem:
            return "typing the sampling settings: " + problem
        # The window stays on the step it showed (the last one); a prompt token shows the
        # prefill, whose last row drew the first new token under the new settings.
        problem = wait_report(s, "next_token", "none step 4")
        if not problem and not s.click_item("token.3", 15.0):
            problem = "no chip for the prompt token at position 3"
        problem = problem or wait_report(s, "decode_step", "0 made") or wait_report(s, "next_token", "step 0 drawn ")
        if problem:
            return "after the new settings: " + problem
        kept = report_value(s, "next_token").split(" kept ")[-1]
        if int(kept) > 3:
            return "top-k 3 kept %s tokens" % kept
        return chart_in_strip(s) or xdriver.check_draws(s, "after generating") or ""
    except xdriver.AppDied as died:
        return str(died)
    finally:
        s.close()


def main():
    return xdriver.script_main(__doc__, lambda attnviz, log, args: run(attnviz, log),
                               "Generate made each token a decode step in the token strip, with its next-token chart")


if __name__ == "__main__":
    sys.exit(main())
