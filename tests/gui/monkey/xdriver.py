"""Drives the real AttnViz window on a private Xvfb display, as a user would.

Used by typing_test.py, monkey.py and config_memory.py. Only the Python standard library,
Xvfb, xdotool and ImageMagick's `import` are needed; no window manager.

Widgets are found through the app's test-only layout report (app/gui/kit/test_hook.h): with
ATTNVIZ_TEST_LAYOUT set, the window writes the rectangles of its ImGui windows, the
keyboard-focused item, the hovered item and whether a text field is active. Text fields
and sliders are reached with Tab (ImGui's tab stops are exactly the widgets that take
typed text), menu rows by hovering them, so no pixel position is hard-coded.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# Xvfb screen of every test; the window itself opens at the size its settings ask for.
SCREEN_W, SCREEN_H = 1280, 1024


# Keysym names for typing through `xdotool key` (its script mode has no usable quoting).
KEYSYMS = {" ": "space", "_": "underscore", "-": "minus", ".": "period", ",": "comma", ":": "colon",
           ";": "semicolon", "!": "exclam", "?": "question", "@": "at", "#": "numbersign", "$": "dollar",
           "%": "percent", "^": "asciicircum", "&": "ampersand", "*": "asterisk", "(": "parenleft",
           ")": "parenright", "+": "plus", "=": "equal", "{": "braceleft", "}": "braceright",
           "[": "bracketleft", "]": "bracketright", "|": "bar", '"': "quotedbl", "'": "apostrophe",
           "<": "less", ">": "greater", "~": "asciitilde", "`": "grave", "\\": "backslash", "/": "slash"}


def keysyms(text):
    return [KEYSYMS.get(c, c) for c in text]


class XdoStream:
    """One long-lived `xdotool -` reading commands from a pipe: a new X connection per
    command costs ~0.1 s under Xvfb, a line in the pipe ~15 ms. sync() waits until every
    command written so far has run."""

    def __init__(self, env):
        self.env = env
        self.proc = None

    def send(self, args):
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(["xdotool", "-"], env=self.env, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.proc.stdin.write(" ".join(str(a) for a in args) + "\n")
        self.proc.stdin.flush()

    def sync(self):
        self.send(["getmouselocation", "--shell"])
        while True:
            line = self.proc.stdout.readline()
            if not line or line.startswith("WINDOW"):
                return

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(10)


# Under `make test-sanitize` (which sets ASAN_OPTIONS) resident memory is mostly ASan's
# shadow memory and quarantine, so memory bounds are reported but not enforced there.
UNDER_SANITIZER = "ASAN_OPTIONS" in os.environ


class AppDied(Exception):
    """The window's process ended (crash, assertion or quit)."""


class Layout:
    """One parsed layout report: windows by name, the focused item, hover and text state."""

    def __init__(self, text):
        self.windows = {}
        self.focus = None          # (x0, y0, x1, y1, id, window name)
        self.mouse = None          # (x, y) ImGui's mouse position in the reported frame
        self.hovered = "00000000"
        self.active = "00000000"
        self.text_input = False
        self.pending_input = 0     # keyboard events the window has not handed to ImGui yet
        self.sentence = None       # the sentence box's text
        self.seq_len = None        # L of the configuration on the canvas
        self.items = {}            # name -> (x0, y0, x1, y1) of widgets the window names (note_item_for_tests)
        self.shown = None          # (step, enlarged head, model layer) on screen
        self.lines = None          # the lines view: {"hovered": "q3"|"k0"|"-", "pinned": ..., "selected": n}
        self.compare = None        # compare mode: {"edit": "a"|"b", "contrast", "b_steps", "cell", "b_heads", "busy"}
        for line in text.splitlines():
            if line.startswith("sentence "):
                self.sentence = line[len("sentence "):]
                continue
            if line.startswith("seq_len "):
                self.seq_len = int(line[len("seq_len "):])
                continue
            parts = line.split(" ")
            if parts[0] == "item" and len(parts) == 6:
                self.items[parts[1]] = tuple(float(v) for v in parts[2:6])
            elif parts[0] == "lines" and len(parts) == 7:
                self.lines = dict(zip(parts[1::2], parts[2::2]))
            elif parts[0] == "compare" and len(parts) % 2 == 1:
                self.compare = dict(zip(parts[1::2], parts[2::2]))
            elif parts[0] == "shown" and len(parts) == 6:
                self.shown = (parts[1], int(parts[3]), int(parts[5]))
            elif parts[0] == "window" and len(parts) >= 6:
                self.windows[" ".join(parts[5:])] = tuple(float(v) for v in parts[1:5])
            elif parts[0] == "focus" and len(parts) >= 7:
                self.focus = tuple(float(v) for v in parts[1:5]) + (parts[5], " ".join(parts[6:]))
            elif parts[0] == "mouse" and len(parts) == 3:
                self.mouse = (float(parts[1]), float(parts[2]))
            elif parts[0] == "hovered" and len(parts) == 2:
                self.hovered = parts[1]
            elif parts[0] == "active" and len(parts) == 2:
                self.active = parts[1]
            elif parts[0] == "text_input" and len(parts) == 2:
                self.text_input = parts[1] == "1"
            elif parts[0] == "pending_input" and len(parts) == 2:
                self.pending_input = int(parts[1])

    def window(self, prefix):
        """(x, y, w, h) of the first window whose name starts with prefix, else None."""
        for name, rect in self.windows.items():
            if name.startswith(prefix):
                return rect
        return None


class Session:
    """A private Xvfb, a private XDG_CONFIG_HOME, and one attnviz window on them."""

    def __init__(self, attnviz, args=(), screen=(SCREEN_W, SCREEN_H), log=print):
        self.attnviz = attnviz
        self.args = list(args)
        self.log = log
        self.tmp = tempfile.mkdtemp(prefix="attnviz_gui_")
        self.layout_path = os.path.join(self.tmp, "layout.txt")
        self.screen = screen
        self.xvfb = None
        self.app = None
        self.app_log = os.path.join(self.tmp, "attnviz.log")
        self.restarts = 0
        # The window hands queued key events to ImGui a frame at a time while mouse events
        # go straight in, so a click right after fast typing can overtake the typed keys.
        # With ordered_input, a click first waits until the typed keys have been taken.
        self.ordered_input = True
        self.xdo_stream = None
        self._start_xvfb()

    # --- processes -------------------------------------------------------------------------
    def _start_xvfb(self):
        # -displayfd: Xvfb picks a free display number itself, so parallel tests never clash.
        read_fd, write_fd = os.pipe()
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "%dx%dx24" % self.screen, "-nolisten", "tcp"],
            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_fd)
        number = b""
        with os.fdopen(read_fd, "rb") as pipe:
            while not number.endswith(b"\n"):
                chunk = pipe.read(1)
                if not chunk:
                    break
                number += chunk
        if not number.strip():
            raise RuntimeError("Xvfb did not start")
        self.display = ":" + number.decode().strip()
        self.env = dict(os.environ, DISPLAY=self.display, XDG_CONFIG_HOME=os.path.join(self.tmp, "config"),
                        ATTNVIZ_TEST_LAYOUT=self.layout_path)
        self.env.pop("WAYLAND_DISPLAY", None)

    def start_app(self):
        if os.path.exists(self.layout_path):
            os.remove(self.layout_path)
        self.app_log_file = open(self.app_log, "ab")
        self.app = subprocess.Popen([self.attnviz] + self.args, env=self.env, cwd=self.tmp,
                                    stdout=self.app_log_file, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            self.check_alive()
            lay = self.layout()
            # Canvas: the controls may be folded into a tab when a saved window is narrow.
            if lay.window("Canvas") or lay.window("Controls") or lay.window("##present"):
                self.window_id = self._window_id()
                time.sleep(0.3)
                return
            time.sleep(0.1)
        raise RuntimeError("the window did not appear within 30 s")

    def _window_id(self):
        out = subprocess.run(["xdotool", "search", "--name", "AttnViz"], env=self.env,
                             capture_output=True, text=True).stdout.split()
        if not out:
            raise RuntimeError("xdotool finds no AttnViz window")
        return out[0]

    def restart_app(self):
        self.restarts += 1
        self.start_app()

    def check_alive(self):
        code = self.app.poll()
        if code is not None:
            raise AppDied("attnviz exited with %s; last lines of its output:\n%s" % (describe_exit(code), self.log_tail()))

    def log_tail(self, lines=6):
        try:
            with open(self.app_log, "rb") as f:
                return "\n".join(f.read().decode(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def close(self):
        if self.xdo_stream:
            self.xdo_stream.close()
        if self.app and self.app.poll() is None:
            self.app.send_signal(signal.SIGTERM)  # closes the normal way
            try:
                self.app.wait(10)
            except subprocess.TimeoutExpired:
                self.app.kill()
                self.app.wait()
        if self.xvfb:
            self.xvfb.terminate()
            self.xvfb.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)

    # --- what the window reports -----------------------------------------------------------
    def layout(self):
        try:
            with open(self.layout_path) as f:
                return Layout(f.read())
        except OSError:
            return Layout("")

    def memory_kib(self):
        """(VmRSS, VmHWM) of the window's process in KiB."""
        rss = hwm = 0
        with open("/proc/%d/status" % self.app.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    hwm = int(line.split()[1])
        return rss, hwm

    def screenshot(self):
        """The whole screen as raw RGB bytes (ImageMagick's import)."""
        out = subprocess.run(["import", "-window", "root", "-depth", "8", "rgb:-"], env=self.env,
                             capture_output=True, timeout=30)
        return out.stdout

    def save_png(self, path):
        subprocess.run(["import", "-window", "root", path], env=self.env, timeout=30)

    # --- input -----------------------------------------------------------------------------
    def stream(self, *args):
        """Like xdo, through the long-lived xdotool (no text with spaces: use keysyms())."""
        if self.xdo_stream is None:
            self.xdo_stream = XdoStream(self.env)
        self.xdo_stream.send(args)
        self.xdo_stream.sync()
        self.check_alive()

    def xdo(self, *args):
        """One xdotool command; raises AppDied if the window is gone afterwards. Commands
        go through the long-lived xdotool, except `type` (its text may hold spaces and
        quotes), which runs as its own process exactly as a user would run it."""
        if args and args[0] == "type":
            subprocess.run(["xdotool"] + [str(a) for a in args], env=self.env, timeout=60,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.check_alive()
        else:
            self.stream(*args)

    def click(self, x, y, button=1, modifiers=()):
        """Click at window coordinates, holding the given modifier keys (e.g. "ctrl")."""
        if self.ordered_input:
            self.wait_for(lambda l: l.pending_input == 0, 10.0)
        self.xdo("mousemove", "--window", self.window_id, int(x), int(y))
        for m in modifiers:
            self.xdo("keydown", m)
        self.xdo("click", button)
        for m in modifiers:
            self.xdo("keyup", m)

    def click_item(self, name, timeout=10.0):
        """Clicks the middle of the widget the window names `name` in its report
        (note_item_for_tests); False when it does not appear within `timeout` seconds."""
        lay = self.wait_for(lambda l: name in l.items, timeout)
        if lay is None:
            return False
        self.click(*centre(lay.items[name]))
        return True

    def bind_characters(self, text):
        """Gives every character of `text` that the keyboard map lacks a key of its own, for
        good. xdotool would otherwise bind a spare key for each character and unbind it right
        after sending it: a window that reads the event late (a loaded machine) looks the key
        up after the unbinding and gets nothing, which a real input method never causes. Then
        `key U770B` finds the bound key and only presses it."""
        table = subprocess.run(["xmodmap", "-pke"], env=self.env, capture_output=True, text=True, timeout=30).stdout
        bound, spare = set(), []
        for line in table.splitlines():
            left, _, syms = line.partition("=")
            code = int(left.split()[1])
            if syms.split():
                bound.update(syms.split())
            elif code > 8:
                spare.append(code)
        wanted = [c for c in dict.fromkeys(text) if ord(c) > 127 and "U%04X" % ord(c) not in bound]
        if len(wanted) > len(spare):
            raise RuntimeError("the keyboard map has %d spare keys for %d characters" % (len(spare), len(wanted)))
        lines = ["keycode %d = U%04X U%04X" % (code, ord(c), ord(c)) for code, c in zip(spare, wanted)]
        if lines:
            subprocess.run(["xmodmap", "-"], input="\n".join(lines) + "\n", env=self.env, text=True, timeout=30, check=True)
            if self.xdo_stream:  # its keyboard map is read once, at its start
                self.xdo_stream.close()
                self.xdo_stream = None

    def type_text(self, text, delay_ms):
        self.xdo("type", "--delay", delay_ms, "--", text)

    def keys(self, *keys, delay_ms=0):
        self.xdo("key", "--delay", delay_ms, *keys)

    def nudge(self):
        """Moves the mouse one pixel and back: the idle window draws a frame on any event."""
        self.xdo("mousemove_relative", "--", 1, 0)
        self.xdo("mousemove_relative", "--", -1, 0)

    def wait_for(self, predicate, timeout=3.0):
        """Polls the layout report (nudging frames) until predicate(layout) holds; returns
        the layout, or None after timeout seconds."""
        deadline = time.time() + timeout
        while True:
            time.sleep(0.08)
            lay = self.layout()
            if predicate(lay):
                return lay
            if time.time() > deadline:
                return None
            self.nudge()

    def settle(self, seconds=0.15):
        time.sleep(seconds)
        self.check_alive()

    # --- finding widgets -------------------------------------------------------------------
    def tab_stops(self, window_prefix, limit=40):
        """Every tab stop of a panel, in order, as (x0, y0, x1, y1, id): clicks the panel's
        title bar (or its top-left corner when it has none), then presses Tab until the
        focus comes back to the first one. Leaves no field active."""
        rect = self.layout().window(window_prefix)
        if rect is None:
            return []
        x, y, w, _ = rect
        self.click(x + min(w - 4, 40), y + 4)
        self.settle(0.1)
        stops = []
        attempts_left = 3
        for _ in range(limit):
            before = self.layout().focus
            self.keys("Tab")
            lay = self.wait_for(lambda l: l.focus is not None and l.focus != before, 1.5)
            if lay is None and stops:
                break  # Tab stays on the only stop
            if lay is None or not lay.focus[5].startswith(window_prefix):
                if stops or attempts_left == 0:
                    break
                attempts_left -= 1
                continue
            focus = lay.focus
            if stops and focus[4] == stops[0][4]:
                break
            if not stops or focus[4] != stops[-1][4]:
                stops.append(focus[:5])
        self.keys("Escape")
        self.wait_for(lambda l: not l.text_input, 1.5)
        return stops

    def open_menu(self, menu_x):
        """Clicks the main menu entry at window x = menu_x; returns the popup's rectangle."""
        bar = self.layout().window("##MainMenuBar")
        if bar is None:
            return None
        self.click(menu_x, bar[1] + bar[3] / 2)
        lay = self.wait_for(lambda l: l.window("##Menu_") is not None, 2.0)
        return lay.window("##Menu_") if lay else None

    def menu_rows(self, menu_x):
        """Opens the main menu entry at window x = menu_x and returns the rows of its popup
        as (x, y_centre, hovered id). The menu stays open."""
        if self.open_menu(menu_x) is None:
            return []
        return self.popup_rows("##Menu_")

    def popup_rows(self, prefix):
        """The rows of the open popup window named prefix... (a menu or a combo's list) as
        (x, y_centre, hovered id), found by moving the mouse down it and watching which
        item the window reports as hovered."""
        popup = self.layout().window(prefix)
        if popup is None:
            return []
        px, py, pw, ph = popup
        x = px + min(40, pw / 2)
        rows, current, start = [], None, None
        y = py + 2
        while y < py + ph - 1:
            self.xdo("mousemove", "--window", self.window_id, int(x), int(y))
            time.sleep(0.03)
            # The hovered id is only read once the window has drawn a frame with the mouse
            # here: under load the report lags, and a stale id would shift every row by one
            # (a click meant for the last row but one then landed on Quit).
            here = (int(x), int(y))
            lay = self.layout()
            if lay.mouse is not None and lay.mouse != here:
                lay = self.wait_for(lambda l: l.mouse == here, 2.0) or self.layout()
            hovered = lay.hovered
            hovered = None if hovered == "00000000" else hovered
            if hovered != current:
                if current is not None:
                    rows.append((x, (start + y - 3) / 2, current))
                current, start = hovered, y
            y += 3
        if current is not None:
            rows.append((x, (start + y - 3) / 2, current))
        return rows

    def close_menus(self):
        """Closes an open menu by clicking the empty end of the menu bar (Escape does not,
        as keyboard navigation is off)."""
        for _ in range(3):
            lay = self.layout()
            bar = lay.window("##MainMenuBar")
            if lay.window("##Menu_") is None or bar is None:
                return
            self.click(bar[0] + min(bar[2] - 5, 400), bar[1] + bar[3] / 2)
            self.wait_for(lambda l: l.window("##Menu_") is None, 1.0)

    def defocus(self):
        """Leaves any text field (Escape) so that the window's own keys act again."""
        for _ in range(3):
            if not self.layout().text_input:
                return
            self.keys("Escape")
            self.settle(0.1)


def centre(rect):
    """The middle of an (x0, y0, x1, y1) rectangle."""
    x0, y0, x1, y1 = rect
    return (x0 + x1) / 2, (y0 + y1) / 2


def script_main(doc, run, passed, add_options=None):
    """The main() of a window test script: `<attnviz> [--quiet]` plus what add_options(parser)
    adds; run(attnviz, log, args) returns a problem ("" when all is well); the verdict line
    and the exit code come from report()."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("attnviz")
    parser.add_argument("--quiet", action="store_true")
    if add_options:
        add_options(parser)
    args = parser.parse_args()
    started = time.time()
    return report(run(args.attnviz, logger(args.quiet), args), started, passed)


def logger(quiet):
    """The log function of a test script: print, flushed (ctest shows it), or nothing."""
    return (lambda m: None) if quiet else (lambda m: print(m, flush=True))


def report(problem, started, passed):
    """Prints a test script's last line, FAIL with the problem or PASS with `passed` and
    the seconds since `started`; returns the exit code."""
    if problem:
        print("FAIL: " + problem, flush=True)
        return 1
    print("PASS: %s (%.0f s)" % (passed, time.time() - started))
    return 0


def describe_exit(code):
    if code < 0:
        try:
            return "signal %s" % signal.Signals(-code).name
        except ValueError:
            return "signal %d" % -code
    return "code %d" % code


def is_drawn(rgb, min_colours=8):
    """True when a screenshot holds a picture, not a blank or single-colour screen."""
    if len(rgb) < 3 * 1000:
        return False
    colours = set()
    step = 3 * 997  # a prime stride samples rows and columns evenly
    for i in range(0, len(rgb) - 3, step):
        colours.add(rgb[i:i + 3])
        if len(colours) >= min_colours:
            return True
    return False


def check_draws(session, what, patience=10.0):
    """Fails unless the window still draws: a non-blank screen that changes when Right is
    pressed (the next step animates). A window that was just shown again or is finishing
    a large trace gets `patience` seconds for each. Returns a message, "" when all is well."""
    session.defocus()
    # Without a window manager the keyboard follows the pointer: keys reach the window only
    # while the pointer is over it. The empty end of the menu bar changes nothing when hovered.
    bar = session.layout().window("##MainMenuBar")
    if bar is not None:
        session.xdo("mousemove", "--window", session.window_id, int(bar[0] + min(bar[2] - 5, 400)), int(bar[1] + 2))
    else:  # presentation mode has no menu bar: its header is as quiet
        session.xdo("mousemove", "--window", session.window_id, 5, 5)
    session.keys("Home")
    session.settle(0.8)
    deadline = time.time() + patience
    before = session.screenshot()
    while not is_drawn(before) and time.time() < deadline:
        session.nudge()
        session.settle(0.5)
        before = session.screenshot()
    if not is_drawn(before):
        return "%s: the screen is blank" % what
    session.keys("Right")
    deadline = time.time() + patience
    after = before
    while (after == before or not is_drawn(after)) and time.time() < deadline:
        session.settle(0.4)
        after = session.screenshot()
    if not is_drawn(after):
        return "%s: the screen is blank after Right" % what
    if after == before:
        return "%s: the picture did not change when Right was pressed" % what
    return ""


def find_attnviz(argv):
    if len(argv) > 1 and os.path.exists(argv[1]):
        return argv[1]
    sys.exit("usage: %s <path to attnviz> [options]" % os.path.basename(argv[0]))
