"""The fourth adversarial review (#46): an untrusted OIS reaching the node's own secrets, echoed
credentials picked as the value, the studio writing through a link, `ois ids` and `man --dir`, and
names that hide what they are."""

import os
import shutil
import tempfile

from common import *  # noqa: F401,F403 (the replays share their helpers)

ROUND[0] = "four"


@attack("an OIS titled Airnode with a scheme wallet_mnemonic, or a config's credential, gets the mnemonic sent")
def _():
    api = Api(lambda path, headers: (200, json.dumps({"v": 5})))
    broke = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            ois = echo_ois(api.url)
            ois["title"] = "Airnode"
            schemes = ois["apiSpecifications"]["components"]["securitySchemes"]
            schemes["wallet_mnemonic"] = schemes.pop("key")
            ois["apiSpecifications"]["security"] = {"wallet_mnemonic": []}
            path = write(folder, "evil.ois.json", ois)
            secrets = write(folder, "secrets.env", f"AIRNODE_WALLET_MNEMONIC={MNEMONIC}\n")
            run("call", path, "--endpoint", "e", "--secrets", secrets)
            config = base_config()
            config["apiCredentials"][0]["securitySchemeValue"] = "${AIRNODE_WALLET_MNEMONIC}"
            config["ois"][0]["apiSpecifications"]["servers"][0]["url"] = api.url
            config_path = write(folder, "config.json", config)
            status, out, err = run("validate", config_path)
            if status == 0 or "OIS081" not in out + err:
                broke.append("validate passed a credential naming the mnemonic")
            run("call", config_path, "--secrets", secrets)
            # An environment variable a config names is not read unless asked for.
            env_config = base_config()
            env_config["apiCredentials"][0]["securitySchemeValue"] = "${HOME_SECRET_VAR}"
            env_config["ois"][0]["apiSpecifications"]["servers"][0]["url"] = api.url
            done = subprocess.run([OIS, "call", write(folder, "env.json", env_config)], capture_output=True, text=True,
                                  env={**os.environ, "HOME_SECRET_VAR": "from-the-environment"}, timeout=60)
            if api.saw("from-the-environment"):
                broke.append("an environment variable was sent")
            if api.saw("test test"):
                broke.append("the mnemonic was sent")
            del done
    finally:
        api.close()
    return not broke, "; ".join(broke)


@attack("an echoed credential picked as the value (string, string32) is printed")
def _():
    api = Api(lambda path, headers: (200, json.dumps({"headers": {"x-key": headers.get("X-Key", "")}})))
    broke = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            secrets = write(folder, "s.env", f"ECHO_KEY={KEY}\n")
            for kind in ["string", "string32", "bytes"]:
                ois = echo_ois(api.url)
                ois["endpoints"][0]["reservedParameters"] = [{"name": "_type", "fixed": kind},
                                                             {"name": "_path", "fixed": "headers.x-key"}]
                path = write(folder, f"{kind}.ois.json", ois)
                for fmt in ["text", "json"]:
                    _, out, err = run("call", path, "--endpoint", "e", "--secrets", secrets, "--format", fmt)
                    forms = [KEY, KEY.encode().hex(), base64.b64encode(KEY.encode()).decode()]
                    if any(form in out + err for form in forms):
                        broke.append(f"{kind} in {fmt}")
            if not api.got:
                broke.append("the API was not called")
    finally:
        api.close()
    return not broke, "shown: " + "; ".join(broke)


@attack("the studio saves the record through a link to a file outside its folder")
def _():
    with tempfile.TemporaryDirectory() as parent:
        folder = studio_folder(parent, "outside.json", "coins.ois.convert.json")
        studio = Studio(folder, "coins.yaml")
        try:
            studio.api("/api/open", {"path": "coins.yaml"})
            status, answer = studio.api("/api/save", {"what": "ois", "path": "coins.ois.json", "force": True})
        finally:
            studio.close()
        written = open(os.path.join(parent, "outside.json")).read() != "mine"
        return not written and '"ok":true' not in answer.replace(" ", ""), f"written through: {written}; {answer[:200]}"


@attack("ois ids prints a document's terminal escapes, waits on a FIFO, reads a link to /dev/zero")
def _():
    broke = []
    with tempfile.TemporaryDirectory() as folder:
        ois = echo_ois("https://api.example.com")
        ois["title"] = "Evil\x1b]52;c;cGF3bmVk\x07"
        ois["endpoints"][0]["name"] = "e\x1b[2J"
        path = write(folder, "evil.ois.json", ois)
        _, out, err = run("ids", path)
        if "\x1b" in out + err:
            broke.append("an escape reached the terminal")
        fifo = os.path.join(folder, "fifo")
        os.mkfifo(fifo)
        status, _, _ = run("ids", path, "--templates", fifo, timeout=10)
        if status is None:
            broke.append("--templates FIFO waited")
        os.symlink("/dev/zero", os.path.join(folder, "zero.json"))
        status, _, _ = run("ids", path, "--templates", os.path.join(folder, "zero.json"), timeout=10)
        if status is None or status == 0:
            broke.append("a link to /dev/zero was read")
    return not broke, "; ".join(broke)


@attack("ois man --dir writes through a link in the folder")
def _():
    with tempfile.TemporaryDirectory() as parent:
        folder = os.path.join(parent, "man")
        os.makedirs(folder)
        write(parent, "outside", "mine")
        os.symlink(os.path.join(parent, "outside"), os.path.join(folder, "ois.1"))
        status, out, err = run("man", "--dir", folder)
        held = open(os.path.join(parent, "outside")).read() == "mine"
        return held and status != 0 and "OUT001" in out + err, f"written through the link ({status}): {err[:200]}"


@attack("invisible and bidirectional characters: chosen with --rename, printed raw by list and validate")
def _():
    broke = []
    with tempfile.TemporaryDirectory() as folder:
        ois = echo_ois("https://api.example.com")
        ois["endpoints"][0]["name"] = "price\u202egnp\u200b"
        path = write(folder, "bidi.ois.json", ois)
        for args in [("endpoint", "list", path), ("validate", path)]:
            _, out, err = run(*args)
            if "\u202e" in out + err or "\u200b" in out + err:
                broke.append(f"{args[0]} printed them raw")
        clean = write(folder, "clean.ois.json", echo_ois("https://api.example.com"))
        status, _, _ = run("endpoint", "set", clean, "e", "--rename", "a\u202eb")
        if status == 0:
            broke.append("--rename took one")
    return not broke, "; ".join(broke)
