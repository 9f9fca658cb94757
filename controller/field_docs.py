"""Help text for settings from their dataclass: each field's attribute docstring (the string right under it)
is the one description, shown by `--help` with the values the setting accepts and its default."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import textwrap
from functools import cache


@cache
def attribute_docs(cls: type) -> dict[str, str]:
    """Each field's attribute docstring in `cls`'s source, on one line ({} when the source is unavailable)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs = {}
    for node, after in itertools.pairwise(body):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            docs[node.target.id] = " ".join(after.value.value.split())
    return docs


def default_text(value: object) -> str:
    """A default as a person reads it: on/off, empty, or the value."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "empty" if value == "" else str(value)


def setting_help(cls: type, name: str, allowed: str = "") -> str:
    """`--help` text of field `name`: its docstring, the values it accepts (`allowed`), its default; `%`
    escaped for argparse."""
    field = {f.name: f for f in dataclasses.fields(cls)}[name]
    doc = attribute_docs(cls).get(name, "")
    parts = [doc.rstrip(".") + "." if doc else "", f"Allowed: {allowed}." if allowed else "",
             f"Default: {default_text(field.default)}."]
    return " ".join(p for p in parts if p).replace("%", "%%")
