"""What the replays of the adversarial reviews share: `ois` run as a user runs it, loopback APIs
that keep what they were sent, the studio talked to as its page talks to it, and the record of
which attacks held."""

import base64
import http.server
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OIS = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "ois")
ROUND = ["?"]
MNEMONIC = "test test test test test test test test test test test junk"
KEY = "k-5e3cre7-value"
results = []


def run(*args, stdin=None, timeout=60, cwd=None):
    """`ois ARGS`: (exit status, stdout, stderr); status None when it ran past `timeout`."""
    try:
        done = subprocess.run([OIS, *args], input=stdin, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                              env={**os.environ, "NO_COLOR": "1"})
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timed out"


def attack(name):
    """Registers `check` (it returns whether the attack held, and what broke) under `name`, in the
    round being defined."""
    round_name = ROUND[0]

    def register(check):
        def replay():
            started = time.time()
            try:
                held, detail = check()
            except Exception as error:  # an attack that cannot be replayed counts as broken
                held, detail = False, f"{type(error).__name__}: {error}"
            results.append((round_name, name, held, detail, time.time() - started))
            print(('held ' if held else 'BROKE') + f'  round {round_name}: {name}' + ('' if held else f'\n       {detail}'), flush=True)
        ATTACKS.append(replay)
        return check
    return register


ATTACKS = []


class Api:
    """A loopback API that answers every request with `answer(path, headers)` and keeps what it got."""

    def __init__(self, answer):
        got = self.got = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                got.append((self.path, dict(self.headers)))
                status, body = answer(self.path, self.headers)
                data = body.encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_POST = do_GET

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()

    def saw(self, text):
        return any(text in path or any(text in v for v in headers.values()) for path, headers in self.got)


def base_config(url="http://127.0.0.1:8090"):
    config = json.load(open(os.path.join(ROOT, "tests/codes/OIS091.config.json")))
    config["signedApis"][0]["authToken"] = "${SIGNED_API_AUTH_TOKEN}"
    config["signedApis"][0]["url"] = url
    return config


def write(folder, name, value):
    path = os.path.join(folder, name)
    with open(path, "w") as out:
        out.write(value if isinstance(value, str) else json.dumps(value, indent=2))
    return path


def echo_ois(url, keyed=True):
    """An OIS of one endpoint `e` (GET /e, its value at `v`) on `url`: with an API key in the
    `X-Key` header (`ECHO_KEY` in a secrets file) when `keyed`."""
    schemes = {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}} if keyed else {}
    return {
        "oisFormat": "3.0.0", "title": "Echo", "version": "1.0.0",
        "apiSpecifications": {
            "servers": [{"url": url}], "paths": {"/e": {"get": {"parameters": []}}},
            "components": {"securitySchemes": schemes},
            "security": {name: [] for name in schemes}},
        "endpoints": [{"name": "e", "operation": {"method": "get", "path": "/e"}, "fixedOperationParameters": [],
                       "parameters": [], "reservedParameters": [{"name": "_type", "fixed": "int256"},
                                                                {"name": "_path", "fixed": "v"}]}]}


def studio_folder(parent, outside, link):
    """A folder for the studio below `parent`, holding samples/coins.yaml and `link`, a link to the
    file `outside` beside the folder (which holds "mine")."""
    folder = os.path.join(parent, "studio")
    os.makedirs(folder)
    shutil.copy(os.path.join(ROOT, "samples/coins.yaml"), folder)
    write(parent, outside, "mine")
    os.symlink(os.path.join(parent, outside), os.path.join(folder, link))
    return folder


class Studio:
    """`ois studio` in `folder`, talked to as the page talks to it (or as another client would)."""

    def __init__(self, folder, *args):
        self.process = subprocess.Popen([OIS, "studio", *args, "--no-open", "--port", "0"], cwd=folder,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        url = self.process.stdout.readline().strip().removeprefix("ois studio: ")
        self.port = int(url.split(":")[2].split("/")[0])
        self.token = url.split("token=")[1]

    def raw(self, method, path, headers, body=b"", timeout=10):
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in headers.items()),
                 f"Content-Length: {len(body)}", "Connection: close", "", ""]
        sock.sendall("\r\n".join(lines).encode() + body)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
        return int(data.split(b" ")[1]), data.split(b"\r\n\r\n", 1)[-1].decode(errors="replace")

    def api(self, path, body, **headers):
        sent = {"Host": f"127.0.0.1:{self.port}", "X-Ois-Token": self.token, "Content-Type": "application/json", **headers}
        return self.raw("POST", path, sent, json.dumps(body).encode())

    def close(self):
        self.process.kill()
        _, log = self.process.communicate()
        return log


