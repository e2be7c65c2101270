"""Waits up to 10 s for a URL to answer 200 (a server the browser test started): `python3 wait_for.py URL WHAT`,
exiting 1 with "browser test: WHAT did not start" when it does not. Standard library only."""
import sys
import time
import urllib.request

for _ in range(100):
    try:
        if urllib.request.urlopen(sys.argv[1], timeout=1).status == 200:
            sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(f"browser test: {sys.argv[2] if len(sys.argv) > 2 else sys.argv[1]} did not start")
