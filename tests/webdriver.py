"""A small W3C WebDriver client over urllib, to drive headless Chromium through chromedriver in tests.

No browser library: ``chromedriver`` (Debian ``chromium-driver``) is started on
a free local port, and the tests speak the WebDriver HTTP protocol to it: open
a page, find elements, click, type keys, run a script, take a screenshot.
:func:`browser_unavailable` says why no browser can be started (for a skip).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
#: WebDriver key codes (the Unicode private-use characters of the spec).
KEYS = {
    "left": "\ue012",
    "up": "\ue013",
    "right": "\ue014",
    "down": "\ue015",
    "home": "\ue011",
    "end": "\ue010",
    "page_up": "\ue00e",
    "page_down": "\ue00f",
    "tab": "\ue004",
    "enter": "\ue007",
}
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def _chromium() -> str | None:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def browser_unavailable() -> str | None:
    """None when chromedriver and Chromium are installed; else why not."""
    if shutil.which("chromedriver") is None:
        return "chromedriver is not installed (Debian: apt-get install chromium-driver)"
    if _chromium() is None:
        return "Chromium is not installed (Debian: apt-get install chromium)"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class WebDriverError(RuntimeError):
    pass


class Browser:
    """One headless Chromium session; a context manager that ends the session and chromedriver."""

    def __init__(self, width: int = 1400, height: int = 1000, timeout: float = 120.0) -> None:
        reason = browser_unavailable()
        if reason is not None:
            raise WebDriverError(reason)
        self.port = _free_port()
        self.profile = tempfile.mkdtemp(prefix="agent-graph-chromium-")
        self.log = open(os.path.join(self.profile, "chromedriver.log"), "wb")  # noqa: SIM115 - closed in close()
        self.process = subprocess.Popen(
            ["chromedriver", f"--port={self.port}"], stdout=self.log, stderr=subprocess.STDOUT
        )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._call("GET", "/status")
                break
            except (OSError, WebDriverError):
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.close()
                    raise WebDriverError("chromedriver did not start") from None
                time.sleep(0.1)
        options = {
            "binary": _chromium(),
            "args": [
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                f"--window-size={width},{height}",
                f"--user-data-dir={os.path.join(self.profile, 'user')}",
                "--force-device-scale-factor=1",
            ],
        }
        try:
            answer = self._call(
                "POST",
                "/session",
                {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options}}},
            )
        except WebDriverError:
            self.close()
            raise
        self.session = answer["sessionId"]

    # ------------------------------------------------------------ protocol

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else (b"{}" if method == "POST" else None)
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                payload = json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            payload = json.loads(error.read() or b"{}")
            value = payload.get("value", {})
            raise WebDriverError(f"{value.get('error')}: {value.get('message', '')[:400]}") from None
        return payload.get("value") if path != "/session" else payload["value"]

    def _session(self, method: str, path: str, body: Any = None) -> Any:
        return self._call(method, f"/session/{self.session}{path}", body)

    # ------------------------------------------------------------ commands

    def open(self, url: str) -> None:
        self._session("POST", "/url", {"url": url})

    def find(self, css: str) -> str:
        answer = self._session("POST", "/element", {"using": "css selector", "value": css})
        return str(answer[ELEMENT])

    def find_all(self, css: str) -> list[str]:
        answer = self._session("POST", "/elements", {"using": "css selector", "value": css})
        return [str(item[ELEMENT]) for item in answer]

    def click(self, element: str) -> None:
        """Scroll ``element`` to the middle of its scroll box (as a person would, clear of sticky headers), click it."""
        self.run("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'});", {ELEMENT: element})
        self._session("POST", f"/element/{element}/click")

    def keys(self, element: str, *keys: str) -> None:
        text = "".join(KEYS.get(key, key) for key in keys)
        self._session("POST", f"/element/{element}/value", {"text": text})

    def text(self, element: str) -> str:
        return str(self._session("GET", f"/element/{element}/text"))

    def attribute(self, element: str, name: str) -> str | None:
        value = self._session("GET", f"/element/{element}/attribute/{name}")
        return None if value is None else str(value)

    def property(self, element: str, name: str) -> Any:
        return self._session("GET", f"/element/{element}/property/{name}")

    def run(self, script: str, *args: Any) -> Any:
        return self._session("POST", "/execute/sync", {"script": script, "args": list(args)})

    def active(self) -> str:
        return str(self._session("GET", "/element/active")[ELEMENT])

    def hover(self, element: str) -> None:
        origin = {ELEMENT: element}
        self._session(
            "POST",
            "/actions",
            {
                "actions": [
                    {
                        "type": "pointer",
                        "id": "mouse",
                        "parameters": {"pointerType": "mouse"},
                        "actions": [{"type": "pointerMove", "duration": 0, "origin": origin, "x": 0, "y": 0}],
                    }
                ]
            },
        )

    def screenshot(self, path: str) -> None:
        data = base64.b64decode(self._session("GET", "/screenshot"))
        with open(path, "wb") as handle:
            handle.write(data)

    def log_entries(self) -> list[Any]:
        try:
            entries: list[Any] = self._session("POST", "/se/log", {"type": "browser"})
        except WebDriverError:
            return []
        return entries

    def close(self) -> None:
        session = getattr(self, "session", None)
        if session is not None:
            with contextlib.suppress(OSError, WebDriverError):
                self._call("DELETE", f"/session/{session}")
            self.session = None
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=60)
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
