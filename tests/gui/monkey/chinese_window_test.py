#!/usr/bin/env python3
"""Chinese window test (issue 23): the real window in zh-Hans and in zh-Hant on a 1024x768
Xvfb screen.

1. Every step, every menu (each row hovered, so the submenus open) and the dialogs are
   drawn; the window records every run of text it draws (ATTNVIZ_TEST_TEXT, see
   app/gui/kit/test_hook.h), and none may hold an English word or a missing-glyph box (U+FFFD):
   attnviz_text_check judges it by the rule of tests/gui/latin_words.h, the same as the
   headless test's (the code panel's words are code).
2. A Chinese sentence entered into the sentence box gives the expected tokens (the layout
   report's "tokens" line). `xdotool type` of CJK characters remaps a spare keycode for each
   character and drops some when typed fast, so the sentence goes in twice: through the
   clipboard (xclip, then Ctrl+V: what a user pasting does) and typed one character at a
   time as its keysym (`xdotool key U5C0F`, as an input method delivers a character), each
   checked against the box's text before the next. (`xdotool type` of the same CJK
   character twice in a row drops the second: it remaps one spare keycode per character
   and the window reads the key before the new mapping.)

usage: chinese_window_test.py <attnviz> --check <attnviz_text_check> [--quiet] [--lang zh-Hans,zh-Hant]
"""

import argparse
import json
import os
import subprocess
import sys
import time

import xdriver

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SCREEN = (1024, 768)
# A sentence of tiny-lm-zh's vocabulary (the window starts on it in Chinese), and with
# random weights one with a Latin word and full-width punctuation kept whole.
MODEL_SENTENCE = {"zh-Hans": "小明看见了小猫，他笑了。", "zh-Hant": "小明看見了小貓，他笑了。"}
MIXED_SENTENCE = {"zh-Hans": "我的 GPU 很快！", "zh-Hant": "我的 GPU 很快！"}
MIXED_TOKENS = ["我", "的", "GPU", "很", "快", "！"]
MENUS = ["menu.file", "menu.model", "menu.recipe", "menu.view", "menu.help"]
DIALOGS = [("menu.file", "menu.file.open_weights"), ("menu.file", "menu.file.export_snapshot"),
           ("menu.file", "menu.file.export_torch"), ("menu.help", "menu.help.keyboard")]


def catalogue(lang):
    with open(os.path.join(SOURCE, "assets", "lang", lang + ".json"), encoding="utf-8") as f:
        return json.load(f)


class TextLog:
    """The runs of text the window recorded: (x, y, window, cut, text), app/gui/kit/test_hook.h."""

    def __init__(self, path):
        self.path = path

    def runs(self):
        try:
            with open(self.path, encoding="utf-8", errors="replace") as f:
                return [tuple(line.rstrip("\n").split("\t", 4)) for line in f if line.count("\t") >= 4]
        except OSError:
            return []

    def find(self, text, window=None):
        """The position of the latest run that is exactly `text` (drawn by `window`), or None."""
        for x, y, w, _, t in reversed(self.runs()):
            if t == text and (window is None or w == window):
                return float(x), float(y)
        return None


def start(attnviz, lang, args, log):
    s = xdriver.Session(attnviz, ["--lang", lang] + args, screen=SCREEN, log=log)
    s.text_log = TextLog(os.path.join(s.tmp, "text.txt"))
    s.env["ATTNVIZ_TEST_TEXT"] = s.text_log.path
    s.start_app()
    return s


def click_text(s, text, window=None, timeout=5.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        at = s.text_log.find(text, window)
        if at:
            s.click(at[0] + 3, at[1] + 5)
            return True
        s.nudge()
        time.sleep(0.1)
    return False


def visit_window(s, lang, log):
    """Steps, menus and dialogs; returns a problem or ""."""
    words = catalogue(lang)
    for _ in range(30):  # every step (Page Down), each drawn at rest
        s.keys("Next")
        s.settle(0.1)
    for menu in MENUS:
        if not click_text(s, words[menu], "##MainMenuBar"):
            return "the menu bar shows no %r" % words[menu]
        s.wait_for(lambda l: l.window("##Menu_") is not None, 2.0)
        s.popup_rows("##Menu_")  # hovers every row: submenus open too
        s.close_menus()
    for menu, row in DIALOGS:
        if not click_text(s, words[menu], "##MainMenuBar") or not click_text(s, words[row], "##Menu_00"):
            return "could not open %s > %s" % (words[menu], words[row])
        s.settle(0.5)
        s.nudge()
        for close in ("dialog.path.cancel", "dialog.close"):
            if s.text_log.find(words[close]):
                click_text(s, words[close], None, 1.0)
        s.keys("Escape")
        s.settle(0.3)
    log("  %s: %d runs of text drawn" % (lang, len(s.text_log.runs())))
    return ""


def text_problems(s, check, also):
    """What attnviz_text_check (tests/gui/checker/text_check.cpp: the rule of
    tests/gui/latin_words.h) finds in the text the window drew."""
    out = subprocess.run([check, s.text_log.path] + also, capture_output=True, text=True, timeout=60)
    lines = out.stdout.splitlines()
    s.log("  " + (lines[-1] if lines else out.stderr.strip()))
    return "" if out.returncode == 0 else "; ".join(lines[:-1][:30]) or out.stderr.strip()


def tokens(s):
    line = [l for l in open(s.layout_path, encoding="utf-8").read().splitlines() if l.startswith("tokens")]
    return line[0].split()[1:] if line else []


def sentence_box(s, lang):
    """The sentence box: the first tab stop of the Controls panel (named in `lang`)."""
    stops = s.tab_stops(catalogue(lang)["window.controls"])
    return stops[0] if stops else None


def enter(s, box, text, how):
    """Clears the box and puts `text` in it: "paste" through the clipboard, "type" one
    character at a time. Returns a problem or ""."""
    x0, y0, x1, y1, box_id = box
    s.click((x0 + x1) / 2, (y0 + y1) / 2)
    if not s.wait_for(lambda l: l.text_input, 2.0):
        focus = s.layout().focus  # the panel scrolled since its tab stops were read
        if focus and focus[4] == box_id:
            s.click((focus[0] + focus[2]) / 2, (focus[1] + focus[3]) / 2)
        if not s.wait_for(lambda l: l.text_input, 2.0):
            return "%s: clicking the sentence box started no text input" % how
    s.settle(0.1)
    s.keys("ctrl+a", "BackSpace")
    if how == "paste":
        subprocess.run(["xclip", "-selection", "clipboard"], input=text.encode(), env=s.env, timeout=10)
        s.keys("ctrl+v")
    else:
        s.bind_characters(text)
        typed = ""
        for ch in text:
            # Sent once and waited for: with the key bound for good, a slow frame delays a
            # character but must not lose it (a lost or doubled one fails the test).
            s.xdo("key", "U%04X" % ord(ch))  # the keysym of the character, as an input method sends it
            want = typed + ch
            if not s.wait_for(lambda l: l.sentence == want, 20.0):
                return "typing %r did not arrive within 20 s (box: %r)" % (ch, s.layout().sentence)
            typed = want
    if not s.wait_for(lambda l: l.sentence == text, 5.0):
        return "%s: the box holds %r, not %r" % (how, s.layout().sentence, text)
    s.keys("Return")
    return ""


def check_tokens(s, box, text, expected, log):
    for how in ("paste", "type"):
        problem = enter(s, box, text, how)
        if problem:
            return problem
        if not s.wait_for(lambda l: tokens(s) == expected, 15.0):
            return "%s %r gave the tokens %r, expected %r" % (how, text, tokens(s), expected)
        log("  %s %r: tokens %s" % (how, text, " ".join(expected)))
    return ""


def in_window(attnviz, lang, args, log, what):
    """Starts the window with `args`, runs what(session, sentence box) and closes it;
    returns what's problem, or ""."""
    s = start(attnviz, lang, args, log)
    try:
        box = sentence_box(s, lang)
        return what(s, box) if box else "found no sentence box"
    except xdriver.AppDied as died:
        return str(died)
    finally:
        s.close()


def run(attnviz, check, langs, log):
    for lang in langs:
        sentence = MODEL_SENTENCE[lang]

        def trained(s, box):  # no configuration: tiny-lm-zh on its Chinese sentence
            problem = check_tokens(s, box, sentence, ["<bos>"] + list(sentence), log)
            problem = problem or visit_window(s, lang, log)
            # The dialogs list the window's folder: its entries are the user's names.
            return problem or text_problems(s, check, [sentence, s.tmp] + os.listdir(s.tmp))

        problem = in_window(attnviz, lang, [], log, trained)
        if problem:
            return "%s: %s" % (lang, problem)
        problem = in_window(attnviz, lang, ["-E", "8", "-H", "2"], log,
                            lambda s, box: check_tokens(s, box, MIXED_SENTENCE[lang], MIXED_TOKENS, log))
        if problem:
            return "%s, random weights: %s" % (lang, problem)
    return ""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("attnviz")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--lang", default="zh-Hans,zh-Hant")
    parser.add_argument("--check", required=True, help="the attnviz_text_check binary")
    args = parser.parse_args()
    started = time.time()
    log = xdriver.logger(args.quiet)
    problem = run(args.attnviz, args.check, args.lang.split(","), log)
    return xdriver.report(problem, started, "both Chinese windows show no English and no missing glyph; typed and pasted "
                                            "Chinese gives the expected tokens")


if __name__ == "__main__":
    sys.exit(main())
