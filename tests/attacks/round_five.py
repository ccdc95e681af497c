"""The fifth adversarial review (#61): a config from someone else routing the node's secrets,
`ois mock`, recordings, `call --compare`, `ois feed` files, `scaffold signed-api`, and the studio's
newer routes."""

from common import *  # noqa: F401,F403 (the replays share their helpers)

ROUND[0] = "five"

# ---- High: a config names the node's own secrets where the node sends them

@attack("a Feed config sends the mnemonic as a signed API's token, in its URL, or as a template value")
def _():
    with tempfile.TemporaryDirectory() as folder:
        secrets = write(folder, "secrets.env", f"AIRNODE_WALLET_MNEMONIC={MNEMONIC}\nBASE_KEY=k\nSIGNED_API_AUTH_TOKEN=t0123456789\n")
        broke = []
        for where in ["token", "url", "template"]:
            config = base_config()
            if where == "token":
                config["signedApis"][0]["authToken"] = "${AIRNODE_WALLET_MNEMONIC}"
            elif where == "url":
                config["signedApis"][0]["url"] = "https://signed-api.elsewhere/${AIRNODE_WALLET_MNEMONIC}"
            else:
                template = next(iter(config["templates"].values()))
                template["parameters"][0]["value"] = "${AIRNODE_WALLET_MNEMONIC}"
            path = write(folder, f"{where}.json", config)
            status, out, err = run("validate", path)
            if status == 0 or "OIS091" not in out + err:
                broke.append(f"validate passed it in the {where}")
            status, out, err = run("scaffold", "signed-api", path, "--secrets", secrets)
            if status == 0 or MNEMONIC in out + err:
                broke.append(f"scaffold signed-api wrote it from the {where}")
        return not broke, "; ".join(broke)


# ---- Medium

@attack("call THIS --compare OTHER sends OTHER's server the secrets THIS names for the node")
def _():
    api = Api(lambda path, headers: (200, json.dumps({"price": 7})))
    try:
        with tempfile.TemporaryDirectory() as folder:
            this = base_config()
            this["nodeSettings"]["airnodeWalletMnemonic"] = "${SEED_WORDS}"
            this["signedApis"][0]["authToken"] = "${PUSH_TOKEN}"
            other = base_config()
            # The other config's API credential names this one's node secrets under its own names.
            other["apiCredentials"][0]["securitySchemeValue"] = "${SEED_WORDS}"
            other["ois"][0]["apiSpecifications"]["servers"][0]["url"] = api.url
            this_path, other_path = write(folder, "this.json", this), write(folder, "other.json", other)
            secrets = write(folder, "s.env", f"SEED_WORDS={MNEMONIC}\nPUSH_TOKEN=push-0123456789\nBASE_KEY=k\n")
            _, out, err = run("call", this_path, "--compare", other_path, "--secrets", secrets, timeout=60)
            leaked = api.saw("test test") or api.saw("push-0123456789")
            # Held when nothing of them reached the API: refused (OIS081), or called without them.
            return (bool(api.got) or "OIS081" in out + err) and not leaked, f"the API got {api.got}"
    finally:
        api.close()


@attack("--record writes through a link in the recordings folder, or makes a file through a dangling one")
def _():
    api = Api(lambda path, headers: (200, json.dumps({"id": 1, "v": 5})))
    try:
        with tempfile.TemporaryDirectory() as folder:
            ois = json.load(open(os.path.join(ROOT, "docs/examples/price.ois.json")))
            path = write(folder, "api.ois.json", ois)
            endpoint = ois["endpoints"][0]["name"]
            recordings = os.path.join(folder, "rec")
            outside = os.path.join(folder, "outside.txt")
            write(folder, "outside.txt", "mine")
            # A first run names the file; then it is made a link out.
            run("call", path, "--endpoint", endpoint, "--server", api.url, "--record", recordings)
            names = os.listdir(recordings) if os.path.isdir(recordings) else []
            broke = []
            for name in names:
                target = os.path.join(recordings, name)
                os.remove(target)
                os.symlink(outside, target)
            run("call", path, "--endpoint", endpoint, "--server", api.url, "--record", recordings)
            if open(outside).read() != "mine":
                broke.append("the file outside was replaced")
            for name in names:
                os.remove(os.path.join(recordings, name))
                os.symlink(os.path.join(folder, "made-outside.json"), os.path.join(recordings, name))
            run("call", path, "--endpoint", endpoint, "--server", api.url, "--record", recordings)
            if os.path.exists(os.path.join(folder, "made-outside.json")):
                broke.append("a file was made through a dangling link")
            return bool(names) and not broke, "; ".join(broke) or "nothing was recorded"
    finally:
        api.close()


@attack("a credential echoed as a JSON key, or in base64 at any offset, is printed or recorded")
def _():
    def answer(path, headers):
        key = headers.get("X-Key", "")
        header = f"X-Key: {key}"
        encoded = [base64.b64encode((" " * shift + header).encode()).decode() for shift in range(3)]
        return 200, json.dumps({key: 1, "b64": encoded, "v": 5})
    api = Api(answer)
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = write(folder, "echo.ois.json", echo_ois(api.url))
            secrets = write(folder, "s.env", f"ECHO_KEY={KEY}\n")
            forms = [KEY] + [base64.b64encode((" " * s + f"X-Key: {KEY}").encode()).decode()[4:20] for s in range(3)]
            shown = ""
            for fmt in ["text", "json"]:
                _, out, err = run("call", path, "--endpoint", "e", "--secrets", secrets, "--format", fmt,
                                  "--record", os.path.join(folder, "rec"))
                shown += out + err
            for name in os.listdir(os.path.join(folder, "rec")):
                shown += open(os.path.join(folder, "rec", name)).read()
            leaked = [form for form in forms if form in shown]
            return not leaked and api.got, f"shown or recorded: {leaked}"
    finally:
        api.close()


def mock_document(schema):
    return {"openapi": "3.0.0", "info": {"title": "M", "version": "1"},
            "paths": {"/m": {"get": {"responses": {"200": {"description": "ok",
                                                                "content": {"application/json": {"schema": schema}}}}}}},
            "components": {"schemas": {"Node": schema}}}


def mock_answers(document, folder, timeout=20):
    """Starts `ois mock` on `document`, GETs /m: (answered, peak memory in MB)."""
    path = write(folder, "doc.json", document)
    mock = subprocess.Popen([OIS, "mock", path, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = mock.stdout.readline()
        port = int(line.strip().rsplit(":", 1)[1].strip("/"))
        sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        sock.sendall(f"GET /m HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
        peak = int(open(f"/proc/{mock.pid}/status").read().split("VmHWM:")[1].split()[0]) / 1024
        return data.startswith(b"HTTP/1.1 200"), peak
    except Exception:
        return False, 0
    finally:
        mock.kill()
        mock.wait()


@attack("ois mock of a tiny document: recursive arrays, self-referencing properties, a huge minLength")
def _():
    cases = {
        "a recursive array with minItems 1": {"type": "array", "minItems": 1, "items": {"$ref": "#/components/schemas/Node"}},
        "self-referencing required properties": {"type": "object", "required": ["a", "b"], "properties": {
            "a": {"$ref": "#/components/schemas/Node"}, "b": {"$ref": "#/components/schemas/Node"}}},
        "minLength 3000000": {"type": "string", "minLength": 3000000},
    }
    broke = []
    with tempfile.TemporaryDirectory() as folder:
        for name, schema in cases.items():
            started = time.time()
            answered, peak = mock_answers(mock_document(schema), folder)
            if not answered or peak > 200 or time.time() - started > 15:
                broke.append(f"{name}: answered {answered}, {peak:.0f} MB, {time.time() - started:.1f} s")
    return not broke, "; ".join(broke)


@attack("the memory of replay, mock, --check and validate stays within 10x of what they read")
def _():
    # bench/memory.sh measures each command; here the review's two worst: validate and replay.
    with tempfile.TemporaryDirectory() as folder:
        ois = echo_ois("http://127.0.0.1:1")
        prices = "[" + ",".join(["6123.45"] * 1_200_000) + "]"
        path = write(folder, "big.ois.json", json.dumps(ois)[:-1] + ',"x-answers":' + prices + "}")
        broke = []
        for args, read in [(["validate", path], path)]:
            done = subprocess.run(["/usr/bin/time", "-f", "%M", OIS, *args], capture_output=True, text=True)
            peak = int(done.stderr.strip().splitlines()[-1]) * 1024
            if peak > 10 * os.path.getsize(read):
                broke.append(f"{args[0]}: {peak / os.path.getsize(read):.1f}x")
        return not broke, "; ".join(broke)


@attack("the mock's log prints the real query key of a call pointed at it")
def _():
    with tempfile.TemporaryDirectory() as folder:
        document = {"openapi": "3.0.0", "info": {"title": "Q", "version": "1"},
                    "paths": {"/q": {"get": {"responses": {"200": {"description": "ok", "content": {
                        "application/json": {"schema": {"type": "object", "properties": {"v": {"type": "number"}}}}}}}}}},
                    "components": {"securitySchemes": {"k": {"type": "apiKey", "in": "query", "name": "api_key"}}},
                    "security": [{"k": []}]}
        path = write(folder, "q.json", document)
        mock = subprocess.Popen([OIS, "mock", path, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            port = int(mock.stdout.readline().strip().rsplit(":", 1)[1].strip("/"))
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(f"GET /q?api_key={KEY} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            while sock.recv(65536):
                pass
            time.sleep(0.3)
        finally:
            mock.kill()
            out, err = mock.communicate()
        return KEY not in out + err, "the key is in the mock's log"


# ---- Low

@attack("the mock: a stalled client, a foreign Host, CR LF in a recorded header, odd statuses, raw control characters")
def _():
    with tempfile.TemporaryDirectory() as folder:
        recordings = os.path.join(folder, "rec")
        os.makedirs(recordings)
        for name, status, headers in [("a", 200, [["x-split", "a\r\nInjected: 1"]]), ("b", 101, []), ("c", 65535, []),
                                      ("d\x1b[2J", 0, [])]:
            write(recordings, f"get-{name.encode().hex()}.json", {
                "oisRecording": 1, "request": {"method": "GET", "url": f"http://127.0.0.1:1/{name}"},
                "response": {"status": status, "headers": headers, "body": {"v": 1}}, "latencyMs": 1})
        mock = subprocess.Popen([OIS, "mock", recordings, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        broke = []
        try:
            port = int(mock.stdout.readline().strip().rsplit(":", 1)[1].strip("/"))

            def get(target, host=f"127.0.0.1:{port}", timeout=5):
                sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
                sock.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
                data = b""
                while chunk := sock.recv(65536):
                    data += chunk
                return data
            stalled = socket.create_connection(("127.0.0.1", port))
            stalled.sendall(f"POST /a HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 100000\r\n\r\n".encode())
            started = time.time()
            answer = get("/a")
            if not answer.startswith(b"HTTP/1.1 200"):
                broke.append(f"the recording was not served: {answer[:60]!r}")
            if time.time() - started > 3:
                broke.append("a stalled client held another")
            if b"\r\nInjected: 1\r\n" in answer:
                broke.append("a recorded header was sent as two")
            if not get("/a", host="evil.example").startswith(b"HTTP/1.1 4"):
                broke.append("a foreign Host was answered")
            for name in ["b", "c"]:
                status = get(f"/{name}").split(b" ")[1]
                if status in (b"101", b"65535", b"0"):
                    broke.append(f"status {status.decode()} sent as recorded")
            get("/d%1b%5b2J\x1b[2J")
            stalled.close()
        finally:
            mock.kill()
            _, err = mock.communicate()
        if "\x1b" in err:
            broke.append("a control character reached the log raw")
        return not broke, "; ".join(broke)


@attack("call --all --replay of N endpoints against N recordings is quadratic")
def _():
    with tempfile.TemporaryDirectory() as folder:
        ois = echo_ois("http://127.0.0.1:1", keyed=False)
        template = ois["endpoints"][0]
        recordings = os.path.join(folder, "rec")
        os.makedirs(recordings)
        count = 4000
        ois["apiSpecifications"]["paths"] = {f"/e{i}": {"get": {"parameters": []}} for i in range(count)}
        ois["endpoints"] = [{**template, "name": f"e{i}", "operation": {"method": "get", "path": f"/e{i}"}} for i in range(count)]
        for i in range(count):
            write(recordings, f"get-e{i}.json", {"oisRecording": 1, "request": {"method": "GET", "url": f"http://127.0.0.1:1/e{i}"},
                                                 "response": {"status": 200, "headers": [], "body": {"v": i}}, "latencyMs": 1})
        path = write(folder, "many.ois.json", ois)
        started = time.time()
        status, out, err = run("call", path, "--all", "--replay", recordings, "--format", "json", timeout=60)
        took = time.time() - started
        return status == 0 and took < 20, f"status {status}, {took:.1f} s for {count}"


@attack("secrets templates take line breaks from the names they quote; validate prints a literal token")
def _():
    with tempfile.TemporaryDirectory() as folder:
        config = base_config()
        config["signedApis"][0]["name"] = "ok\nINJECTED=1"
        path = write(folder, "c.json", config)
        secrets = write(folder, "s.env", f"AIRNODE_WALLET_MNEMONIC={MNEMONIC}\nBASE_KEY=k\nSIGNED_API_AUTH_TOKEN=t0123456789\n")
        out_env = os.path.join(folder, "signed-api.env")
        run("scaffold", "signed-api", path, "--secrets", secrets, "-o", os.path.join(folder, "sa.json"), "--secrets-out", out_env)
        broke = []
        if os.path.exists(out_env) and any(line.startswith("INJECTED=") for line in open(out_env).read().splitlines()):
            broke.append("a name added a line to signed-api.env")
        literal = base_config()
        literal["signedApis"][0]["authToken"] = "literal-token-0123456789"
        _, out, err = run("validate", write(folder, "l.json", literal))
        if "literal-token-0123456789" in out + err:
            broke.append("validate printed the literal token")
        return not broke, "; ".join(broke)


@attack("scaffold feed writes from an OIS that validate calls invalid")
def _():
    with tempfile.TemporaryDirectory() as folder:
        ois = echo_ois("https://api.example.com")
        ois["endpoints"][0]["reservedParameters"] = []  # no _type: invalid
        path = write(folder, "bad.ois.json", ois)
        status, _, _ = run("validate", path)
        out = os.path.join(folder, "feed.json")
        scaffolded, _, _ = run("scaffold", "feed", path, "--endpoint", "e", "-o", out)
        return status != 0 and (scaffolded != 0 and not os.path.exists(out)), f"validate {status}, scaffold {scaffolded}"


def feed_ois(folder):
    ois = echo_ois("https://api.example.com", keyed=False)
    ois["apiSpecifications"]["paths"] = {"/simple/price": {"get": {"parameters": [{"in": "query", "name": "ids"}]}}}
    ois["endpoints"] = []
    path = write(folder, "api.ois.json", ois)
    return path


@attack("ois feed: CR LF in a blueprint's path, a feed named .., --batches FIFO, a bad --batches after the import")
def _():
    broke = []
    with tempfile.TemporaryDirectory() as folder:
        path = feed_ois(folder)
        status, _, err = run("feed", "add", path, "BTC/USD", "--operation", "GET /simple/price", "--param", "ids=bitcoin",
                             "--value", "bitcoin.usd")
        if status != 0:
            return False, f"feed add failed: {err}"
        blueprints = [{"name": "EVIL/USD", "path": "/simple/price\r\nX: 1", "parameters": {"ids": "evil"}, "value": "evil.usd"}]
        run("feed", "import", path, write(folder, "bp.json", blueprints))
        _, out, _ = run("feed", "list", path)
        if "\r\nX: 1" in out or "\nX: 1" in out:
            broke.append("feed list printed a line break from a path")
        status, _, err = run("feed", "add", path, "..", "--operation", "GET /simple/price", "--param", "ids=dots",
                             "--value", "dots.usd")
        exported = os.path.join(folder, "exported")
        run("feed", "export", path, exported)
        again = feed_ois(os.path.join(folder, "again") if os.makedirs(os.path.join(folder, "again")) is None else folder)
        run("feed", "import", again, exported)
        _, listed, _ = run("feed", "list", again, "--format", "json")
        if status == 0 and '".."' not in listed:
            broke.append("a feed named .. was lost between export and import")
        fifo = os.path.join(folder, "fifo")
        os.mkfifo(fifo)
        status, _, _ = run("feed", "import", path, write(folder, "bp2.json", []), "--batches", fifo, timeout=10)
        if status is None:
            broke.append("--batches FIFO waited")
        before = open(path).read()
        good = [{"name": "ETH/USD", "path": "/simple/price", "parameters": {"ids": "ethereum"}, "value": "ethereum.usd"}]
        status, _, _ = run("feed", "import", path, write(folder, "bp3.json", good), "--batches", write(folder, "bad.json", "{"))
        if status == 0 or open(path).read() != before:
            broke.append("a bad --batches left the OIS rewritten")
    return not broke, "; ".join(broke)


# ---- The studio's own routes: what it adds to the paths it shares with the command line

@attack("the studio: no token, a foreign Host or Origin, a stalled body, a file outside its folder")
def _():
    broke = []
    with tempfile.TemporaryDirectory() as parent:
        folder = studio_folder(parent, "outside.ois.json", "link.ois.json")
        studio = Studio(folder, "coins.yaml")
        try:
            for what, headers in [("no token", {"Host": f"127.0.0.1:{studio.port}"}),
                                  ("a foreign Host", {"Host": "evil.example", "X-Ois-Token": studio.token}),
                                  ("a foreign Origin", {"Host": f"127.0.0.1:{studio.port}", "X-Ois-Token": studio.token,
                                                        "Origin": "https://evil.example"})]:
                status, _ = studio.raw("POST", "/api/disk", headers)
                if status < 400:
                    broke.append(f"{what} was answered {status}")
            stalled = socket.create_connection(("127.0.0.1", studio.port))
            stalled.sendall(f"POST /api/text HTTP/1.1\r\nHost: 127.0.0.1:{studio.port}\r\nX-Ois-Token: {studio.token}\r\n"
                            "Content-Length: 100000\r\n\r\n{".encode())
            started = time.time()
            status, _ = studio.api("/api/disk", {})
            if status != 200 or time.time() - started > 3:
                broke.append("a stalled body held another request")
            for path in ["../escaped.ois.json", os.path.join(parent, "abs.ois.json"), "link.ois.json"]:
                studio.api("/api/save", {"what": "ois", "path": path, "force": True})
            if os.path.exists(os.path.join(parent, "escaped.ois.json")) or os.path.exists(os.path.join(parent, "abs.ois.json")):
                broke.append("a file was written outside the folder")
            if open(os.path.join(parent, "outside.ois.json")).read() != "mine":
                broke.append("a save wrote through a link")
            stalled.close()
        finally:
            log = studio.close()
        if studio.token in log:
            broke.append("the token reached the log")
    return not broke, "; ".join(broke)


@attack("the studio: secrets typed in never come back, and the mnemonic held never reaches an API")
def _():
    api = Api(lambda path, headers: (200, json.dumps({"v": 5, "echo": headers.get("X-Key", "")})))
    broke = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            ois = echo_ois(api.url)
            ois["title"] = "Echo"
            ois["endpoints"][0]["name"] = "e"
            write(folder, "echo.ois.json", ois)
            studio = Studio(folder, "echo.ois.json")
            answers = []
            try:
                answers.append(studio.api("/api/secrets", {"ECHO_KEY": KEY, "AIRNODE_WALLET_MNEMONIC": MNEMONIC})[1])
                call = {"endpoint": "e", "parameters": [], "server": api.url}
                answers.append(studio.api("/api/call", call)[1])
                for route in ["/api/calls", "/api/state", "/api/draft"]:
                    answers.append(studio.api(route, {})[1])
                answers.append(studio.api("/api/build", {"node": "feed", "feeds": ["e:"]})[1])
            finally:
                log = studio.close()
            shown = "".join(answers) + log
            if not api.got:
                broke.append(f"the API was not called: {answers[1][:300]}")
            for secret in [KEY, MNEMONIC]:
                if secret in shown:
                    broke.append(f"{secret[:6]}… came back")
            if api.saw("test test"):
                broke.append("the mnemonic reached the API")
    finally:
        api.close()
    return not broke, "; ".join(broke)


