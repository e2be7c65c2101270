"""Checks the map page's layout from a DOM dumped by headless Chromium: the legend and the
controls bar (their boxes, x,y,width,height, as the page records them in data-legend-box and
data-controls-box) are both shown, inside the window, and do not overlap."""
import re
import sys

dom_path, size = sys.argv[1], sys.argv[2]
width, height = (int(v) for v in size.split(","))
dom = open(dom_path, encoding="utf-8").read()


def box(name):
    match = re.search(rf'data-{name}-box="([^"]*)"', dom)
    if not match or not match.group(1):
        sys.exit(f"layout test at {size}: the page recorded no {name} box (was the {name} shown?)")
    x, y, w, h = (int(v) for v in match.group(1).split(","))
    return x, y, w, h


legend, controls = box("legend"), box("controls")
for name, (x, y, w, h) in (("legend", legend), ("controls", controls)):
    if w <= 0 or h <= 0 or x < 0 or y < 0 or x + w > width or y + h > height:
        sys.exit(f"layout test at {size}: the {name} box {x},{y} {w}x{h} is not inside the window")
lx, ly, lw, lh = legend
cx, cy, cw, ch = controls
if lx < cx + cw and cx < lx + lw and ly < cy + ch and cy < ly + lh:
    sys.exit(f"layout test at {size}: the legend {legend} and the controls {controls} overlap")
print(f"layout test at {size}: legend {legend} and controls {controls} apart")
