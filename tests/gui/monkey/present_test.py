#!/usr/bin/env python3
"""Presenting test (issue 20, parts 3 and 4): the real window presents a two-slide lesson.

`attnviz --lesson tests/fixtures/lessons/present_window.json`, in presentation mode (P):
Page Down first plays the slide's step animation (the slide stays, the moment moves), then
goes to the next slide; B blanks the screen (a black screenshot) and any key brings it back;
N shows the speaker note over the canvas; D turns the pen on, a mouse drag draws a stroke and
a Shift+drag an arrow, Ctrl+Z undoes one, the drawings stay with their slide when the
presenter goes back and forth, and C clears them. The window's state is read from its test
report (app/gui/kit/test_hook.h, the "present ..." line written by entry.cpp).

usage: present_test.py <attnviz> [--lesson FILE] [--quiet] [--screenshot PNG]
"""

import argparse
import os
import subprocess
import sys
import time

import xdriver

HERE = os.path.dirname(os.path.abspath(__file__))
LESSON = os.path.join(HERE, "..", "..", "fixtures", "lessons", "present_window.json")


def present_state(s):
    """The "present ..." line of the report as a dict of numbers, and the first placed
    matrix's rectangle (x, y, w, h), or ({}, None) before the first frame."""
    state, placed = {}, None
    try:
        with open(s.layout_path) as f:
            lines = f.read().splitlines()
    except OSError:
        return state, placed
    for line in lines:
        parts = line.split(" ")
        if parts[0] == "present":
            state = {parts[i]: float(parts[i + 1]) for i in range(1, len(parts) - 1, 2)}
        elif parts[0] == "placed_first" and len(parts) == 5:
            placed = tuple(float(v) for v in parts[1:])
    return state, placed


def wait_state(s, predicate, timeout=10.0):
    lay = s.wait_for(lambda l: present_state(s)[0] and predicate(present_state(s)[0]), timeout)
    return present_state(s)[0] if lay is not None else None


def drag(s, placed, shift=False):
    """Presses inside the first placed matrix and drags across it in small moves."""
    x, y, w, h = placed
    start = (x + w * 0.3, y + h * 0.3)
    s.xdo("mousemove", "--window", s.window_id, int(start[0]), int(start[1]))
    s.settle(0.1)
    if shift:
        s.xdo("keydown", "shift")
    s.xdo("mousedown", 1)
    s.settle(0.1)
    for k in range(1, 9):
        s.xdo("mousemove", "--window", s.window_id, int(start[0] + w * 0.05 * k), int(start[1] + h * 0.04 * k))
        s.settle(0.05)
    s.xdo("mouseup", 1)
    if shift:
        s.xdo("keyup", "shift")
    s.settle(0.2)


def dark_fraction(rgb):
    dark = total = 0
    for i in range(0, len(rgb) - 3, 3 * 499):
        total += 1
        dark += rgb[i] < 8 and rgb[i + 1] < 8 and rgb[i + 2] < 8
    return dark / max(1, total)


def key_and_wait(s, key, predicate, what, timeout=10.0):
    s.keys(key)
    state = wait_state(s, predicate, timeout)
    if state is None:
        raise AssertionError("%s: the window reports %r" % (what, present_state(s)[0]))
    return state


def notes_window(attnviz, lesson, log, screenshot):
    """With a second screen the note goes to a window of its own (app/gui/window/notes_window.h)
    once P makes the lesson a presentation; ATTNVIZ_NOTES_WINDOW=1 opens it on Xvfb's single
    screen. It must appear, show text and survive slide changes."""
    s = xdriver.Session(attnviz, args=["--lesson", lesson], log=log)
    try:
        s.env["ATTNVIZ_NOTES_WINDOW"] = "1"
        s.start_app()
        s.xdo("mousemove", "--window", s.window_id, 200, 200)
        s.keys("p")  # the notes window opens once the lesson is presented full screen
        s.window_id = None
        for _ in range(50):
            found = subprocess.run(["xdotool", "search", "--name", "speaker notes"], env=s.env,
                                   capture_output=True, text=True).stdout.split()
            mains = subprocess.run(["xdotool", "search", "--name", "^AttnViz - "], env=s.env,
                                   capture_output=True, text=True).stdout.split()
            if found and mains:
                break
            time.sleep(0.2)
        if not found or not mains:
            return "no speaker notes window beside the main window (found %r, %r)" % (found, mains)
        s.window_id = mains[0]
        s.xdo("mousemove", "--window", s.window_id, 200, 200)
        key_and_wait(s, "Next", lambda st: True, "Page Down with the notes window")
        key_and_wait(s, "Next", lambda st: st["slide"] == 1, "the next slide with the notes window", 20.0)
        s.settle(1.0)
        if screenshot:
            s.save_png(screenshot)
        log("  the speaker notes window opened and the slides still move")
        return None
    except AssertionError as e:
        return str(e)
    finally:
        s.close()


def run(attnviz, lesson, log, screenshot):
    s = xdriver.Session(attnviz, args=["--lesson", lesson], log=log)
    try:
        s.start_app()
        s.xdo("mousemove", "--window", s.window_id, 200, 200)  # keys follow the pointer (no window manager)
        if wait_state(s, lambda st: st["slide"] == 0 and st["placed"] > 0, 20.0) is None:
            return "the lesson's first slide never showed (report %r)" % (present_state(s)[0],)
        key_and_wait(s, "p", lambda st: True, "presentation")
        s.settle(1.0)
        st = wait_state(s, lambda st: abs(st["progress"] - 0.5) < 0.01)
        if st is None:
            return "the first slide is not at its moment 0.5: %r" % (present_state(s)[0],)
        # Page Down: the animation plays (the moment moves on), the slide stays.
        st = key_and_wait(s, "Next", lambda st: st["progress"] > 0.5, "first Page Down")
        if st["slide"] != 0:
            return "the first Page Down left the slide before playing its animation"
        key_and_wait(s, "Next", lambda st: st["slide"] == 1, "second Page Down")
        if wait_state(s, lambda st: st["placed"] > 0 and st["progress"] == 1.0, 20.0) is None:
            return "the second slide's picture never came"
        log("  Page Down played the animation, then moved to slide 2")
        # B: black; any key: back.
        key_and_wait(s, "b", lambda st: st["blank"] == 1, "B")
        s.settle(0.5)
        if dark_fraction(s.screenshot()) < 0.95:
            return "B did not blank the screen"
        key_and_wait(s, "x", lambda st: st["blank"] == 0, "a key after B")
        s.settle(0.5)
        if dark_fraction(s.screenshot()) > 0.9:
            return "the screen stayed black after a key"
        log("  B blanked the screen, a key brought it back")
        # N: the note over the canvas.
        key_and_wait(s, "n", lambda st: st["note"] == 1, "N")
        if s.wait_for(lambda l: l.window("##present_note") is not None, 5.0) is None:
            return "N showed no note window"
        # D: the pen; a drag draws, a Shift+drag draws an arrow.
        key_and_wait(s, "d", lambda st: st["pen"] == 1, "D")
        placed = present_state(s)[1]
        if placed is None:
            return "the window reports no placed matrix to draw on"
        drag(s, placed)
        if wait_state(s, lambda st: st["drawings"] == 1) is None:
            return "a drag with the pen drew nothing: %r" % (present_state(s)[0],)
        drag(s, placed, shift=True)
        if wait_state(s, lambda st: st["drawings"] == 2) is None:
            return "a Shift+drag drew no arrow: %r" % (present_state(s)[0],)
        if screenshot:
            s.save_png(screenshot)
        key_and_wait(s, "ctrl+z", lambda st: st["drawings"] == 1, "Ctrl+Z with the pen on")
        log("  the pen drew a stroke and an arrow, Ctrl+Z undid one")
        # The drawing stays with its slide.
        key_and_wait(s, "Prior", lambda st: st["slide"] == 0, "Page Up")
        if wait_state(s, lambda st: st["drawings"] == 0, 20.0) is None:
            return "the first slide shows the second slide's drawing"
        s.keys("Next")  # plays the first slide's animation
        s.settle(0.3)
        key_and_wait(s, "Next", lambda st: st["slide"] == 1, "Page Down back to slide 2")
        if wait_state(s, lambda st: st["drawings"] == 1, 20.0) is None:
            return "the second slide lost its drawing after going back and forth: %r" % (present_state(s)[0],)
        key_and_wait(s, "c", lambda st: st["drawings"] == 0, "C")
        log("  drawings stayed with their slide, C cleared them")
        return xdriver.check_draws(s, "after presenting") or None
    except AssertionError as e:
        return str(e)
    finally:
        s.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("attnviz")
    parser.add_argument("--lesson", default=LESSON)
    parser.add_argument("--screenshot", help="save the screen with the note and the pen's drawings here")
    parser.add_argument("--notes-window", action="store_true", help="check the speaker's own window instead")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    log = xdriver.logger(args.quiet)
    started = time.time()
    if args.notes_window:
        problem = notes_window(args.attnviz, os.path.abspath(args.lesson), log, args.screenshot)
        return xdriver.report(problem, started, "the speaker notes window opened beside a presented lesson")
    problem = run(args.attnviz, os.path.abspath(args.lesson), log, args.screenshot)
    return xdriver.report(problem, started, "a lesson presented with Page Down, B, N, the pen, Ctrl+Z and C")


if __name__ == "__main__":
    sys.exit(main())
