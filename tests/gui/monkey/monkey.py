#!/usr/bin/env python3
"""Monkey test: seeded random user actions on the real window under a private Xvfb.

Every kind of input a user has: keys with and without modifiers, mixed-case text with
symbols typed into text fields, clicks and Ctrl+clicks anywhere, drags on sliders and on
the splitter bars between panels, the mouse wheel, menus opened and their rows clicked,
the window resized down to a few pixels and back, hidden and shown again (unmapped: bare
Xvfb has no window manager to minimise it), presentation mode and full screen on and off.

Passes when the window never dies (a clean exit through File > Quit is restarted and
counted; Ctrl+Q is never sent), still draws at every checkpoint and at the end (a
non-blank screen that changes when Right is pressed), and its peak resident memory
(VmHWM) stays under --rss-limit-mib.

Sizes stay teachable: typed numbers are 1..64 and slider drags on the size sliders stay in
their left half (1..~32 on the logarithmic scale), so the memory bound measures leaks, not
a 1024 x 1024 trace a user asked for.

usage: monkey.py <attnviz> [--actions N] [--seed S] [--checkpoints K] [--rss-limit-mib M]
A failure prints the seed and the last actions; rerun with the same --seed to replay.
"""

import argparse
import os
import random
import sys
import time

import xdriver

# Generous: the default window settles near 160 MiB (Mesa's llvmpipe included); a leak of a
# trace or a texture per action would pass this within a few hundred actions.
DEFAULT_RSS_LIMIT_MIB = 600

KEYS = ["Right", "Left", "space", "Home", "End", "Next", "Prior", "Tab", "Escape", "Return", "BackSpace",
        "Delete", "Up", "Down", "a", "c", "v", "x", "z", "e", "h", "1", "5", "0", "minus", "period",
        "underscore", "F1", "F10", "Insert"]
MODIFIERS = ["", "", "", "ctrl+", "shift+", "alt+", "ctrl+shift+", "super+"]
# No "/" (a path typed after Ctrl+A stays relative, inside the test's own folder).
TEXT_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.,:;!?@#$%^&*()+={}[]|\"'<>~`"
WORDS = ["The", "Dog", "big_dog", "Hello", "World_X", "cat", "sat", "Mat", "ON", "the"]


def press(button, times=1):
    """xdotool commands for clicks: mousedown/mouseup, as `click` sleeps 0.1 s each."""
    return ["mousedown", button, "mouseup", button] * times


class Monkey:
    def __init__(self, session, seed, log):
        self.s = session
        self.rng = random.Random(seed)
        self.seed = seed
        self.done = 0
        self.log = log
        self.history = []
        self.fields = []          # tab stops of the Controls and Timeline panels
        self.quits = 0
        self.peak_hwm_kib = 0
        self.actions = [
            (14, self.key), (12, self.type_into_field), (12, self.click), (5, self.ctrl_click),
            (9, self.drag_slider), (4, self.drag_splitter), (7, self.wheel), (7, self.menu),
            (3, self.resize), (2, self.hide_and_show), (3, self.presentation), (1, self.full_screen),
            (4, self.type_anywhere), (3, self.step_keys),
        ]
        self.total_weight = sum(w for w, _ in self.actions)

    # --- helpers -----------------------------------------------------------------------
    def note(self, text):
        self.history.append(text)
        if len(self.history) > 40:
            self.history.pop(0)

    def win(self):
        return self.s.window_id

    def point(self):
        """A random point inside the part of the window the screen shows."""
        lay = self.s.layout()
        bar = lay.window("##MainMenuBar") or lay.window("Canvas") or (0, 0, 800, 600)
        w = min(xdriver.SCREEN_W, max(bar[0] + bar[2], 50))
        max_y = max((r[1] + r[3] for r in lay.windows.values()), default=600)
        return self.rng.uniform(0, w - 1), self.rng.uniform(0, min(max_y, xdriver.SCREEN_H) - 1)

    def text(self):
        if self.rng.random() < 0.5:
            return " " + " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(1, 3)))
        return "".join(self.rng.choice(TEXT_CHARS) for _ in range(self.rng.randint(1, 16)))

    def chain(self, *args):
        self.s.stream(*args)

    def refresh_fields(self):
        self.s.defocus()
        if self.s.layout().window("Controls") is None:
            self.fields = []
            return
        self.fields = self.s.tab_stops("Controls") + self.s.tab_stops("Timeline")

    # --- actions -------------------------------------------------------------------------
    def key(self):
        combo = self.rng.choice(MODIFIERS) + self.rng.choice(KEYS)
        self.note("key " + combo)
        self.chain("key", "--delay", self.rng.choice([0, 0, 5]), combo)

    def step_keys(self):
        keys = [self.rng.choice(["Right", "Left", "Next", "Prior", "space"]) for _ in range(self.rng.randint(2, 8))]
        self.note("keys " + " ".join(keys))
        self.chain("key", "--delay", self.rng.choice([0, 30]), *keys)

    def type_into_field(self):
        if not self.fields:
            return self.type_anywhere()
        x0, y0, x1, y1, _ = self.rng.choice(self.fields)
        x, y = self.rng.uniform(x0 + 2, x1 - 2), (y0 + y1) / 2
        ctrl = self.rng.random() < 0.6
        text = self.text()
        if self.rng.random() < 0.3:
            text = str(self.rng.randint(1, 64))  # a number a slider accepts
        finish = self.rng.choice(["Return", "Escape", "Tab", "shift+Tab", ""])
        self.note("%s (%d, %d), type %r, %s" % ("ctrl+click" if ctrl else "click", x, y, text, finish or "-"))
        args = ["mousemove", "--window", self.win(), int(x), int(y)]
        args += ["keydown", "ctrl"] + press(1) + ["keyup", "ctrl"] if ctrl else press(1)
        if self.rng.random() < 0.3:
            args += ["key", "--delay", "0", "ctrl+a", "ctrl+c", "ctrl+v"]
        args += ["key", "--delay", str(self.rng.choice([0, 0, 3, 10]))] + xdriver.keysyms(text)
        self.chain(*args)
        if finish:
            self.chain("key", finish)

    def type_anywhere(self):
        text = self.text()
        self.note("type %r" % text)
        self.chain("key", "--delay", self.rng.choice([0, 10]), *xdriver.keysyms(text))

    def click(self):
        x, y = self.point()
        button = self.rng.choice([1, 1, 1, 3])
        double = self.rng.random() < 0.15
        self.note("click%s %d at (%d, %d)" % (" x2" if double else "", button, x, y))
        self.chain("mousemove", "--window", self.win(), int(x), int(y), *press(button, 2 if double else 1))

    def ctrl_click(self):
        x, y = self.point()
        self.note("ctrl+click (%d, %d)" % (x, y))
        self.chain("mousemove", "--window", self.win(), int(x), int(y), "keydown", "ctrl", *press(1), "keyup", "ctrl")

    def drag(self, x0, y0, x1, y1, steps):
        args = ["mousemove", "--window", self.win(), int(x0), int(y0), "mousedown", "1"]
        for i in range(1, steps + 1):
            args += ["mousemove", "--window", self.win(), int(x0 + (x1 - x0) * i / steps), int(y0 + (y1 - y0) * i / steps),
                     "sleep", "0.01"]
        args += ["mouseup", "1"]
        self.chain(*args)

    def drag_slider(self):
        if not self.fields:
            return self.click()
        x0, y0, x1, y1, _ = self.rng.choice(self.fields[1:] or self.fields)
        y = (y0 + y1) / 2
        # Left half only: the size sliders are logarithmic up to 1024.
        a = self.rng.uniform(x0, x0 + (x1 - x0) * 0.5)
        b = self.rng.uniform(x0, x0 + (x1 - x0) * 0.5)
        self.note("drag slider (%d, %d) -> (%d, %d)" % (a, y, b, y))
        self.drag(a, y, b, y, self.rng.randint(1, 6))

    def drag_splitter(self):
        lay = self.s.layout()
        bars = [r for n, r in lay.windows.items() if n.startswith("##split")]
        if not bars:
            return self.click()
        x, y, w, h = self.rng.choice(bars)
        cx, cy = x + w / 2, y + min(h, 600) / 2
        dx, dy = (self.rng.uniform(-300, 300), 0) if h > w else (0, self.rng.uniform(-300, 300))
        self.note("drag splitter (%d, %d) by (%d, %d)" % (cx, cy, dx, dy))
        self.drag(cx, cy, cx + dx, cy + dy, self.rng.randint(2, 8))

    def wheel(self):
        x, y = self.point()
        button = self.rng.choice([4, 5, 6, 7])
        n = self.rng.randint(1, 6)
        mod = self.rng.choice(["", "", "ctrl", "shift"])
        self.note("wheel %d x%d %s at (%d, %d)" % (button, n, mod, x, y))
        args = ["mousemove", "--window", self.win(), int(x), int(y)]
        args += (["keydown", mod] if mod else []) + press(button, n)
        args += ["keyup", mod] if mod else []
        self.chain(*args)

    def menu(self):
        lay = self.s.layout()
        bar = lay.window("##MainMenuBar")
        if bar is None:
            return self.key()
        x = bar[0] + self.rng.uniform(5, 160)
        y = bar[1] + bar[3] / 2
        self.chain("mousemove", "--window", self.win(), int(x), int(y), *press(1))
        popup = self.s.wait_for(lambda l: l.window("##Menu_") is not None, 0.4)
        if popup is None:
            self.note("menu bar click at x=%d (no menu)" % x)
            return
        px, py, pw, ph = popup.window("##Menu_")
        ry = self.rng.uniform(py + 2, py + ph - 2)
        self.note("menu at x=%d, row at y=%d" % (x, ry))
        self.chain("mousemove", "--window", self.win(), int(px + pw / 3), int(ry), *press(1))

    def resize(self):
        w = self.rng.choice([1, 2, 10, 50, 120, 300, 640, 1024, 1280, 1440])
        h = self.rng.choice([1, 2, 10, 50, 120, 300, 480, 768, 900])
        back = self.rng.random() < 0.5
        self.note("resize to %dx%d%s" % (w, h, " and back" if back else ""))
        self.chain("windowsize", self.win(), w, h, "sleep", self.rng.choice([0.0, 0.05, 0.3]))
        if back:
            self.chain("windowsize", self.win(), 1280, 900)

    def hide_and_show(self):
        keys = [self.rng.choice(KEYS) for _ in range(self.rng.randint(0, 4))]
        self.note("minimise, unmap, keys %s, map" % " ".join(keys))
        self.chain("windowminimize", self.win())  # a no-op without a window manager
        self.chain("windowunmap", self.win())
        if keys:
            self.chain("key", "--window", self.win(), *keys)
        self.chain("sleep", self.rng.choice([0.05, 0.2, 0.5]), "windowmap", self.win())

    def presentation(self):
        self.note("Escape, P")
        self.chain("key", "Escape", "Escape", "p")

    def full_screen(self):
        self.note("Escape, F")
        self.chain("key", "Escape", "Escape", "f")

    # --- the run -------------------------------------------------------------------------
    def restore(self):
        """Back to a window that can be checked: shown, normal size, no dialog or field."""
        # Escape first: leaving full screen returns to the size the window had before it,
        # which may be the few pixels a resize action left.
        self.chain("windowmap", self.win())
        # The keyboard follows the pointer without a window manager: keep it on the window.
        self.chain("mousemove", "--window", self.win(), 5, 5)
        self.s.wait_for(lambda l: l.pending_input == 0, 10.0)
        self.s.defocus()
        self.chain("key", "Escape", "Escape")
        self.s.wait_for(lambda l: l.pending_input == 0, 10.0)
        self.chain("windowsize", self.win(), 1280, 900)
        for _ in range(3):
            lay = self.s.layout()
            names = [n for n in lay.windows if n.startswith(("Open ", "Export ", "Keyboard"))]
            if not names:
                break
            x, y, w, _ = lay.windows[names[0]]
            self.s.click(x + w - 14, y + 12)  # the dialog's close button
            self.s.wait_for(lambda l: not [n for n in l.windows if n == names[0]], 2.0)
        self.s.close_menus()
        self.s.defocus()
        self.s.wait_for(lambda l: l.window("Controls") is not None, 3.0)

    def checkpoint(self, done):
        self.restore()
        problem = xdriver.check_draws(self.s, "after %d actions" % done)
        if problem:
            path = os.path.abspath("monkey_failure_seed%d.png" % self.seed)
            self.s.save_png(path)
            problem += " (screen saved to %s; window layout: %s)" % (path, sorted(self.s.layout().windows.items()))
        rss, hwm = self.s.memory_kib()
        self.peak_hwm_kib = max(self.peak_hwm_kib, hwm)
        self.log("after %5d actions: VmRSS %4.0f MiB, VmHWM %4.0f MiB, restarts after Quit %d" %
                 (done, rss / 1024, hwm / 1024, self.quits))
        self.refresh_fields()
        return problem

    def run(self, count, checkpoints, rss_limit_kib):
        self.refresh_fields()
        every = max(1, count // max(1, checkpoints))
        for i in range(1, count + 1):
            self.done = i
            r = self.rng.uniform(0, self.total_weight)
            for weight, action in self.actions:
                r -= weight
                if r <= 0:
                    break
            try:
                action()
            except xdriver.AppDied:
                code = self.s.app.poll()
                if code == 0:  # File > Quit: a clean exit, not a failure
                    self.quits += 1
                    self.note("(the window quit cleanly; restarted)")
                    self.s.restart_app()
                    self.refresh_fields()
                else:
                    raise
            if i % 25 == 0:
                _, hwm = self.s.memory_kib()
                self.peak_hwm_kib = max(self.peak_hwm_kib, hwm)
                if hwm > rss_limit_kib and not xdriver.UNDER_SANITIZER:
                    return "peak resident memory %.0f MiB is above the bound of %.0f MiB after %d actions" % (
                        hwm / 1024, rss_limit_kib / 1024, i)
            if i % every == 0 or i == count:
                problem = self.checkpoint(i)
                if problem:
                    return problem
        return ""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("attnviz")
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=None, help="default: taken from the clock, and printed")
    parser.add_argument("--checkpoints", type=int, default=4)
    parser.add_argument("--rss-limit-mib", type=float, default=DEFAULT_RSS_LIMIT_MIB)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else int(time.time()) % 100000
    print("monkey: %d actions, seed %d (replay: monkey.py %s --actions %d --seed %d)" %
          (args.actions, seed, args.attnviz, args.actions, seed), flush=True)
    log = lambda m: print(m, flush=True)
    s = xdriver.Session(args.attnviz, log=log)
    s.ordered_input = False  # random input may overtake queued keys, as a fast user's would
    monkey = Monkey(s, seed, log)
    started = time.time()
    problem = ""
    try:
        s.start_app()
        problem = monkey.run(args.actions, args.checkpoints, args.rss_limit_mib * 1024)
    except xdriver.AppDied as died:
        problem = str(died)
    finally:
        elapsed = time.time() - started
        s.close()
    print("%d actions in %.0f s (%.1f actions/s), peak VmHWM %.0f MiB (bound %.0f MiB), %d restarts after Quit" %
          (monkey.done, elapsed, monkey.done / max(elapsed, 1e-9), monkey.peak_hwm_kib / 1024, args.rss_limit_mib,
           monkey.quits))
    if problem:
        print("FAIL (seed %d): %s" % (seed, problem))
        print("last actions:\n  " + "\n  ".join(monkey.history))
        return 1
    print("PASS (seed %d)" % seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
