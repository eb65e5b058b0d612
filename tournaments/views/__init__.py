"""Staff pages of the event and its people (staff.py, clubs.py, seat_requests.py), the staff mixin.
May import the rest of tournaments and the pure documents (PIN slips); nothing else of scoring."""
