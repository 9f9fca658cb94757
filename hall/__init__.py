"""``dboard hall``: every board of a tournament hall, live, from one MQTT broker.

It subscribes to what the boards publish (``controller.broadcast.wire``), replays each game through the rules
(``model``), and serves live PDN for broadcast pollers, a page of the round's boards, the archive of finished
games, the standings and the arbiter's view (``app``).
"""
