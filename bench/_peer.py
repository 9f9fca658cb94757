"""A peer from git for the benches that measure this tree against an earlier one in the same run: the
earlier commit's packages unpacked into a temporary folder, with this tree's compiled cores copied in (their
C sources are the same, so both sides run the native core), and a command run in it."""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("controller", "firmware_bridge", "readers", "rules", "engine")
"""What a peer brings of its own: all of the product it runs."""


def run_in_peer(commit: str, command: list[str],
                prefix: str) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """Run ``command`` in ``commit``'s tree (its packages first on the path); ``{tree}`` in an argument is
    replaced by the tree's folder. The folder is removed afterwards; its path is returned for checks."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, *PACKAGES], check=True,
                                 capture_output=True).stdout
        tar = Path(tmp) / "tree.tar"
        tar.write_bytes(archive)
        with tarfile.open(tar) as files:
            files.extractall(tmp, filter="data")
        for built in [*ROOT.glob("rules/_native*.so"), *ROOT.glob("engine/_native*.so")]:
            shutil.copy2(built, Path(tmp) / built.parent.name / built.name)
        out = subprocess.run([arg.replace("{tree}", tmp) for arg in command], capture_output=True, text=True,
                             cwd=tmp, env={**os.environ, "PYTHONPATH": os.pathsep.join([tmp, str(ROOT)])})
        return Path(tmp), out
