#!/usr/bin/env python3
"""Makes the README's picture of presenting (assets/screenshot_presenting.png): the shipped
lesson "what trained heads do" on a 1280x720 screen in presentation mode, on its pronoun-head
slide, with the speaker note over the canvas (N), a loop and an arrow drawn with the pen (D,
drag, Shift+drag) and the laser pointer held (L).

usage: present_screenshot.py <attnviz> <out.png>
"""

import math
import os
import sys

import xdriver
from present_test import present_state, wait_state, key_and_wait

HERE = os.path.dirname(os.path.abspath(__file__))
LESSON = os.path.join(HERE, "..", "..", "..", "assets", "lessons", "trained-heads.en.json")


def path_drag(s, points, shift=False):
    s.xdo("mousemove", "--window", s.window_id, int(points[0][0]), int(points[0][1]))
    s.settle(0.1)
    if shift:
        s.xdo("keydown", "shift")
    s.xdo("mousedown", 1)
    s.settle(0.1)
    for x, y in points[1:]:
        s.xdo("mousemove", "--window", s.window_id, int(x), int(y))
        s.settle(0.03)
    s.xdo("mouseup", 1)
    if shift:
        s.xdo("keyup", "shift")
    s.settle(0.3)


def main():
    attnviz, out = sys.argv[1], os.path.abspath(sys.argv[2])
    s = xdriver.Session(attnviz, args=["--lesson", os.path.abspath(LESSON)], screen=(1280, 720))
    try:
        s.start_app()
        s.xdo("mousemove", "--window", s.window_id, 20, 20)
        key_and_wait(s, "p", lambda st: True, "presentation")
        for slide in range(1, 5):  # to the pronoun head: each slide's animation, then the next slide
            s.keys("Next")
            s.settle(0.3)
            key_and_wait(s, "Next", lambda st, n=slide: st["slide"] == n, "slide %d" % (slide + 1), 20.0)
        wait_state(s, lambda st: st["placed"] > 0 and st["progress"] == 1.0, 20.0)
        s.settle(1.0)
        x, y, w, h = present_state(s)[1]
        cell_w, cell_h = w / 9.0, h / 9.0
        key_and_wait(s, "n", lambda st: st["note"] == 1, "N")
        key_and_wait(s, "d", lambda st: st["pen"] == 1, "D")
        key_and_wait(s, "2", lambda st: True, "yellow")
        cx, cy = x + w * 0.5, y + cell_h * 7.5  # a loop round the row of "it"
        # From the top of the loop, which lies on a cell (a drawing starts on the cell under it).
        loop = [(cx + w * 0.53 * math.sin(t / 40.0 * 2 * math.pi), cy - cell_h * 0.7 * math.cos(t / 40.0 * 2 * math.pi))
                for t in range(0, 42)]
        path_drag(s, loop)
        key_and_wait(s, "1", lambda st: True, "red")
        tail, head = (x + cell_w * 5.5, y + cell_h * 4.5), (x + cell_w * 2.6, y + cell_h * 7.2)
        path_drag(s, [tail] + [(tail[0] + (head[0] - tail[0]) * k / 10.0, tail[1] + (head[1] - tail[1]) * k / 10.0)
                               for k in range(1, 11)], shift=True)
        if wait_state(s, lambda st: st["drawings"] == 2) is None:
            sys.exit("the drawings did not arrive: %r" % (present_state(s)[0],))
        # The laser pointer, held, moving onto the weight the arrow points at.
        s.xdo("keydown", "l")
        for k in range(12):
            s.xdo("mousemove", "--window", s.window_id, int(x + cell_w * (4.5 - k * 0.17)), int(y + cell_h * (2.0 + k * 0.1)))
            s.settle(0.02)
        s.save_png(out)
        s.xdo("keyup", "l")
        print("wrote", out)
    finally:
        s.close()


if __name__ == "__main__":
    main()
