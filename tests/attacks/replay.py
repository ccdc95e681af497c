#!/usr/bin/env python3
"""The adversarial reviews replayed from outside against a built `ois`: each attack as its review
ran it, and whether it holds now. Nothing here is a unit of the test suite (each attack also has
its own test there, next to the code it broke): this is the reviewer's run, kept so that it can be
run again after any change. Loopback servers only; nothing leaves the machine. Rounds one and two
were classes of broken input and fuzzing: `tests/it/bad_input.rs` and `fuzz/` replay them.

Usage: python3 tests/attacks/replay.py [path/to/ois]   (default: target/release/ois)
Exit status: 0 when every attack holds, 1 otherwise.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import common  # noqa: E402
import round_three  # noqa: E402,F401 (each round registers its attacks)
import round_four  # noqa: E402,F401
import round_five  # noqa: E402,F401

if __name__ == "__main__":
    if not os.path.exists(common.OIS):
        sys.exit(f"no ois at {common.OIS}: build it (cargo build --release) or name it")
    for replay in common.ATTACKS:
        replay()
    broken = [r for r in common.results if not r[2]]
    print(f"\n{len(common.results) - len(broken)} of {len(common.results)} attacks held")
    sys.exit(1 if broken else 0)
