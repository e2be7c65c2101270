"""A small pipelining HTTP/1.1 client over one loopback socket, for the scripts that send many
requests to `heatmap serve` (http_fuzz.py, serve_bench.py --empty-tiles): standard library only.
"""
import socket


class Closed(Exception):
    """The server closed (or reset) the connection with `answered` of the batch answered."""

    def __init__(self, answered, reset):
        super().__init__(f"connection {'reset' if reset else 'closed'} after {answered} answers")
        self.answered = answered
        self.reset = reset


class PipelinedClient:
    def __init__(self, port, host="127.0.0.1", timeout=30):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def close(self):
        self.sock.close()

    def batch(self, paths, method="GET"):
        """Sends every request at once and reads the answers in order: [(status, body)]."""
        wire = "".join(f"{method} {p} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" for p in paths).encode("latin-1")
        try:
            self.sock.sendall(wire)
        except (BrokenPipeError, ConnectionResetError):
            raise Closed(0, True)
        answers = []
        for _ in paths:
            answers.append(self._response(method == "HEAD", len(answers)))
        return answers

    def _fill(self, answered):
        try:
            chunk = self.sock.recv(1 << 16)
        except ConnectionResetError:
            raise Closed(answered, True)
        except socket.timeout:
            raise Closed(answered, False)
        if not chunk:
            raise Closed(answered, False)
        self.buffer += chunk

    def _response(self, head_only, answered):
        while b"\r\n\r\n" not in self.buffer:
            self._fill(answered)
        end = self.buffer.index(b"\r\n\r\n") + 4
        head = self.buffer[:end].decode("latin-1")
        self.buffer = self.buffer[end:]
        lines = head.split("\r\n")
        status = int(lines[0].split(" ")[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        if head_only or status in (204, 304):
            length = 0
        while len(self.buffer) < length:
            self._fill(answered)
        body = self.buffer[:length]
        self.buffer = self.buffer[length:]
        return status, body


def _status_mb(pid, field):
    """A memory figure of /proc/PID/status (Linux) in MiB, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def rss_mb(pid):
    """Resident memory of a process in MiB, or None."""
    return _status_mb(pid, "VmRSS")


def peak_rss_mb(pid):
    """The peak resident memory of a process in MiB, or None."""
    return _status_mb(pid, "VmHWM")
