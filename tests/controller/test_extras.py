"""A feature whose pip extra is missing stops with one line naming the extra (controller/extras.py)."""

from __future__ import annotations

import pytest

from controller.extras import HALL, MQTT, WEB, Extra, MissingExtra, require


def test_an_installed_extra_is_required_silently() -> None:
    for extra in (WEB, MQTT, HALL):   # the test environment has every extra
        assert extra.missing() == []
        require(extra, "anything")


def test_a_missing_extra_names_itself_its_modules_and_the_way_around() -> None:
    absent = Extra("sound", ("json", "no_such_module_here", "no_such_parent.child"))
    assert absent.missing() == ["no_such_module_here", "no_such_parent.child"]
    with pytest.raises(MissingExtra) as raised:
        require(absent, "Speaking", instead="set speech = false")
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith("Speaking needs the 'sound' extra (no_such_module_here, no_such_parent.child")
    assert "pip install 'draughts-board[sound]'" in message and message.endswith("or set speech = false")
