"""Documents built from plain data: score sheets (PDF, Excel), seating plans, table cards.

Everything here takes the dataclasses of :mod:`scoring.documents.data` and returns bytes; no query
runs inside. Selectors build the data from the database, views wrap the bytes in a response.
"""
