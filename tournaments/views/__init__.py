"""The staff pages of the event and its people (staff.py) and the staff mixin (mixins.py).
May import the rest of tournaments, never scoring."""
