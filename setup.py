"""Build the optional C extensions (the native rules core and engine search); metadata is in pyproject.toml.

Both are `optional`: without a C compiler (or Python headers) the install still succeeds, and the package
runs on its pure-Python core, saying so in one warning line at import.
"""

import platform
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent

# Portable C11: the same sources build on x86-64 and on a Raspberry Pi (aarch64, armv7) with gcc. The one
# architecture flag is -mpopcnt, added only when this (x86) machine has the instruction; without it the
# code counts bits in plain C. The engine's parallel search uses POSIX threads: gcc's -pthread, when
# compiling and linking, is the portable way to ask for them (glibc on x86-64 and on the Pi's Debian).


def _has_popcnt() -> bool:
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            return any(line.startswith("flags") and " popcnt" in line for line in cpuinfo)
    except OSError:
        return False


FLAGS = ["-std=c11", "-O3", "-Wall", "-Wno-unused-function", *(["-mpopcnt"] if _has_popcnt() else [])]
RULES_HEADERS = ["rules/csrc/dcore.h", "rules/csrc/dparams.h"]



class BuildPyWithCatalogues(build_py):
    """Compiles the translations (i18n/locale/*/LC_MESSAGES/*.po -> .mo) before the package files are
    gathered: the checkout holds the sources only, an installed package (editable too) the compiled ones."""

    def run(self) -> None:
        sys.path.insert(0, str(HERE))
        try:
            from i18n.compile import compile_catalogues
        finally:
            sys.path.pop(0)
        compile_catalogues(HERE / "i18n" / "locale")
        super().run()


setup(
    cmdclass={"build_py": BuildPyWithCatalogues},
    ext_modules=[
        Extension(
            "rules._native",
            sources=["rules/csrc/_native.c"],
            depends=RULES_HEADERS,
            include_dirs=["rules/csrc"],
            extra_compile_args=FLAGS,
            optional=True,
        ),
        Extension(
            "engine._native",
            sources=["engine/csrc/_native.c"],
            depends=[*RULES_HEADERS, "engine/csrc/deval.h", "engine/csrc/dsearch.h", "engine/csrc/dsmp.h",
                     "engine/csrc/dendgame.h"],
            include_dirs=["rules/csrc", "engine/csrc"],
            extra_compile_args=[*FLAGS, "-pthread"],
            extra_link_args=["-pthread"],
            optional=True,
        ),
    ],
)
