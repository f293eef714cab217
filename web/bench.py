#!/usr/bin/env python3
"""The browser build's size and speed figures (README "In the browser"), measured in one
run beside the native build, printed, never asserted (speed targets are benchmarks):

  download     every file of build-web/, raw and gzip -9 (targets: 12 MB, 5 MB)
  first frame  index.html?bench in headless Chromium: navigation to the app's first
               frames (target: 3 s), median of RUNS
  forward      `attnviz bench -L 256 -E 512 -H 8` in the page and natively (target: 4x)
  slider       `attnviz bench --render -L 64 -E 256 -H 8`: a slider change until the new
               trace is on screen (target: 50 ms), in the page and natively
  GIF export   `attnviz snapshot --animate gif` of tiny-lm's attn_weights at 1280x800 (the
               window's export, drawn off-screen frame by frame), in the page and natively

    web/bench.py [--site build-web] [--native build/attnviz] [--runs 3]
"""
import argparse
import functools
import gzip
import http.server
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "web"))
from cdp import Chromium  # noqa: E402
from page_test import serve  # noqa: E402

FORWARD = ["bench", "-L", "256", "-E", "512", "-H", "8", "--json"]
SLIDER = ["bench", "--render", "-L", "64", "-E", "256", "-H", "8", "--json"]
GIF = ["snapshot", "--model", "tiny-lm", "--step", "attn_weights", "--animate", "gif", "--size", "1280x800", "--out"]
# What `attnviz snapshot --animate` prints: "wrote F: 33 frames (33 drawn), 3.40 s, 1280x800 pixels, in 3.32 s".
GIF_WROTE = re.compile(r"^wrote .*: ([0-9]+) frames .* in ([0-9.]+) s$", re.M)


def download_sizes(site):
    raw = packed = 0
    for name in sorted(os.listdir(site)):
        with open(os.path.join(site, name), "rb") as f:
            data = f.read()
        raw += len(data)
        packed += len(gzip.compress(data, 9))
    return raw, packed


def in_page(url, profile_root, query, wait_for, timeout=600):
    """Opens the page with `query` in a fresh headless Chromium; returns wait_for(browser)."""
    browser = Chromium("chromium", 1280, 800, tempfile.mkdtemp(dir=profile_root))
    try:
        browser.open(url + query)
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = wait_for(browser)
            if value is not None:
                return value
            time.sleep(0.2)
        raise TimeoutError("waited %d s for %s" % (timeout, query))
    finally:
        browser.close()


def bench_in_page(url, profile_root, args):
    """The JSON object `attnviz <args>` prints in the page's console."""
    def printed(browser):
        browser.evaluate("1")  # lets the console messages arrive
        for kind, text in browser.console:
            if text.startswith("{"):
                return json.loads(text)
        return None
    return in_page(url, profile_root, "?args=" + "%20".join(args), printed)


def gif_in_page(url, profile_root):
    """(frames, seconds) of the GIF export in the page."""
    def printed(browser):
        browser.evaluate("1")  # lets the console messages arrive
        found = [GIF_WROTE.search(text) for _, text in browser.console]
        return next(((int(m[1]), float(m[2])) for m in found if m), None)
    return in_page(url, profile_root, "?args=" + "%20".join(GIF + ["/tmp/bench.gif"]), printed)


def gif_native(native):
    if not native or not os.path.exists(native):
        return None
    with tempfile.TemporaryDirectory() as folder:
        out = subprocess.run(["xvfb-run", "-a", native] + GIF + [os.path.join(folder, "bench.gif")],
                             capture_output=True, text=True, timeout=600)
    m = GIF_WROTE.search(out.stdout)
    return (int(m[1]), float(m[2])) if m else None


def bench_native(native, args):
    if not native or not os.path.exists(native):
        return None
    out = subprocess.run(["xvfb-run", "-a", native] + args if "--render" in args else [native] + args,
                         capture_output=True, text=True, timeout=600)
    return json.loads(out.stdout) if out.returncode == 0 else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", default="build-web")
    parser.add_argument("--native", default="build/attnviz")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    raw, packed = download_sizes(args.site)
    print("download: %.2f MB raw, %.2f MB gzip -9 (targets 12 MB, 5 MB)" % (raw / 1e6, packed / 1e6))
    server, url = serve(args.site)
    profiles = tempfile.mkdtemp(prefix="attnviz-bench-")
    try:
        firsts = [in_page(url, profiles, "?bench", lambda b: b.evaluate("window.attnvizFirstFrameMs || null"))
                  for _ in range(args.runs)]
        print("first frame: median %.0f ms of %s (target 3000 ms)" % (statistics.median(firsts), ", ".join("%.0f" % f for f in firsts)))
        page = bench_in_page(url, profiles, FORWARD)
        native = bench_native(args.native, FORWARD)
        line = "forward 256/512/8: page %.1f ms" % page["forward_ms_median"]
        if native:
            line += ", native %.1f ms, %.2fx (target 4x)" % (native["forward_ms_median"],
                                                            page["forward_ms_median"] / native["forward_ms_median"])
        print(line)
        page = bench_in_page(url, profiles, SLIDER)
        native = bench_native(args.native, SLIDER)
        key = "slider_change_first_frame_ms"
        line = "slider change 64/256/8: page %.1f ms" % page.get(key, float("nan"))
        if native:
            line += ", native %.1f ms" % native.get(key, float("nan"))
        print(line + " (target 50 ms)")
        frames, page = gif_in_page(url, profiles)
        line = "GIF export of tiny-lm's attn_weights at 1280x800 (%d frames): page %.2f s" % (frames, page)
        native = gif_native(args.native)
        if native:
            line += ", native %.2f s, %.1fx" % (native[1], page / native[1])
        print(line)
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
