"""Bytes to text: BOM, header, meta, UTF-8 preference, detection, binary refusal."""

from __future__ import annotations

import gzip
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
    decoded = decode_html(b"\xef\xbb\xbf<p>bad \xff\xfe byte</p>")
    assert decoded.text == "<p>bad \ufffd\ufffd byte</p>" and decoded.source == "bom"
    assert "replaced by U+FFFD" in decoded.reason


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


# --- declarations the bytes do not decode in ---------------------------------------------

WESTERN = "<p>Café à la crème, voilà — très bien. Don’t “quote” me; Grüße aus München.</p>"


@pytest.mark.parametrize("where", ["meta", "header"])
def test_windows_1252_behind_a_utf8_label_is_detected(where: str) -> None:
    html = ('<html><head><meta charset="utf-8"></head>' if where == "meta" else "") + WESTERN
    header = "text/html; charset=utf-8" if where == "header" else None
    decoded = decode_html(html.encode("cp1252"), header)
    assert decoded.text == html and "\ufffd" not in decoded.text
    assert (decoded.encoding, decoded.source, decoded.declared) == ("cp1252", "detected", "utf-8")
    assert decoded.reason.startswith(f"declared utf-8 ({where}) does not decode")
    assert decoded.reason.endswith("detected cp1252")


def test_a_failing_header_label_gives_way_to_the_meta_one() -> None:
    html = '<meta charset="windows-1252">' + WESTERN
    decoded = decode_html(html.encode("cp1252"), "text/html; charset=utf-8")
    assert decoded.text == html and (decoded.encoding, decoded.source) == ("cp1252", "meta")
    assert decoded.declared == "utf-8" and decoded.reason.endswith("the <meta> says cp1252")


@pytest.mark.parametrize(
    ("text", "codec"),
    [("<p>Это пример текста на русском языке, новости дня.</p>", "cp1251"),
     ("<p>日本語のテキストです。これはテストです。</p>", "cp932")],
)  # fmt: skip
def test_other_legacy_text_behind_a_utf8_label_is_detected(text: str, codec: str) -> None:
    html = '<meta charset="utf-8">' + text
    decoded = decode_html(html.encode(codec))
    assert decoded.text == html and (decoded.encoding, decoded.source) == (codec, "detected")


def test_utf8_page_with_stray_windows_1252_bytes_is_read_piece_by_piece() -> None:
    template = '<meta charset="utf-8"><nav>Accueil » Actualités</nav><footer>© 2024</footer>'
    html = template.encode() + WESTERN.encode("cp1252")
    decoded = decode_html(html)
    assert decoded.text == template + WESTERN
    assert (decoded.encoding, decoded.source, decoded.declared) == ("utf-8", "mixed", "utf-8")
    assert "bytes read as windows-1252" in decoded.reason


def test_a_character_cut_by_the_end_of_the_body_is_one_replacement() -> None:
    decoded = decode_html('<meta charset="utf-8"><p>Grüße, a cut “'.encode()[:-2])
    assert decoded.text == '<meta charset="utf-8"><p>Grüße, a cut \ufffd'


def test_windows_1252_label_decodes_its_undefined_bytes_as_whatwg_does() -> None:
    decoded = decode_html(b'<meta charset="windows-1252"><p>und\x81efined \x93q\x94</p>')
    assert decoded.text.endswith("<p>und\x81efined “q”</p>")
    assert (decoded.encoding, decoded.source) == ("cp1252", "meta")


def test_a_label_that_decodes_is_trusted_and_says_why() -> None:
    decoded = decode_html('<meta charset="utf-8"><p>Grüße</p>'.encode())
    assert (decoded.source, decoded.declared) == ("meta", "utf-8")
    assert decoded.reason == "declared in <meta>"
    ascii_only = decode_html(b"<p>plain</p>")
    assert (ascii_only.source, ascii_only.declared) == ("utf-8", None)
    assert ascii_only.reason == "valid UTF-8"


_TEXT = st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=200)


@given(_TEXT, st.sampled_from([None, "text/html; charset=utf-8"]))
def test_correctly_labelled_utf8_is_decoded_unchanged(body: str, header: str | None) -> None:
    html = f'<html><head><meta charset="utf-8"></head><body>{body}</body></html>'
    decoded = decode_html(html.encode(), header)
    assert decoded.text == html and decoded.encoding == "utf-8"


# --- UTF-16 without a byte-order mark ----------------------------------------------------

UTF16_PAGE = (
    '<!DOCTYPE html><html><head><meta charset="utf-16"><title>Grüße</title></head>'
    "<body><p>日本語 and English text</p></body></html>"
)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_told_by_its_nul_bytes(codec: str) -> None:
    data = UTF16_PAGE.encode(codec)
    assert sniff_binary(data) == "binary data"  # what refused it before
    for header in (None, "text/html; charset=utf-16"):
        decoded = decode_html(data, header)
        assert decoded.text == UTF16_PAGE
        assert (decoded.encoding, decoded.source) == (codec, "nul-pattern")


def test_binary_with_a_nul_in_every_pair_is_still_refused() -> None:
    data = struct.pack("<300H", *range(300))  # small integers: a NUL high byte each
    with pytest.raises(InputError, match="binary"):
        decode_html(data)


#: A head as long as the window the NUL pattern is read in, as real pages' heads are.
_LONG_HEAD = '<html><head><meta charset="utf-16">' + "<!-- x -->" * 60 + "</head>"


@given(_TEXT, st.sampled_from(["utf-16-le", "utf-16-be"]))
def test_any_utf16_page_without_bom_decodes(body: str, codec: str) -> None:
    html = f"{_LONG_HEAD}<body>{body}</body></html>"
    decoded = decode_html(html.encode(codec))
    assert decoded.text == html and decoded.encoding == codec
