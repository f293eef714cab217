#!/usr/bin/env python3
"""Giving the lesson (issue 32) in the real window: the interaction defects and features.

Each part starts its own window (its own Xvfb and settings) and waits for the states the
window reports (app/gui/kit/test_hook.h: the "present ...", "lesson ...", "window ..."
and "message ..." lines written by entry.cpp), never for a fixed time:

  screen      `--lesson FILE --presentation` starts full screen, presenting, on slide 1;
              `--screen 5` on Xvfb's one screen is one line on stderr and exit code 2; a
              saved screen that is not connected is said in the window (16)
  keys        on the input slide the first Page Down shows the next slide (12); End and
              Home go to the last and first slide (1); "4", Enter goes to slide 4; G opens
              the grid, Right and Enter pick a slide (17); T restarts the clock (18); C wipes
              a drawing and Ctrl+Z brings it back (11); the lesson opened with --lesson is
              saved with Lesson > Save, drawings on one line each (6)
  add         a cell followed in the window and a drawing made on attn_scores: the slide
              added keeps both, the slide added on the next step keeps the followed cell and
              no drawing (3, 4)
  language    `--lesson head-split.zh-Hans.json` with a clean settings folder, and after
              `--lang zh-Hant` was remembered, speaks zh-Hans (5)

usage: lesson_class_test.py <attnviz> [--quiet] [--only PART] [--screenshot-dir DIR]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

import xdriver
from present_test import drag, present_state

HERE = os.path.dirname(os.path.abspath(__file__))
LESSON = os.path.join(HERE, "..", "..", "fixtures", "lessons", "class_lesson.json")
ZH_LESSON = os.path.join(HERE, "..", "..", "..", "assets", "lessons", "head-split.zh-Hans.json")
CONFIG = ["--lang", "en", "--num-heads", "2", "--hidden-dim", "8", "--seq-len", "5"]


def raw(s):
    try:
        with open(s.layout_path) as f:
            return f.read()
    except OSError:
        return ""


def line_of(s, head):
    """The report's line starting with `head` as a dict of its name/value pairs."""
    for line in raw(s).splitlines():
        parts = line.split(" ")
        if parts[0] == "lesson":  # "lesson <open> slides 5 ...": the first value has no name
            parts = ["lesson", "open"] + parts[1:]
        if parts[0] == head:
            return dict(zip(parts[1::2], parts[2::2]))
    return {}


def messages(s):
    return [l[len("message "):] for l in raw(s).splitlines() if l.startswith("message ")]


def wait_line(s, head, predicate, what, timeout=15.0):
    lay = s.wait_for(lambda l: (lambda d: bool(d) and predicate(d))(line_of(s, head)), timeout)
    if lay is None:
        raise AssertionError("%s: the window reports %s %r" % (what, head, line_of(s, head)))
    return line_of(s, head)


def present(s, predicate, what, timeout=15.0):
    return wait_line(s, "present", lambda d: predicate({k: float(v) for k, v in d.items()}), what, timeout)


def key(s, name, predicate, what, timeout=15.0):
    s.keys(name)
    return present(s, predicate, what, timeout)


def shot(s, shots, name):
    if shots:
        s.save_png(os.path.join(shots, name))


def part_screen(attnviz, log, shots):
    # --screen 5 with one screen: one line, exit code 2, no window.
    s = xdriver.Session(attnviz, args=[], screen=(1024, 768), log=log)
    try:
        done = subprocess.run([attnviz, "--screen", "5", "--lesson", LESSON], env=s.env, capture_output=True, text=True, timeout=60)
        lines = [l for l in done.stderr.splitlines() if l.strip()]
        if done.returncode != 2 or len(lines) != 1 or "--screen 5" not in lines[0]:
            raise AssertionError("--screen 5 gave exit %s and %r" % (done.returncode, lines))
        log("  --screen 5: %s" % lines[0])
        # --presentation with --lesson: full screen and presenting from the first frame.
        s.args = ["--screen", "1", "--presentation", "--lesson", LESSON]
        s.start_app()
        s.xdo("mousemove", "--window", s.window_id, 300, 300)
        wait_line(s, "screen_state", lambda d: d["full_screen"] == "1" and d["screens"] == "1", "--presentation full screen")
        present(s, lambda d: d["presentation"] == 1 and d["slide"] == 0 and d["placed"] > 0, "--presentation on slide 1", 30)
        shot(s, shots, "present_first_slide.png")
        s.close()
        # A screen remembered by name that is not connected now: said over the picture.
        s = xdriver.Session(attnviz, args=["--presentation", "--lesson", LESSON], screen=(1024, 768), log=log)
        config = os.path.join(s.tmp, "config", "attnviz")
        os.makedirs(config, exist_ok=True)
        with open(os.path.join(config, "settings.ini"), "w") as f:
            f.write("present_screen = HDMI-9\n")
        s.start_app()
        if s.wait_for(lambda l: any("HDMI-9" in m for m in messages(s)), 15.0) is None:
            raise AssertionError("a saved screen that is gone was not said: %r" % messages(s))
        shot(s, shots, "screen_gone.png")
        log("  a missing screen is said: %s" % [m for m in messages(s) if "HDMI-9" in m][0])
    finally:
        s.close()


def part_keys(attnviz, log, shots):
    s = xdriver.Session(attnviz, screen=(1024, 768), log=log)
    lesson = os.path.join(s.tmp, "class.json")
    shutil.copy(LESSON, lesson)
    s.args = ["--lang", "en", "--presentation", "--lesson", lesson]
    try:
        s.start_app()
        s.xdo("mousemove", "--window", s.window_id, 300, 300)  # keys follow the pointer (no window manager)
        present(s, lambda d: d["slide"] == 0 and d["placed"] > 0, "the first slide", 30)
        st = wait_line(s, "lesson", lambda d: d["open"] == "1" and d["slides"] == "5", "--lesson opens the lesson for editing")
        log("  --lesson: the Lesson menu has it: %r" % st)
        # 12: slide 1 shows the input, which has no animation: one press shows slide 2.
        key(s, "Next", lambda d: d["slide"] == 1, "the first Page Down on the input slide")
        log("  the first Page Down on the input slide went to slide 2")
        # 1: End and Home go to the last and first slide.
        key(s, "End", lambda d: d["slide"] == 4, "End")
        key(s, "Home", lambda d: d["slide"] == 0, "Home")
        log("  End went to slide 5, Home to slide 1")
        # 17: a number and Enter.
        key(s, "4", lambda d: d["typed"] == 4, "typing 4")
        shot(s, shots, "typed_number.png")
        key(s, "Return", lambda d: d["slide"] == 3 and d["typed"] == 0, "4, Enter")
        log("  4, Enter went to slide 4")
        key(s, "g", lambda d: d["grid"] == 1 and d["choice"] == 3, "G")
        key(s, "Right", lambda d: d["choice"] == 4, "Right in the grid")
        s.wait_for(lambda l: "grid.slide.4" in l.items, 10.0)
        shot(s, shots, "slide_grid.png")
        key(s, "Return", lambda d: d["grid"] == 0 and d["slide"] == 4, "Enter in the grid")
        log("  G, Right, Enter went to slide 5")
        # 18: T starts the clock again.
        before = float(present(s, lambda d: True, "the clock")["started"])
        key(s, "t", lambda d: d["started"] > before + 0.5, "T")  # the lesson started seconds ago
        log("  T restarted the lesson's clock")
        # 11: C wipes the drawings, Ctrl+Z brings them back.
        key(s, "Prior", lambda d: d["slide"] == 3, "Page Up")
        present(s, lambda d: d["placed"] > 0, "slide 4's picture", 20)
        key(s, "d", lambda d: d["pen"] == 1, "D")
        drag(s, present_state(s)[1])
        present(s, lambda d: d["drawings"] == 1, "a drag with the pen")
        key(s, "d", lambda d: d["pen"] == 0, "D again")
        key(s, "c", lambda d: d["drawings"] == 0 and d["wiped"] == 1, "C")
        if s.wait_for(lambda l: any("Ctrl+Z" in m for m in messages(s)), 5.0) is None:
            raise AssertionError("C did not say that Ctrl+Z brings the drawings back: %r" % messages(s))
        shot(s, shots, "wiped.png")
        key(s, "ctrl+z", lambda d: d["drawings"] == 1 and d["wiped"] == 0, "Ctrl+Z after C")
        log("  C wiped the drawing and Ctrl+Z brought it back")
        # 6: the lesson opened with --lesson is saved with Lesson > Save.
        key(s, "Escape", lambda d: d["presentation"] == 0, "Escape")
        s.click_item("lesson.menu")
        s.wait_for(lambda l: l.window("##Menu_") is not None, 5.0)
        if not s.click_item("lesson.menu.save"):
            raise AssertionError("no Lesson > Save")
        wait_line(s, "lesson", lambda d: d["dirty"] == "0", "Lesson > Save")
        deadline = time.time() + 10
        while time.time() < deadline and '"annotations"' not in open(lesson).read():
            time.sleep(0.2)
        text = open(lesson).read()
        saved = json.loads(text)
        drawn = [l for l in text.splitlines() if '"kind":"stroke"' in l]
        if len(drawn) != 1 or len(saved["slides"][3].get("annotations", [])) != 1 or saved.get("minutes") != 45:
            raise AssertionError("Lesson > Save wrote %r" % text[:2000])
        log("  Lesson > Save wrote the drawing on one line: %d characters" % len(drawn[0]))
        err = xdriver.check_draws(s, "after the keys")
        if err:
            raise AssertionError(err)
    finally:
        s.close()


def part_add(attnviz, log, shots):
    s = xdriver.Session(attnviz, args=CONFIG, screen=(1024, 768), log=log)
    path = os.path.join(s.tmp, "made.json")
    try:
        s.start_app()
        s.click_item("lesson.menu")
        s.wait_for(lambda l: l.window("##Menu_") is not None, 5.0)
        s.click_item("lesson.menu.new")
        wait_line(s, "lesson", lambda d: d["open"] == "1", "Lesson > New")
        s.keys("Home")
        s.wait_for(lambda l: l.shown and l.shown[0] == "input", 10.0)
        # input .. attn_scores, one Right at a time, each waited for: a Right pressed while
        # the step still animates completes that animation first (slow frames under load).
        for _ in range(20):
            before = s.layout().shown
            if before and before[0] == "attn_scores":
                break
            s.keys("Right")
            s.wait_for(lambda l: l.shown != before, 5.0)
        lay = s.wait_for(lambda l: "canvas.panel0" in l.items and l.shown and l.shown[0] == "attn_scores", 20.0)
        if lay is None:
            raise AssertionError("the canvas does not show attn_scores (shown %r)" % (s.layout().shown,))
        x0, y0, x1, y1 = lay.items["canvas.panel0"]
        s.click(x0 + (x1 - x0) * 2.5 / 5, y0 + (y1 - y0) * 2.5 / 5)  # (2, 2) of head 0's 5 x 5
        if not s.click_item("follow.follow"):
            raise AssertionError("the inspector has no Follow button")
        s.keys("d")
        present(s, lambda d: d["pen"] == 1, "D")
        placed = present_state(s)[1]
        drag(s, placed)
        present(s, lambda d: d["drawings"] == 1, "a drag with the pen")
        s.keys("d")
        present(s, lambda d: d["pen"] == 0, "D again")
        for n in (1, 2):
            if n == 2:
                s.keys("Right")
                s.wait_for(lambda l: l.shown and l.shown[0] == "attn_scaled", 15.0)
                present(s, lambda d: d["progress"] == 1.0, "the step's animation ends before the screen is captured")
            s.click_item("lesson.menu")
            s.wait_for(lambda l: l.window("##Menu_") is not None, 5.0)
            s.click_item("lesson.menu.add")
            wait_line(s, "lesson", lambda d: d["slides"] == str(n), "Add slide %d" % n)
        s.click_item("lesson.menu")
        s.wait_for(lambda l: l.window("##Menu_") is not None, 5.0)
        s.click_item("lesson.menu.save_as")
        if s.wait_for(lambda l: l.text_input, 5.0) is None:
            raise AssertionError("Save as opened no path field")
        s.keys("ctrl+a")
        s.type_text(path, 10)
        s.keys("Return")
        wait_line(s, "lesson", lambda d: d["dirty"] == "0", "Save as")
        saved = json.load(open(path))
        first, second = saved["slides"]
        log("  saved: %s" % json.dumps([{k: sl.get(k) for k in ("step", "followed")} for sl in saved["slides"]]))
        if not first.get("followed") or len(first.get("annotations", [])) != 1:
            raise AssertionError("the first slide lost the followed cell or the drawing: %r" % first)
        if not second.get("followed") or second.get("annotations"):
            raise AssertionError("the second slide (another step) has %r" % second)
        log("  the followed cell went into both slides, the drawing only into the one on its step")
    finally:
        s.close()


def part_language(attnviz, log, shots):
    s = xdriver.Session(attnviz, args=["--lesson", ZH_LESSON], screen=(1024, 768), log=log)
    try:
        s.start_app()
        wait_line(s, "screen_state", lambda d: d["language"] == "zh-Hans", "a zh-Hans lesson with a clean settings folder")
        s.close()
        s = xdriver.Session(attnviz, args=["--lang", "zh-Hant", "--hidden-dim", "8"], screen=(1024, 768), log=log)
        s.start_app()
        wait_line(s, "screen_state", lambda d: d["language"] == "zh-Hant", "--lang zh-Hant")
        s.app.send_signal(15)
        s.app.wait(20)
        s.args = ["--lesson", ZH_LESSON]
        s.start_app()
        wait_line(s, "screen_state", lambda d: d["language"] == "zh-Hans", "a zh-Hans lesson after --lang zh-Hant was remembered")
        shot(s, shots, "zh_hans_lesson.png")
        s.args = ["--lang", "en", "--lesson", ZH_LESSON]
        s.app.send_signal(15)
        s.app.wait(20)
        s.start_app()
        wait_line(s, "screen_state", lambda d: d["language"] == "en", "--lang en over the lesson's language")
        log("  the window speaks the lesson's language (zh-Hans) unless --lang says otherwise")
    finally:
        s.close()


PARTS = {"screen": part_screen, "keys": part_keys, "add": part_add, "language": part_language}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("attnviz")
    parser.add_argument("--only", choices=sorted(PARTS))
    parser.add_argument("--screenshot-dir")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    log = xdriver.logger(args.quiet)
    started = time.time()
    problem = None
    for name, part in PARTS.items():
        if args.only and name != args.only:
            continue
        log("%s:" % name)
        try:
            part(os.path.abspath(args.attnviz), log, args.screenshot_dir)
        except (AssertionError, RuntimeError, xdriver.AppDied) as e:
            problem = "%s: %s" % (name, e)
            break
    return xdriver.report(problem, started, "the class's keys, screens, slides and language behave (issue 32)")


if __name__ == "__main__":
    sys.exit(main())
