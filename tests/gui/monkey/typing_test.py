#!/usr/bin/env python3
"""Typing test: mixed-case text with shifted symbols, typed with xdotool into every text
field of the real window, as fast as xdotool can (--delay 0) and at 10 ms per key.

Issue 7, defect 1: a modifier pressed and released inside one frame while a text field
was active made ImGui abort ("Mismatching io.KeyCtrl ... vs io.KeyMods"). Every field that
takes typed text is visited: the sentence box and each slider or number field (ImGui's tab
stops, turned into text fields by Ctrl+click), the step scrubber, and the path field of
every File menu dialog (Ctrl+A, then a path with underscores, then Enter). Passes when the
process is still alive and still draws (a non-blank screen that changes on Right).

usage: typing_test.py <attnviz> [--delays 0,10] [--repeat N] [--all-texts] [--quiet]
"""

import argparse
import os
import sys
import time

import xdriver

TEXTS = [" The Dog", " Hello World_X Y", " big_dog", '~!@#$%^&*()_+{}|:"<>?']


def type_into_field(s, stop, is_text_box, text, delay, log):
    x0, y0, x1, y1, _ = stop
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if is_text_box:
        s.click(cx, cy)
        s.keys("End")
    else:
        s.click(cx, cy, modifiers=("ctrl",))  # a slider becomes a text field
    s.settle(0.05)
    s.type_text(text, delay)
    s.keys("ctrl+a", "ctrl+c", "ctrl+v", delay_ms=0)
    s.type_text(text.strip(), delay)
    s.keys("ctrl+a")
    s.type_text("/tmp/some_path/with_Underscore", delay)
    s.keys("Escape")  # reverts the field: sizes stay small and the sentence keeps its words
    s.settle(0.05)
    log("  typed %r at --delay %d into the field at (%d, %d)" % (text, delay, cx, cy))


DIALOG_PREFIXES = ("Open ", "Export ", "Keyboard")


def dialog_names(lay):
    return [n for n in lay.windows if n.startswith(DIALOG_PREFIXES)]


def close_dialog(s):
    """Closes an open modal dialog with its title bar's close button."""
    for _ in range(3):
        lay = s.layout()
        names = dialog_names(lay)
        if not names:
            return True
        x, y, w, _ = lay.windows[names[0]]
        title_h = 24
        if lay.focus:
            title_h = lay.focus[3] - lay.focus[1]  # the path field is one frame high, like the title bar
        s.click(x + w - title_h / 2 - 2, y + title_h / 2)
        s.wait_for(lambda l: not dialog_names(l), 2.0)
    return not dialog_names(s.layout())


def dialogs(s, delay, log):
    """Opens every File menu row except the last (Quit) and types into the dialog it opens."""
    bar = s.layout().window("##MainMenuBar")
    file_x = bar[0] + 20
    rows = s.menu_rows(file_x)
    s.close_menus()
    if len(rows) < 2:
        return "the File menu shows fewer than two rows"
    visited = 0
    for i, (x, y, _) in enumerate(rows[:-1]):
        if s.open_menu(file_x) is None:
            return "the File menu did not open"
        s.click(x, y)
        lay = s.wait_for(lambda l: dialog_names(l) or l.window("##Menu_") is None, 3.0)
        titles = dialog_names(lay) if lay else []
        if not titles:
            s.close_menus()
            continue  # a row without a dialog (e.g. "Forget loaded files")
        visited += 1
        title = titles[0]
        text = TEXTS[i % len(TEXTS)]
        s.type_text(text, delay)
        s.keys("ctrl+a", "ctrl+c", "ctrl+v", delay_ms=0)
        s.keys("ctrl+a")
        name = "snap_Shot_%d.png" % i if "snapshot" in title else ("step_%d.csv" % i if "CSV" in title else "dir_%d" % i)
        path = os.path.join(s.tmp, "my_Export_dir", name)
        s.type_text(path, delay)
        s.keys("Return")
        # An export closes its dialog when it is written; an open of a missing file stays.
        s.wait_for(lambda l: not dialog_names(l), 5.0 if title.startswith("Export") else 0.5)
        log("  %s: typed %r, then Ctrl+A and %s, Enter (at --delay %d)" % (title, text, path, delay))
        if not close_dialog(s):
            return "the dialog '%s' could not be closed" % title
    if visited < 4:
        return "only %d File menu rows opened a dialog with a path field" % visited
    return ""


def run(attnviz, delays, repeat, all_texts, log):
    s = xdriver.Session(attnviz, log=log)
    try:
        s.start_app()
        stops = s.tab_stops("Controls")
        if len(stops) < 4:
            return "found only %d text-capable fields in the Controls panel" % len(stops)
        sentence = stops[0]
        fields = [(stop, stop is sentence) for stop in stops]
        fields += [(stop, False) for stop in s.tab_stops("Timeline")]
        log("%d fields: the sentence box, %d sliders/number fields" % (len(fields), len(fields) - 1))
        for _ in range(repeat):
            for d, delay in enumerate(delays):
                # Each field gets one of the texts per delay (all of them with --all-texts).
                for f, (stop, is_text_box) in enumerate(fields):
                    texts = TEXTS if all_texts else [TEXTS[(f + d) % len(TEXTS)]]
                    for text in texts:
                        type_into_field(s, stop, is_text_box, text, delay, log)
                problem = dialogs(s, delay, log)
                if problem:
                    return problem
        problem = xdriver.check_draws(s, "after typing")
        if problem:
            return problem
        rss, hwm = s.memory_kib()
        log("alive and drawing; VmRSS %.0f MiB, VmHWM %.0f MiB" % (rss / 1024, hwm / 1024))
        return ""
    except xdriver.AppDied as died:
        return str(died)
    finally:
        s.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("attnviz")
    parser.add_argument("--delays", default="0,10", help="xdotool type delays in ms, comma-separated")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--all-texts", action="store_true", help="type every text into every field")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    started = time.time()
    log = xdriver.logger(args.quiet)
    problem = run(args.attnviz, [int(d) for d in args.delays.split(",")], args.repeat, args.all_texts, log)
    return xdriver.report(problem, started, "typing into every text field left the window alive and drawing")


if __name__ == "__main__":
    sys.exit(main())
