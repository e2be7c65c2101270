#!/usr/bin/env python3
"""A/B: the pre-fix binary (URLSession) against the new one (libcurl) serving one URL layer over
a fast loopback upstream: N distinct tiles asked by 16 clients; interleaved rounds, wall time each."""
import concurrent.futures, http.server, json, socketserver, subprocess, sys, threading, time, urllib.request, urllib.error, struct, zlib
def png():
    raw = b"".join(b"\0" + bytes((200, 30, 40, 255)) * 256 for _ in range(256))
    def chunk(k, d): return struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 256, 256, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
TILE = png()
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Type", "image/png"); self.send_header("Content-Length", str(len(TILE))); self.end_headers(); self.wfile.write(TILE)
class S(socketserver.ThreadingMixIn, http.server.HTTPServer): daemon_threads = True
up = S(("127.0.0.1", 0), H); threading.Thread(target=up.serve_forever, daemon=True).start()
binaries = {"urlsession": sys.argv[1], "curl": sys.argv[2]}; rounds = int(sys.argv[3]); n = int(sys.argv[4])
times = {k: [] for k in binaries}
for r in range(rounds):
    for name, binary in (list(binaries.items()) if r % 2 == 0 else list(binaries.items())[::-1]):
        p = subprocess.Popen([binary, "serve", "--port", "0", "--no-watch", "--cache-mb", "0", "--layer", f"u=http://127.0.0.1:{up.server_address[1]}/{r}/{{z}}/{{x}}/{{y}}.png"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        port = int(p.stdout.readline().rsplit(":", 1)[1].strip().strip("/"))
        def get(i):
            try: return urllib.request.urlopen(f"http://127.0.0.1:{port}/u/12/{i % 4096}/{i // 4096}.png", timeout=30).status
            except urllib.error.HTTPError as e: return e.code
        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(16) as pool: statuses = list(pool.map(get, range(n)))
        times[name].append(time.monotonic() - start)
        assert statuses.count(200) == n, (name, {s: statuses.count(s) for s in set(statuses)})
        p.terminate(); p.wait()
med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
print(json.dumps({"tiles": n, "rounds": rounds, "seconds": times, "median": med, "curl_over_urlsession": med["curl"] / med["urlsession"]}, indent=1))
