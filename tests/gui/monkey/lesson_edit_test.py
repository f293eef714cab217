#!/usr/bin/env python3
"""Lesson edit test (issue 20 part 2): the real window makes a lesson with clicks and keys
(Lesson > New, Add slide on two steps, a title and a note typed into the slide list, Move
up and down, a drag in the slide list, Ctrl+Z and Ctrl+Shift+Z, Save as through the path
dialog), the file is checked; New with an unsaved slide asks first; the file is opened again
with Lesson > Open and presented with Page Down, each slide's step and picture checked; and
Ctrl+Q with an unsaved slide asks before the window closes.

The window names the Lesson menu's items and the slide list's rows in its layout report
("item" lines) and the lesson's state in a "lesson ..." line (app/gui/window/entry.cpp).

usage: lesson_edit_test.py <attnviz> [--quiet]
"""

import json
import os
import sys
import time

import xdriver


def lesson_state(lay_text):
    for line in lay_text.splitlines():
        if line.startswith("lesson "):
            p = line.split(" ")
            return dict(open=p[1] == "1", slides=int(p[3]), current=int(p[5]), dirty=p[7] == "1",
                        presenting=p[9] == "1", slide=int(p[11]))
    return None


def raw(s):
    try:
        with open(s.layout_path) as f:
            return f.read()
    except OSError:
        return ""


def wait_lesson(s, pred, timeout=20.0):
    return s.wait_for(lambda l: (lambda st: st is not None and pred(st))(lesson_state(raw(s))), timeout)


def click_item(s, name, timeout=5.0):
    if not s.click_item(name, timeout):
        raise RuntimeError("no %s on screen (items: %r)" % (name, sorted(s.layout().items)))


def menu(s, name):
    """Lesson > name."""
    click_item(s, "lesson.menu")
    s.wait_for(lambda l: l.window("##Menu_") is not None, 3.0)
    click_item(s, name)
    s.settle(0.3)


def run(attnviz, log):
    s = xdriver.Session(attnviz, args=["--lang", "en", "--num-heads", "2", "--hidden-dim", "8"], log=log)
    path = os.path.join(s.tmp, "made", "lesson.json")
    try:
        s.start_app()
        menu(s, "lesson.menu.new")
        if wait_lesson(s, lambda st: st["open"] and st["slides"] == 0) is None:
            return "Lesson > New did not open an empty lesson"
        s.keys("Home")
        s.settle(1.5)  # the step's animation ends
        first = s.wait_for(lambda l: l.shown is not None, 10).shown[0]
        menu(s, "lesson.menu.add")
        if wait_lesson(s, lambda st: st["slides"] == 1) is None:
            return "Add slide did not add a slide"
        s.keys("Right")
        second = s.wait_for(lambda l: l.shown is not None and l.shown[0] != first, 10)
        if second is None:
            return "Right did not move to the next step"
        second = second.shown[0]
        s.settle(1.5)  # the step's animation ends
        menu(s, "lesson.menu.add")
        if wait_lesson(s, lambda st: st["slides"] == 2 and st["current"] == 1 and st["dirty"]) is None:
            return "the second Add slide did not add a slide after the first"
        log("  two slides: %s, %s" % (first, second))
        click_item(s, "lesson.list.title")
        s.keys("ctrl+a")
        s.type_text("Projection", 20)
        click_item(s, "lesson.list.note")
        s.type_text("Each row times each column", 20)
        # Leave the field by clicking the list's title bar (Escape would revert the typing).
        x, y, w, h = s.layout().window("Slides")
        s.click(x + w / 2, y + 4)
        s.settle(0.5)
        # Drag the second slide onto the first: it takes the first place.
        lay = s.wait_for(lambda l: "lesson.slide.0" in l.items and "lesson.slide.1" in l.items, 5.0)
        if lay is None:
            return "the slide list shows no two rows"
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = lay.items["lesson.slide.0"], lay.items["lesson.slide.1"]
        s.xdo("mousemove", "--window", s.window_id, int((bx0 + bx1) / 2), int((by0 + by1) / 2))
        s.xdo("mousedown", 1)
        for t in range(1, 11):
            y = (by0 + by1) / 2 + ((ay0 + ay1) / 2 - (by0 + by1) / 2) * t / 10
            s.xdo("mousemove", "--window", s.window_id, int((bx0 + bx1) / 2), int(y))
            s.settle(0.05)
        s.xdo("mouseup", 1)
        if wait_lesson(s, lambda st: st["current"] == 0) is None:
            return "dragging the second slide onto the first did not move it"
        s.keys("ctrl+z")
        if wait_lesson(s, lambda st: st["current"] == 1) is None:
            return "Ctrl+Z did not undo the move"
        s.keys("ctrl+shift+z")
        if wait_lesson(s, lambda st: st["current"] == 0) is None:
            return "Ctrl+Shift+Z did not redo the move"
        menu(s, "lesson.menu.move_down")
        if wait_lesson(s, lambda st: st["current"] == 1) is None:
            return "Move down did not move the current slide down"
        menu(s, "lesson.menu.move_up")
        if wait_lesson(s, lambda st: st["current"] == 0) is None:
            return "Move up did not move the current slide up"
        menu(s, "lesson.menu.save_as")
        if s.wait_for(lambda l: l.text_input, 5.0) is None:
            return "Save as opened no path field"
        s.keys("ctrl+a")
        s.type_text(path, 10)
        s.keys("Return")
        s.settle(0.5)
        lay = s.wait_for(lambda l: l.window("Folder") is not None or os.path.exists(path), 5.0)
        if not os.path.exists(path):
            s.keys("Return")  # "create folder made?"
        if wait_lesson(s, lambda st: not st["dirty"]) is None or not os.path.exists(path):
            return "Save as did not write %s" % path
        with open(path) as f:
            saved = json.load(f)
        titles = [sl["title"] for sl in saved["slides"]]
        steps = [sl.get("step") for sl in saved["slides"]]
        log("  saved: %r %r" % (titles, steps))
        if titles[0] != "Projection" or saved["slides"][0].get("note") != "Each row times each column":
            return "the typed title and note are not the first slide's: %r" % saved["slides"]
        if steps != [second, first]:
            return "the slides' steps are %r, wanted %r" % (steps, [second, first])
        # Lesson > Export slides as pictures: one PNG per slide in a new folder beside the file.
        pictures = os.path.join(s.tmp, "made", "lesson_slides")
        menu(s, "lesson.menu.export_pictures")
        deadline = time.time() + 60
        while time.time() < deadline and not (os.path.isdir(pictures) and
                                              len([f for f in os.listdir(pictures) if f.endswith(".png")]) == 2):
            time.sleep(0.5)
        written = sorted(os.listdir(pictures)) if os.path.isdir(pictures) else []
        log("  pictures: %r" % written)
        if len([f for f in written if f.endswith(".png")]) != 2 or not written[0].startswith("01_"):
            return "Export slides as pictures wrote %r into %s, not two slide pictures" % (written, pictures)
        # An unsaved slide: New asks first; Discard goes on.
        menu(s, "lesson.menu.add")
        if wait_lesson(s, lambda st: st["slides"] == 3 and st["dirty"]) is None:
            return "Add slide after saving did not add an unsaved slide"
        menu(s, "lesson.menu.new")
        if s.wait_for(lambda l: "lesson.dialog.unsaved.discard" in l.items, 5.0) is None:
            return "New with an unsaved slide did not ask first"
        if (lesson_state(raw(s)) or {}).get("slides") != 3:
            return "New went on before the question was answered"
        click_item(s, "lesson.dialog.unsaved.discard")
        if wait_lesson(s, lambda st: st["slides"] == 0 and not st["dirty"]) is None:
            return "Discard did not go on to the new lesson"
        menu(s, "lesson.menu.open")
        if s.wait_for(lambda l: l.text_input, 5.0) is None:
            return "Open opened no path field"
        s.keys("ctrl+a")
        s.type_text(path, 10)
        s.keys("Return")
        if wait_lesson(s, lambda st: st["slides"] == 2 and not st["dirty"]) is None:
            return "Lesson > Open did not open the two slides again"
        menu(s, "lesson.menu.present")
        for index, step in enumerate([second, first]):
            if index:
                s.keys("Next")
            lay = s.wait_for(lambda l: l.shown is not None and l.shown[0] == step and
                             (lesson_state(raw(s)) or {}).get("slide") == index, 15.0)
            if lay is None:
                return "presenting slide %d did not show step %s (shown %r)" % (index + 1, step, s.layout().shown)
            problem = xdriver.check_draws(s, "presenting slide %d" % (index + 1))
            if problem:
                return problem
            log("  presenting slide %d: %s" % (index + 1, step))
        # Quitting with an unsaved slide asks first; Discard closes the window.
        s.keys("Escape")
        if wait_lesson(s, lambda st: not st["presenting"]) is None:
            return "Escape did not end presenting"
        menu(s, "lesson.menu.add")
        wait_lesson(s, lambda st: st["dirty"])
        s.keys("ctrl+q")
        if s.wait_for(lambda l: "lesson.dialog.unsaved.discard" in l.items, 5.0) is None:
            return "Ctrl+Q with an unsaved slide did not ask first"
        try:
            click_item(s, "lesson.dialog.unsaved.discard")
        except xdriver.AppDied:
            pass  # the window closed at once, as asked
        try:
            code = s.app.wait(10)
        except Exception:
            return "Discard after Ctrl+Q did not close the window"
        if code != 0:
            return "the window ended with %s after Discard" % code
    except xdriver.AppDied as died:
        return str(died)
    except RuntimeError as e:
        return str(e)
    finally:
        s.close()
    return ""


def main():
    return xdriver.script_main(__doc__, lambda attnviz, log, args: run(attnviz, log), "a lesson made with clicks and keys saved, opened again and presented")


if __name__ == "__main__":
    sys.exit(main())
