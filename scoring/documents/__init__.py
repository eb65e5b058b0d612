"""Documents from plain data (ground floor): score sheets, seating plans, table cards, PIN slips,
standings, fingerprints, seals. Pure Python: its own modules, reportlab, openpyxl, segno only.

Each takes the dataclasses of :mod:`scoring.documents.data` (or rows) and returns bytes; no
query runs here. Selectors (:mod:`scoring.selectors`) build the data, views wrap the bytes.
"""
