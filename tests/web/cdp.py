"""A headless Chromium driven through the DevTools protocol over a pipe
(--remote-debugging-pipe: commands on fd 3, replies and events on fd 4, each a JSON
message ending in a NUL byte). Standard library only."""
import base64
import json
import os
import subprocess
import tempfile
import time


class Chromium:
    def __init__(self, chromium, width, height, profile, scale=1):
        """`scale`: the screen's devicePixelRatio (2: a HiDPI screen)."""
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def give_fds():  # in the child: the pipes on fds 3 and 4
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)
        args = [chromium, "--headless=new", "--no-sandbox", "--use-gl=swiftshader",
                "--enable-unsafe-swiftshader", "--remote-debugging-pipe", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=%d,%d" % (width, height),
                "--hide-scrollbars", "--force-device-scale-factor=%g" % scale, "about:blank"]
        # 3 and 4 stay open in the child whichever runs first, give_fds or the closing of
        # the fds not passed.
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(args, preexec_fn=give_fds, pass_fds=(to_child_r, from_child_w, 3, 4),
                                        stdout=subprocess.DEVNULL, stderr=self.log)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0
        self.session = None
        self.console = []  # (type, text) of every console message seen

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def _read_message(self):
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                self.log.seek(0)
                raise RuntimeError("chromium closed the DevTools pipe: %s" % self.log.read().decode(errors="replace")[-2000:])
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, session=True, **params):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("method") == "Runtime.consoleAPICalled":
                p = reply["params"]
                self.console.append((p["type"], " ".join(str(a.get("value", "")) for a in p["args"])))
            elif reply.get("method") == "Runtime.exceptionThrown":
                details = reply["params"]["exceptionDetails"]
                self.console.append(("error", details.get("exception", {}).get("description") or json.dumps(details.get("exception", details))[:1500]))
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})

    def open(self, url):
        target = self.send("Target.createTarget", session=False, url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", session=False, targetId=target, flatten=True)["sessionId"]
        self.send("Runtime.enable")
        self.send("Page.enable")
        self.send("Page.navigate", url=url)

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError("page: %s" % result["exceptionDetails"].get("text"))
        return result["result"].get("value")

    def wait_for(self, expression, timeout, what):
        """Polls `expression` until it is truthy; returns its value."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                value = self.evaluate(expression)
            except RuntimeError:  # e.g. the runtime's FS before attnviz.js has loaded
                value = None
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError("waited %d s for %s" % (timeout, what))

    def screenshot(self):
        return base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"])

    def click(self, x, y):
        """A left click at page pixel (x, y)."""
        self.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        self.send("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", clickCount=1)
        self.send("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left", clickCount=1)

    def type_text(self, text):
        """Each character as a key press with its text (what GLFW's character callback reads)."""
        for c in text:
            self.send("Input.dispatchKeyEvent", type="keyDown", key=c, text=c)
            self.send("Input.dispatchKeyEvent", type="keyUp", key=c)

    def set_file_input(self, selector, paths):
        """Gives the page's <input type=file> matching `selector` these local files."""
        root = self.send("DOM.getDocument")["root"]["nodeId"]
        node = self.send("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
        if not node:
            raise RuntimeError("no %s in the page" % selector)
        self.send("DOM.setFileInputFiles", nodeId=node, files=paths)

    def key(self, key, code, key_code, text=None, modifiers=0):
        """One key press and release, as a keyboard would send it."""
        down = dict(type="keyDown", key=key, code=code, windowsVirtualKeyCode=key_code, modifiers=modifiers)
        if text:
            down["text"] = text
        self.send("Input.dispatchKeyEvent", **down)
        self.send("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=key_code,
                  modifiers=modifiers)
