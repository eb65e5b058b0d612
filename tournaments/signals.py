"""What the tournament services announce, for the apps built on this one (scoring listens).

Both are sent inside the service's transaction, so what a receiver writes or refuses is part of it.
"""

from django.dispatch import Signal

# A round was seated: ``round_`` and its new ``tables`` (by number). Scoring gives each table
# its score sheet.
round_seated = Signal()

# A round is about to close: ``round_`` (locked) and the organiser's ``reason``. A receiver
# refuses by raising ServiceError (scoring: while a sheet is unsigned and no reason is given).
round_closing = Signal()

# The organiser is about to correct a player's record (``registration``, locked). A receiver
# refuses by raising ServiceError (scoring: once a sheet the player sat at is signed).
registration_correcting = Signal()
