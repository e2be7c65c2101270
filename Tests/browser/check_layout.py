"""Checks the map page's layout in headless Chromium at several window sizes: the legend and the
controls bar are both shown, inside the viewport, and do not overlap.

    python3 Tests/browser/check_layout.py URL 1200x800 1920x1080 800x600 390x844

Chromium is driven over its DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages
ended by NUL on descriptors 3 and 4), which sets each viewport exactly (a window is never
narrower than about 500 px, a phone's viewport is) and reads the elements' bounding boxes.
Standard library only."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

url, sizes = sys.argv[1], sys.argv[2:]
browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("chromium-headless-shell")
if not browser:
    sys.exit("layout test: chromium is not installed")
to_chrome_read, to_chrome_write = os.pipe()
from_chrome_read, from_chrome_write = os.pipe()
# The child's ends become 3 and 4: inheritable, also when one already is 3 or 4 (dup2 to itself).
os.set_inheritable(to_chrome_read, True)
os.set_inheritable(from_chrome_write, True)
profile = tempfile.mkdtemp(prefix="heatmap-layout-")
process = subprocess.Popen(
    [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
     "--hide-scrollbars", "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank"],
    close_fds=False, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    preexec_fn=lambda: (os.dup2(to_chrome_read, 3), os.dup2(from_chrome_write, 4)))
os.close(to_chrome_read)
os.close(from_chrome_write)
pending = b""
next_id = 0


def call(method, params=None, session=None, timeout=30):
    """Sends a command and returns its result (events in between are skipped)."""
    global pending, next_id
    next_id += 1
    message = {"id": next_id, "method": method, "params": params or {}}
    if session:
        message["sessionId"] = session
    os.write(to_chrome_write, json.dumps(message).encode() + b"\0")
    deadline = time.time() + timeout
    while time.time() < deadline:
        while b"\0" in pending:
            raw, pending = pending.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == next_id:
                if "error" in answer:
                    sys.exit(f"layout test: {method} failed: {answer['error']}")
                return answer["result"]
        chunk = os.read(from_chrome_read, 1 << 16)
        if not chunk:
            sys.exit("layout test: chromium closed its pipe")
        pending += chunk
    sys.exit(f"layout test: no answer to {method}")


MEASURE = """JSON.stringify((() => {
  const box = (id) => { const r = document.getElementById(id).getBoundingClientRect();
    return [r.left, r.top, r.width, r.height].map(Math.round); };
  const legend = document.getElementById("legend");
  return { shown: legend.complete && legend.naturalWidth > 0 && getComputedStyle(legend).display !== "none",
    legend: box("legend"), controls: box("controls"), viewport: [innerWidth, innerHeight] };
})())"""

failures = []
try:
    target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for size in sizes:
        width, height = (int(v) for v in size.lower().split("x"))
        phone = width < 600
        call("Emulation.setDeviceMetricsOverride",
             {"width": width, "height": height, "deviceScaleFactor": 3 if phone else 1, "mobile": phone}, session)
        call("Page.navigate", {"url": url}, session)
        deadline = time.time() + 30
        while True:
            value = call("Runtime.evaluate", {"expression": MEASURE, "returnByValue": True}, session)
            state = json.loads(value["result"].get("value") or "null") if value["result"].get("type") == "string" else None
            if state and state["shown"] or time.time() > deadline:
                break
            time.sleep(0.2)
        if not state or not state["shown"]:
            failures.append(f"{size}: the legend was not shown")
            continue
        (lx, ly, lw, lh), (cx, cy, cw, ch) = state["legend"], state["controls"]
        vw, vh = state["viewport"]
        problem = None
        for name, (x, y, w, h) in (("legend", state["legend"]), ("controls", state["controls"])):
            if w <= 0 or h <= 0 or x < 0 or y < 0 or x + w > vw or y + h > vh:
                problem = f"the {name} box {x},{y} {w}x{h} is not inside the {vw}x{vh} viewport"
        if lx < cx + cw and cx < lx + lw and ly < cy + ch and cy < ly + lh:
            problem = f"the legend {state['legend']} and the controls {state['controls']} overlap"
        print(f"layout test at {size} (viewport {vw}x{vh}): legend {state['legend']}, controls {state['controls']}"
              + (f": {problem}" if problem else ", apart"))
        if problem:
            failures.append(f"{size}: {problem}")
finally:
    process.kill()
    process.wait()
    shutil.rmtree(profile, ignore_errors=True)
if failures:
    sys.exit("layout test failed: " + "; ".join(failures))
