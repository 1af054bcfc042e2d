"""A real Mosquitto broker and a delaying network for the hall's tests and `make hall-bench`.

`Broker` runs Debian's `mosquitto` on 127.0.0.1 on a free port with a generated config: users
and passwords (mosquitto_passwd), an ACL file (a table writes only its own topics and reads
only the commands and its own clock replies; the director reads and writes the hall), no
anonymous clients, no persistence. `DelayProxy` sits between one box and the broker (the
kernel here has no netem): each MQTT packet is held 20 ms +- 10 ms each way, and 1 % of them
200 ms more, in order (a late packet holds back the ones behind it, as TCP does).
"""

from __future__ import annotations

import contextlib
import random
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

HALL = "club"
KEY = "the-hall-key-for-tests"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_port(port: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.02)


def mosquitto() -> str | None:
    return shutil.which("mosquitto") or (
        "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)


class Broker:
    def __init__(self, folder: Path, tables: list[str], hall: str = HALL,
                 tls: tuple[Path, Path, Path] | None = None) -> None:
        """`tls`: (CA, certificate, key): the listener speaks TLS only."""
        self.folder = folder
        self.port = free_port()
        self.passwords = {name: f"pw-{name}" for name in [*tables, "director"]}
        pwfile = folder / "passwd"
        pwfile.write_text("")
        for user, password in self.passwords.items():
            subprocess.run(["mosquitto_passwd", "-b", str(pwfile), user, password], check=True,
                           capture_output=True)
        acl = folder / "acl"
        acl.write_text(f"pattern write erabox/{hall}/table/%u/#\n"
                       f"pattern read erabox/{hall}/reply/%u\n"
                       f"pattern read erabox/{hall}/command\n"
                       f"user director\ntopic readwrite erabox/{hall}/#\n")
        self.conf = folder / "mosquitto.conf"
        tls_lines = "" if tls is None else (
            f"cafile {tls[0]}\ncertfile {tls[1]}\nkeyfile {tls[2]}\n")
        self.conf.write_text(f"listener {self.port} 127.0.0.1\n{tls_lines}"
                             "allow_anonymous false\n"
                             f"password_file {pwfile}\nacl_file {acl}\npersistence false\n"
                             f"user root\nlog_dest file {folder / 'broker.log'}\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = mosquitto()
        assert binary is not None
        self.process = subprocess.Popen([binary, "-c", str(self.conf)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


class DelayProxy:
    """127.0.0.1:`port` -> the broker, delaying each MQTT packet (see the module's text)."""

    def __init__(self, target: int, seed: int, base_s: float = 0.020, jitter_s: float = 0.010,
                 late_p: float = 0.01, late_s: float = 0.200) -> None:
        self.target = target
        self.rng = random.Random(seed)
        self.shape = (base_s, jitter_s, late_p, late_s)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def delay(self) -> float:
        base, jitter, late_p, late_s = self.shape
        d = base + self.rng.uniform(-jitter, jitter)
        return d + late_s if self.rng.random() < late_p else d

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            for s in (client, upstream):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.sockets += [client, upstream]
            self._pump(client, upstream)
            self._pump(upstream, client)

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        queue: list[tuple[float, bytes]] = []
        ready = threading.Condition()

        def read() -> None:
            buffer = b""
            last = 0.0
            while True:
                try:
                    data = source.recv(65536)
                except OSError:
                    data = b""
                with ready:
                    if not data:
                        queue.append((0.0, b""))
                        ready.notify()
                        return
                    packets, buffer = _packets(buffer + data)
                    for packet in packets:
                        last = max(last, time.monotonic() + self.delay())
                        queue.append((last, packet))
                    ready.notify()

        def write() -> None:
            while True:
                with ready:
                    while not queue:
                        ready.wait()
                    at, packet = queue.pop(0)
                if not packet:
                    _close(sink)
                    return
                wait = at - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                try:
                    sink.sendall(packet)
                except OSError:
                    _close(source)
                    return

        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=write, daemon=True).start()

    def close(self) -> None:
        self.closed = True
        self.server.close()
        for s in self.sockets:
            _close(s)


def _close(s: socket.socket) -> None:
    with contextlib.suppress(OSError):
        s.shutdown(socket.SHUT_RDWR)
    s.close()


def _packets(buffer: bytes) -> tuple[list[bytes], bytes]:
    """The whole MQTT packets at the start of `buffer`, and what is left after them."""
    out: list[bytes] = []
    while len(buffer) >= 2:
        length, shift, index = 0, 0, 1
        while True:
            if index >= len(buffer):
                return out, buffer
            byte = buffer[index]
            length |= (byte & 0x7F) << shift
            shift += 7
            index += 1
            if not byte & 0x80:
                break
        end = index + length
        if len(buffer) < end:
            return out, buffer
        out.append(buffer[:end])
        buffer = buffer[end:]
    return out, buffer


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A CA and a certificate it signed for 127.0.0.1 (openssl's command line)."""
    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
            "ca.crt", "-days", "2", "-subj", "/CN=erabox hall test CA")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out",
            "server.csr", "-subj", "/CN=127.0.0.1")
    (folder / "ext").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "ext")
    return folder / "ca.crt", folder / "server.crt", folder / "server.key"


def box_config(folder: Path, table: str, port: int, password: str, *, length_s: float,
               cues: list[float], lead_in_s: int = 0, key: str = KEY,
               hall: str = HALL) -> Path:
    """A box's config: a short era, the hall through `port` (a proxy or the broker)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "erabox.toml"
    path.write_text(
        f'state_file = "{folder / "state.json"}"\n'
        f"[realtime]\nlength_s = {length_s}\nscholar_cues_s = {cues}\n"
        f"lead_in_s = {lead_in_s}\nfinal_ticks_s = 3\n"
        f'[hall]\nbroker = "127.0.0.1:{port}"\nhall = "{hall}"\ntable = "{table}"\n'
        f'password = "{password}"\nkey = "{key}"\n')
    return path


def spawn_proxy(target: int, seed: int) -> tuple[subprocess.Popen[str], int]:
    """A `DelayProxy` in a process of its own (its timing unaffected by the caller's threads);
    returns the process and its port. Ends when its standard input closes."""
    process = subprocess.Popen([sys.executable, __file__, "proxy", str(target), str(seed)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    return process, int(process.stdout.readline())


def stop(process: subprocess.Popen[str]) -> None:
    if process.stdin is not None:
        process.stdin.close()
    process.wait(timeout=10)


if __name__ == "__main__" and sys.argv[1:2] == ["proxy"]:
    proxy = DelayProxy(int(sys.argv[2]), int(sys.argv[3]))
    print(proxy.port, flush=True)
    sys.stdin.read()
    proxy.close()
