"""A Hub engine that answers each command word with the raw lines of a script, run by the hostile-reply tests.

    python -I -S scripted_hub.py SCRIPT

SCRIPT is a JSON object mapping a command word (``hub``, ``init``, ``go``) to a list of lines, each given
as hex (so any bytes can be sent: NUL, bytes that are not UTF-8, a line that is not ended). A word's lines are
written, each followed by a newline unless the script's ``"unterminated"`` names that word, when the
command comes; with ``"exit"`` naming a word, the engine exits right after answering it. Only the standard
library is imported, so the engine starts in a few milliseconds.
"""

import json
import sys

with open(sys.argv[1], encoding="utf-8") as file:
    script = json.load(file)
out = sys.stdout.buffer
for raw in sys.stdin:
    words = raw.split()
    word = words[0] if words else ""
    if word == "quit":
        break
    lines = [bytes.fromhex(line) for line in script.get(word, [])]
    for n, line in enumerate(lines, 1):
        last = n == len(lines)
        out.write(line if last and word in script.get("unterminated", []) else line + b"\n")
    out.flush()
    if word in script.get("exit", []):
        break
