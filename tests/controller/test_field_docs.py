"""Settings' help from their dataclass (issue 28 item 12): `dboard play --help` listed 45 settings with no
help; each now says what its field's docstring says, the values it accepts and its default."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from controller.cli import build_parser
from controller.config import CHOICES, RANGES, Config, ConfigError
from controller.field_docs import attribute_docs, default_text, setting_help
from hall.config import HallConfig


@pytest.mark.parametrize("cls", [Config, HallConfig])
def test_every_setting_has_its_docstring(cls: type) -> None:
    docs = attribute_docs(cls)
    assert set(docs) == {f.name for f in dataclasses.fields(cls)}
    assert all(len(text) > 10 and "\n" not in text for text in docs.values()), docs


def _subparser(name: str) -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


@pytest.mark.parametrize(("command", "cls"), [("play", Config), ("hall", HallConfig)])
def test_each_settings_help_is_its_docstring_allowed_values_and_default(command: str, cls: type) -> None:
    actions = {a.dest: a for a in _subparser(command)._actions}
    docs = attribute_docs(cls)
    for f in dataclasses.fields(cls):
        text = actions[f.name].help or ""
        assert text.startswith(docs[f.name].rstrip(".")), f.name
        assert text.endswith(f"Default: {default_text(f.default)}."), (f.name, text)


def test_the_allowed_values_are_the_ones_the_config_checks() -> None:
    actions = {a.dest: a for a in _subparser("play")._actions}
    assert "Allowed: 1 to 10 (whole numbers). Default: 3." in (actions["level"].help or "")
    assert "Allowed: engine, person, external, dxp." in (actions["opponent"].help or "")
    variant = actions["variant"].help or ""
    assert "russian" in variant and variant.endswith("Default: international.")
    assert "Default: on." in (actions["takeback"].help or "")
    for name, (low, high) in RANGES.items():
        with pytest.raises(ConfigError, match=name):
            Config(**{name: high * 2 + 1})
        assert f"Allowed: {low:g} to {high:g}" in (actions[name].help or "")
    for name, words in CHOICES.items():
        with pytest.raises(ConfigError, match=name):
            Config(**{name: "sideways"})
        assert f"Allowed: {', '.join(words)}." in (actions[name].help or "")


def test_a_field_without_a_docstring_still_says_its_default_and_percent_is_escaped() -> None:
    @dataclasses.dataclass
    class Odd:
        plain: int = 4
        share: str = "50%"
        """Part of the board lit, as a percentage."""

    assert attribute_docs(Odd) == {"share": "Part of the board lit, as a percentage."}
    assert setting_help(Odd, "plain") == "Default: 4."
    assert setting_help(Odd, "share", "0% to 100%") == ("Part of the board lit, as a percentage. "
                                                        "Allowed: 0%% to 100%%. Default: 50%%.")
