"""Documents from plain data (ground floor): score sheets (PDF, Excel), seating plans, table cards,
standings. Pure Python: imports only its own modules and libraries (reportlab, openpyxl, segno).

Each takes the dataclasses of :mod:`scoring.documents.data` (or rows) and returns bytes; no
query runs here. Selectors (:mod:`scoring.selectors`) build the data, views wrap the bytes.
"""
