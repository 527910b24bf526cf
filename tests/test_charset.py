"""Bytes to text: BOM, header, meta, UTF-8 preference, detection, binary refusal."""

from __future__ import annotations

import gzip

import pytest

from feedsift.errors import InputError
from feedsift.parsing.charset import decode_html, sniff_binary


def test_bom_wins() -> None:
    decoded = decode_html("<p>hé</p>".encode("utf-16"))
    assert decoded.text == "<p>hé</p>" and decoded.source == "bom"
    assert decode_html(b"\xef\xbb\xbf<p>x</p>").text == "<p>x</p>"


def test_header_charset_beats_meta() -> None:
    data = '<meta charset="utf-8"><p>Grüße</p>'.encode("cp1252")
    decoded = decode_html(data, "text/html; charset=windows-1252")
    assert decoded.text.endswith("Grüße</p>") and decoded.source == "header"


def test_meta_charset_is_used_for_legacy_bytes() -> None:
    data = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'
        "</head><body>Café à la crème</body></html>"
    )
    decoded = decode_html(data.encode("latin-1"))
    assert "Café à la crème" in decoded.text and decoded.source == "meta"
    assert decoded.encoding == "cp1252"  # WHATWG: latin-1 labels mean windows-1252


def test_mislabelled_utf8_is_read_as_utf8() -> None:
    data = '<meta charset="iso-8859-1"><p>naïve café — “quoted”</p>'.encode()
    decoded = decode_html(data)
    assert "naïve café — “quoted”" in decoded.text and decoded.source == "utf-8"


def test_undeclared_legacy_text_is_detected() -> None:
    text = "<p>Это пример текста на русском языке, достаточно длинный для определения.</p>"
    decoded = decode_html(text.encode("cp1251"))
    assert decoded.text == text and decoded.source == "detected"


def test_unknown_label_is_ignored() -> None:
    decoded = decode_html(b'<meta charset="no-such-charset"><p>plain</p>')
    assert decoded.text.endswith("<p>plain</p>")


def test_undecodable_bytes_become_replacement_characters() -> None:
    decoded = decode_html(
        b'<meta charset="utf-8"><p>bad \xff\xfe byte</p>', "text/html; charset=utf-8"
    )
    assert "\ufffd" in decoded.text and "byte" in decoded.text


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"%PDF-1.7 ...", "PDF"),
        (b"\x89PNG\r\n\x1a\n....", "PNG"),
        (gzip.compress(b"<p>x</p>"), "gzip"),
        (bytes(range(32)) * 20, "binary"),
    ],
)
def test_binary_bodies_are_refused(data: bytes, name: str) -> None:
    assert sniff_binary(data) is not None
    with pytest.raises(InputError, match=name):
        decode_html(data)


def test_empty_input_is_refused() -> None:
    with pytest.raises(InputError, match="empty"):
        decode_html(b"  \n ")
