"""Read a PDF's layout back (pdfplumber): the word boxes and the rules drawn between cells.

What a reader of the paper would see as a fault: two words printed over each other, or a word
running across a cell's rule into its neighbour (« Attaque, annon-720 »).
"""

from __future__ import annotations

import io

import pdfplumber

# pdfplumber boxes are the font's full height (ascent to descent): neighbouring lines of a
# wrapped cell touch. Overlaps under this many points are typesetting, not overprinting.
SLACK = 0.6
# A word's box runs from the font's descent to its ascent; a word with no letter going below
# the baseline (digits, capitals: a table number, a PIN) prints nothing in its descent, which
# may then sit over the line below as on any printed page.
DESCENDERS = set("gjpqyQJç,;()[]{}|/@µ_")
DESCENT = 0.21  # Helvetica and Courier: the descent is about a fifth of the size


def _overlap(a: dict, b: dict) -> bool:
    return (
        min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > SLACK
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > SLACK * 2
    )


def layout_faults(pdf: bytes) -> list[str]:
    """Every place where a word overlaps another word, leaves the page, or crosses a rule (the
    side, top or bottom of a table cell: a word leaving its cell); empty when the document
    reads clean."""
    faults: list[str] = []
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        for number, page in enumerate(document.pages, start=1):
            words = page.extract_words(extra_attrs=["size"])
            for word in words:
                if not DESCENDERS & set(word["text"]):
                    word["bottom"] -= DESCENT * word["size"]
            rules = [
                e for e in page.edges if e["orientation"] == "v" and e["bottom"] - e["top"] > 2
            ]
            rows = [e for e in page.edges if e["orientation"] == "h" and e["x1"] - e["x0"] > 2]
            words.sort(key=lambda w: w["top"])
            for i, word in enumerate(words):
                if word["x0"] < -SLACK or word["x1"] > page.width + SLACK:
                    faults.append(f"page {number}: « {word['text']} » leaves the page")
                for other in words[i + 1 :]:
                    if other["top"] > word["bottom"]:
                        break
                    if _overlap(word, other):
                        faults.append(
                            f"page {number}: « {word['text']} » overlaps « {other['text']} »"
                        )
                for rule in rows:
                    inside = word["top"] + SLACK * 2 < rule["top"] < word["bottom"] - SLACK * 2
                    if inside and rule["x0"] + SLACK < (word["x0"] + word["x1"]) / 2 < rule["x1"]:
                        faults.append(
                            f"page {number}: « {word['text']} » crosses a row's rule "
                            f"at y={rule['top']:.1f}"
                        )
                        break
                for rule in rules:
                    crosses = word["x0"] + SLACK < rule["x0"] < word["x1"] - SLACK
                    beside = min(word["bottom"], rule["bottom"]) - max(word["top"], rule["top"])
                    if crosses and beside > (word["bottom"] - word["top"]) / 2:
                        faults.append(
                            f"page {number}: « {word['text']} » crosses a cell's side "
                            f"at x={rule['x0']:.1f}"
                        )
                        break
    return faults


def page_words(pdf: bytes) -> list[list[str]]:
    """The words of each page, in reading order. A wrapped cell's lines sit closer than a
    table row's other words: read with a tight vertical tolerance and by type size, so that
    its two lines are not read as one interleaved line."""
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return [
            [w["text"] for w in page.extract_words(y_tolerance=1, extra_attrs=["size"])]
            for page in document.pages
        ]
