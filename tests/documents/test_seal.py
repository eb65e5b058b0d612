"""Seals (ground floor): what is signed, and that nothing else verifies."""

from __future__ import annotations

import copy

import pytest

from scoring.documents.fingerprint import canonical_bytes
from scoring.documents.seal import (
    SEAL_CONTEXT,
    SEAL_CONTEXT_2,
    KeyFileError,
    key_code,
    new_private_key,
    private_key_from_pem,
    private_key_to_pem,
    public_key_file,
    public_key_text,
    read_public_key_file,
    seal_message,
    seal_scheme,
    sign_content,
    sign_seal,
    signed_message,
    verify_seal,
)

CONTENT = {
    "version": 1,
    "tournament": "Open de Lyon",
    "round": 1,
    "table": 2,
    "players": [{"seat": "N", "name": "Zoé Ärger", "club": "", "licence": "123"}],
    "deals": [{"number": 1, "points": "40.5", "scores": [50, -50]}],
}


def test_a_seal_signs_the_canonical_bytes_and_verifies_with_the_public_key():
    key = new_private_key()
    signature = sign_content(key, CONTENT)
    assert seal_message(CONTENT) == SEAL_CONTEXT + canonical_bytes(CONTENT)
    assert verify_seal(public_key_text(key), CONTENT, signature)
    # The same content in another key order is the same canonical content.
    reordered = dict(reversed(list(CONTENT.items())))
    assert verify_seal(public_key_text(key), reordered, signature)


def test_an_altered_content_another_key_or_garbage_does_not_verify():
    key = new_private_key()
    signature = sign_content(key, CONTENT)
    altered = copy.deepcopy(CONTENT)
    altered["deals"][0]["points"] = "41"
    assert not verify_seal(public_key_text(key), altered, signature)
    other = new_private_key()
    assert not verify_seal(public_key_text(other), CONTENT, signature)
    # A forger who signs with their own key verifies only against their own key.
    assert verify_seal(public_key_text(other), altered, sign_content(other, altered))
    for bad_key, bad_signature in [
        ("", signature),
        (public_key_text(key), ""),
        ("not base64!", signature),
        (public_key_text(key), signature[:-4]),
        (None, None),
        (12, ["x"]),
        ("A" * 10_000, signature),
    ]:
        assert not verify_seal(bad_key, CONTENT, bad_signature)


def test_the_private_key_survives_its_pem_file_and_the_key_code_is_stable():
    key = new_private_key()
    pem = private_key_to_pem(key)
    assert pem.startswith(b"-----BEGIN PRIVATE KEY-----")
    again = private_key_from_pem(pem)
    assert public_key_text(again) == public_key_text(key)
    code = key_code(public_key_text(key))
    assert len(code) == 19 and code.count("-") == 3
    assert code == key_code(public_key_text(again))
    assert code != key_code(public_key_text(new_private_key()))


def test_a_named_seal_signs_the_content_the_name_and_the_key_together():
    key = new_private_key()
    public = public_key_text(key)
    signature = sign_seal(key, CONTENT, "Club de Lyon")
    assert signed_message(CONTENT, "Club de Lyon", public).startswith(SEAL_CONTEXT_2)
    assert seal_scheme(public, CONTENT, "Club de Lyon", signature) == 2
    assert seal_scheme(public, CONTENT, "Fédération Française de Tarot", signature) == 0
    altered = copy.deepcopy(CONTENT)
    altered["deals"][0]["points"] = "41"
    assert seal_scheme(public, altered, "Club de Lyon", signature) == 0
    other = new_private_key()
    assert seal_scheme(public_key_text(other), CONTENT, "Club de Lyon", signature) == 0
    # A seal made before names were signed is told apart: it signs the content alone.
    assert seal_scheme(public, CONTENT, "any name", sign_content(key, CONTENT)) == 1


def test_the_public_key_file_reads_back_and_an_edited_one_is_refused():
    public = public_key_text(new_private_key())
    text = public_key_file("Club de  Lyon", public)
    assert f"fingerprint: {key_code(public)}" in text and "PRIVATE" not in text
    assert read_public_key_file(text) == ("Club de Lyon", public)
    assert read_public_key_file(public + "\n") == ("", public)
    other = public_key_text(new_private_key())
    for edited, reason in (
        (text.replace(public, other), "fingerprint"),  # the key swapped, the fingerprint kept
        ("installation: Club de Lyon\n", "no-key"),
        (text.replace(public, "bm90IGEga2V5"), "bad-key"),
    ):
        with pytest.raises(KeyFileError) as refused:
            read_public_key_file(edited)
        assert refused.value.reason == reason
