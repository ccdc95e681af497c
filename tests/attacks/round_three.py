"""The third adversarial review (#35): an untrusted OIS reading the environment and the secrets file,
snippets that flood their log, writes through links, tampered and foreign records, secrets in an
answer's excerpt, redirects, code run by `validate`, and text that acts on the terminal."""

import os
import stat
import tempfile

from common import *  # noqa: F401,F403 (the replays share their helpers)

ROUND[0] = "three"


@attack("a fixed value ${GITHUB_TOKEN} or ${AIRNODE_WALLET_MNEMONIC} is sent to the OIS's server")
def _():
    api = Api(lambda path, headers: (200, json.dumps({"v": 5})))
    broke = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            secrets = write(folder, "s.env", f"AIRNODE_WALLET_MNEMONIC={MNEMONIC}\nECHO_KEY={KEY}\n")
            for name in ["GITHUB_TOKEN", "AIRNODE_WALLET_MNEMONIC"]:
                ois = echo_ois(api.url)
                ois["apiSpecifications"]["paths"]["/e"]["get"]["parameters"] = [{"in": "query", "name": "q"}]
                ois["endpoints"][0]["fixedOperationParameters"] = [
                    {"operationParameter": {"in": "query", "name": "q"}, "value": "${" + name + "}"}]
                path = write(folder, f"{name}.ois.json", ois)
                done = subprocess.run([OIS, "call", path, "--endpoint", "e", "--secrets", secrets], capture_output=True,
                                      text=True, env={**os.environ, "GITHUB_TOKEN": "ghp-from-the-environment"}, timeout=60)
                if "OIS060" not in done.stdout + done.stderr:
                    broke.append(f"${{{name}}} was not refused")
            if api.saw("ghp-from-the-environment") or api.saw("test test"):
                broke.append("a secret reached the server")
    finally:
        api.close()
    return not broke, "; ".join(broke)


@attack("a snippet's console.log floods memory and outlives its timeout")
def _():
    with tempfile.TemporaryDirectory() as folder:
        api = Api(lambda path, headers: (200, json.dumps({"v": 5})))
        try:
            ois = echo_ois(api.url, keyed=False)
            ois["endpoints"][0]["postProcessingSpecificationV2"] = {
                "environment": "Node", "timeoutMs": 2000,
                "value": "({ response }) => { const s = 'x'.repeat(64 * 1024 * 1024); "
                         "for (let i = 0; i < 20; i++) console.log(s); return { response }; }"}
            path = write(folder, "flood.ois.json", ois)
            started = time.time()
            done = subprocess.run(["/usr/bin/time", "-f", "%M", OIS, "call", path, "--endpoint", "e"],
                                  capture_output=True, text=True, timeout=120)
            took = time.time() - started
            peak_mb = int(done.stderr.strip().splitlines()[-1]) / 1024
            printed = len(done.stdout) + len(done.stderr)
            ran = "values" in done.stdout
            return ran and took < 15 and peak_mb < 1500 and printed < 64 << 20, \
                f"{took:.1f} s, {peak_mb:.0f} MB, {printed} bytes printed"
        finally:
            api.close()


@attack("processing extract writes through a dangling link")
def _():
    with tempfile.TemporaryDirectory() as folder:
        ois = echo_ois("https://api.example.com")
        ois["endpoints"][0]["postProcessingSpecificationV2"] = {"environment": "Node", "timeoutMs": 1000,
                                                                "value": "({ response }) => ({ response })"}
        path = write(folder, "p.ois.json", ois)
        out = os.path.join(folder, "out")
        os.makedirs(out)
        planted = os.path.join(folder, "planted.sh")
        for name in ["post.v2.js", "e.post.v2.js", "e.post.js", "post.js"]:
            os.symlink(planted, os.path.join(out, name))
        run("processing", "extract", path, "--endpoint", "e", "-o", out)
        return not os.path.exists(planted), "the link's target was made"


@attack("a tampered record changes the server of convert --update, silently")
def _():
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(os.path.join(ROOT, "samples/coins.yaml"), folder)
        document = os.path.join(folder, "coins.yaml")
        ois = os.path.join(folder, "coins.ois.json")
        status, _, err = run("convert", document, "-o", ois)
        record = ois.removesuffix(".json") + ".convert.json"
        if status != 0 or not os.path.exists(record):
            return False, f"no record to tamper with: {err[:200]}"
        text = json.load(open(record))
        records = text.get("records") or [text]
        records[0].setdefault("options", {})["server"] = "https://attacker.example"
        write(folder, os.path.basename(record), text)
        status, out, err = run("convert", document, "--update", ois, "--check")
        said = out + err
        return status != 0 and "CNV089" in said, f"--check exit {status}: {said[:300]}"


@attack("a key echoed JSON-escaped, or past the excerpt's cut, is shown in CAL006")
def _():
    escaped_key = "AbCd/EfGh+" + KEY
    api = Api(lambda path, headers: (500, json.dumps({"error": "x" * 590 + headers.get("X-Key", ""),
                                                       "again": headers.get("X-Key", "")})))
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = write(folder, "echo.ois.json", echo_ois(api.url))
            secrets = write(folder, "s.env", f"ECHO_KEY={escaped_key}\n")
            _, out, err = run("call", path, "--endpoint", "e", "--secrets", secrets)
            shown = out + err
            leaked = [form for form in [escaped_key, escaped_key.replace("/", "\\/"), KEY[:12]] if form in shown]
            return bool(api.got) and not leaked, f"shown: {leaked}"
    finally:
        api.close()


@attack("Authorization follows a redirect to another port of the same host")
def _():
    target = Api(lambda path, headers: (200, json.dumps({"v": 5})))
    redirect = Api(lambda path, headers: (200, "{}"))
    # The first server redirects every request to the second (another port, same host).
    import http.server as hs

    class Handler(hs.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(302)
            self.send_header("Location", target.url + self.path)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass
    redirect.server.RequestHandlerClass = Handler
    try:
        with tempfile.TemporaryDirectory() as folder:
            ois = echo_ois(redirect.url)
            ois["apiSpecifications"]["components"]["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
            ois["apiSpecifications"]["security"] = {"bearer": []}
            path = write(folder, "r.ois.json", ois)
            secrets = write(folder, "s.env", f"ECHO_BEARER={KEY}\n")
            _, out, err = run("call", path, "--endpoint", "e", "--secrets", secrets)
            carried = any("Authorization" in headers for _, headers in target.got)
            return bool(target.got) and not carried, f"the other port got {target.got}: {err[:200]}"
    finally:
        target.close()
        redirect.close()


@attack("validate runs code: 400 endpoints whose V2 value loops")
def _():
    with tempfile.TemporaryDirectory() as folder:
        ois = echo_ois("https://api.example.com")
        endpoint = ois["endpoints"][0]
        looping = {"environment": "Node", "timeoutMs": 1000, "value": "(() => { for (;;); })() || (p => p)"}
        ois["endpoints"] = [{**endpoint, "name": f"e{i}", "postProcessingSpecificationV2": looping} for i in range(400)]
        path = write(folder, "loops.ois.json", ois)
        started = time.time()
        status, _, _ = run("validate", path, timeout=60)
        took = time.time() - started
        return status is not None and took < 10, f"{took:.1f} s"


@attack("a record that is a link is replaced, one that is a FIFO hangs convert -o, one linked to /dev/zero floods memory")
def _():
    broke = []
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(os.path.join(ROOT, "samples/coins.yaml"), folder)
        document = os.path.join(folder, "coins.yaml")
        for kind in ["link", "fifo", "zero"]:
            out = os.path.join(folder, f"{kind}.ois.json")
            record = os.path.join(folder, f"{kind}.ois.convert.json")
            if kind == "link":
                write(folder, "outside.json", "mine")
                os.symlink(os.path.join(folder, "outside.json"), record)
            elif kind == "fifo":
                os.mkfifo(record)
            else:
                os.symlink("/dev/zero", record)
            status, _, _ = run("convert", document, "-o", out, timeout=20)
            if status is None:
                broke.append(f"the {kind} record hung convert")
        if open(os.path.join(folder, "outside.json")).read() != "mine":
            broke.append("a record link was written through")
    return not broke, "; ".join(broke)


@attack("--secrets-out files are readable by others")
def _():
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(os.path.join(ROOT, "samples/coins.yaml"), folder)
        secrets = os.path.join(folder, "secrets.env")
        run("convert", os.path.join(folder, "coins.yaml"), "-o", os.path.join(folder, "c.ois.json"), "--secrets-out", secrets)
        mode = stat.S_IMODE(os.stat(secrets).st_mode) if os.path.exists(secrets) else None
        return mode == 0o600, f"mode {oct(mode) if mode is not None else 'not written'}"


@attack("an answer that is not JSON writes terminal escapes raw")
def _():
    api = Api(lambda path, headers: (500, "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cGF3bmVk\x07 maintenance"))
    try:
        with tempfile.TemporaryDirectory() as folder:
            ois = echo_ois(api.url, keyed=False)
            path = write(folder, "t.ois.json", ois)
            _, out, err = run("call", path, "--endpoint", "e")
            return bool(api.got) and "\x1b" not in out + err, "an escape reached the terminal"
    finally:
        api.close()
