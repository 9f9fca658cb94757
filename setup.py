"""Build the optional C extensions (the native rules core and engine search); metadata is in pyproject.toml.

Both are `optional`: without a C compiler (or Python headers) the install still succeeds, and the package
runs on its pure-Python core, saying so in one warning line at import.
"""

from setuptools import Extension, setup

# Portable C11, no architecture flags: the same build works on x86-64 and a Raspberry Pi (aarch64, armv7).
FLAGS = ["-std=c11", "-O3", "-Wall", "-Wno-unused-function"]
RULES_HEADERS = ["rules/csrc/dcore.h", "rules/csrc/dparams.h"]

setup(
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
            depends=[*RULES_HEADERS, "engine/csrc/deval.h", "engine/csrc/dsearch.h"],
            include_dirs=["rules/csrc", "engine/csrc"],
            extra_compile_args=FLAGS,
            optional=True,
        ),
    ],
)
