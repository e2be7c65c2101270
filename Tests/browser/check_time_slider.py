"""Checks the time slider's browser test (time-slider.sh): the time panel is shown, the slider's window reaches
the tiles' ?datetime= and the page's own URL, two slider positions draw different heatmaps, and playing moves the
slider through frames whose tiles differ. Standard library only."""
import html as entities
import os
import re
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from check_screenshot import decode_png  # noqa: E402


def heat_pixels(path):
    """The set of (x, y) in the middle of the screenshot whose colour is a heatmap's (saturated)."""
    width, height, rows = decode_png(path)
    return {(x, y) for y in range(height // 8, height * 7 // 8) for x in range(width // 8, width * 7 // 8)
            if max(rows[y][x]) - min(rows[y][x]) > 50}


def tile_sources(page):
    return [entities.unescape(s) for s in re.findall(r'<img[^>]*src="(/incidents/[^"]*)"', page)]


def main(artifacts, server):
    windows = {}
    for name, at in (("early", "2024-03-03T00:00:00Z"), ("late", "2024-03-27T00:00:00Z")):
        page = open(os.path.join(artifacts, f"time-{name}.html"), encoding="utf-8").read()
        assert re.search(r'<div id="time"[^>]*style="display: block;?"', page), f"{name}: no time panel shown"
        shown = re.search(r'data-datetime="([^"]*)"', page)
        assert shown, f"{name}: the page set no window"
        windows[name] = shown.group(1)
        assert windows[name].startswith(at + "/"), f"{name}: the window {windows[name]} does not open at {at}"
        tiles = tile_sources(page)
        assert tiles, f"{name}: the page asked for no tile"
        assert all(f"datetime={windows[name]}" in t for t in tiles), f"{name}: tiles without the window: {tiles[:3]}"
        checkboxes = re.findall(r'<input type="checkbox" value="([^"]*)"', page)
        assert sorted(checkboxes) == ["assault", "burglary", "theft"], f"{name}: checkboxes {checkboxes}"
    assert windows["early"] == "2024-03-03T00:00:00Z/2024-03-06T00:00:00Z", windows["early"]
    early = heat_pixels(os.path.join(artifacts, "time-early.png"))
    late = heat_pixels(os.path.join(artifacts, "time-late.png"))
    changed = len(early ^ late)
    print(f"time slider: {len(early)} heatmap pixels at {windows['early']}, {len(late)} at {windows['late']}, "
          f"{changed} differ")
    assert len(early) > 500 and len(late) > 500, "too few heatmap pixels in a screenshot"
    assert changed > (len(early) + len(late)) // 4, "the heatmap hardly changed with the slider"

    page = open(os.path.join(artifacts, "time-play.html"), encoding="utf-8").read()
    played = re.search(r'data-frames-shown="(\d+)"', page)
    assert played and int(played.group(1)) >= 5, f"playing showed {played and played.group(1)} frames, not 5 or more"
    log = open(os.path.join(artifacts, "time-access.log"), encoding="utf-8").read()
    requested = sorted(set(re.findall(r'"GET /incidents/\d+/\d+/\d+(?:@2x)?\.png\?datetime=([^& ]+)', log)))
    print(f"time slider: playing showed {played.group(1)} frames; tiles of {len(requested)} windows requested")
    assert len(requested) >= 5, f"tiles of only {len(requested)} windows were requested"
    # One tile of the data at two of the windows played: both drawn, and different.
    tile = re.search(r'"GET (/incidents/\d+/\d+/\d+(?:@2x)?\.png)\?datetime=[^ ]+ HTTP/1.1" 200', log)
    assert tile, "no tile was served with a window"
    bodies = set()
    for window in (requested[0], requested[len(requested) // 2], requested[-1]):
        with urllib.request.urlopen(f"{server}{tile.group(1)}?datetime={window}", timeout=10) as response:
            bodies.add(response.read() if response.status == 200 else b"")
    assert len(bodies) >= 2, "the tile is the same in every window played"


if __name__ == "__main__":
    main(*sys.argv[1:3])
