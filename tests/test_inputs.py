"""Input resolution (files, folders, globs, stdin, URLs) and loading (caps, gzip, errors)."""

from __future__ import annotations

import gzip
import io
import os
from pathlib import Path

import pytest

from conftest import PAGES, LoopbackServer
from feedsift.cli.inputs import (
    STDIN_NAME,
    InputSource,
    LoadOptions,
    gunzip_capped,
    load_input,
    resolve_inputs,
)
from feedsift.errors import FetchError, InputError


def names(args: list[str], **kwargs: object) -> list[str]:
    return [source.name for source in resolve_inputs(args, **kwargs).sources]  # type: ignore[arg-type]


def test_single_file(tmp_path: Path) -> None:
    page = tmp_path / "post.html"
    page.write_text("<p>x</p>")
    resolved = resolve_inputs([str(page)])
    assert [(s.kind, s.name, s.stem) for s in resolved.sources] == [("file", str(page), "post")]
    assert resolved.problems == ()
    assert resolved.many is False


def test_folder_is_walked_recursively_for_html_suffixes(tmp_path: Path) -> None:
    for name in ["b.html", "a.htm", "sub/c.html.gz", "sub/deeper/d.xhtml", "sub/e.HTM.GZ"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"x")
    for name in ["notes.txt", "image.png", "sub/data.json"]:
        (tmp_path / name).write_bytes(b"x")
    resolved = resolve_inputs([str(tmp_path)])
    relative = [os.path.relpath(s.location, tmp_path) for s in resolved.sources]
    assert relative == ["a.htm", "b.html", "sub/c.html.gz", "sub/e.HTM.GZ", "sub/deeper/d.xhtml"]
    assert [s.stem for s in resolved.sources] == ["a", "b", "sub/c", "sub/e", "sub/deeper/d"]
    assert resolved.many is True  # a folder may hold many pages, even when it holds one


def test_fixture_folder_skips_non_html() -> None:
    found = names([str(PAGES)])
    assert [Path(n).name for n in found] == ["article.html", "second.html", "third.htm"]


def test_glob_is_expanded_here(tmp_path: Path) -> None:
    for name in ["one.html", "two.html", "skip.txt", "deep/three.html"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"x")
    assert [Path(n).name for n in names([str(tmp_path / "*.html")])] == ["one.html", "two.html"]
    recursive = names([str(tmp_path / "**" / "*.html")])
    assert sorted(Path(n).name for n in recursive) == ["one.html", "three.html", "two.html"]
    assert resolve_inputs([str(tmp_path / "*.html")]).many is True


def test_missing_path_and_empty_glob_are_problems(tmp_path: Path) -> None:
    resolved = resolve_inputs([str(tmp_path / "nope.html"), str(tmp_path / "*.xml")])
    assert resolved.sources == ()
    assert [p.reason for p in resolved.problems] == [
        "no such file or directory",
        "no file matches this pattern",
    ]


def test_folder_without_pages_is_a_problem(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("hi")
    resolved = resolve_inputs([str(tmp_path)])
    assert resolved.sources == ()
    assert "folder holds no HTML or WARC files" in resolved.problems[0].reason


def test_urls_and_schemes() -> None:
    resolved = resolve_inputs(
        ["https://Example.org/2024/05/post.html", "HTTP://example.org/", "ftp://example.org/x"]
    )
    assert [(s.kind, s.location) for s in resolved.sources] == [
        ("url", "https://Example.org/2024/05/post.html"),
        ("url", "HTTP://example.org/"),
    ]
    assert [s.stem for s in resolved.sources] == ["Example.org_2024_05_post", "example.org"]
    assert resolved.problems[0].name == "ftp://example.org/x"
    assert "unsupported URL scheme 'ftp'" in resolved.problems[0].reason


def test_stdin_by_dash_or_by_default() -> None:
    for args in ([], ["-"]):
        resolved = resolve_inputs(args, stdin=io.BytesIO(b"<p>piped</p>"))
        assert [(s.kind, s.name, s.data) for s in resolved.sources] == [
            ("stdin", STDIN_NAME, b"<p>piped</p>")
        ]
        assert resolved.many is False


def test_stdin_over_the_cap_is_a_problem() -> None:
    resolved = resolve_inputs(["-"], stdin=io.BytesIO(b"x" * 101), max_bytes=100)
    assert resolved.sources == ()
    assert "larger than the limit of 100 bytes" in resolved.problems[0].reason


def test_order_is_kept_and_duplicates_dropped(tmp_path: Path) -> None:
    first, second = tmp_path / "b.html", tmp_path / "a.html"
    first.write_text("x")
    second.write_text("y")
    found = names([str(first), str(tmp_path), str(second), "https://example.org/"])
    assert found == [str(first), str(second), "https://example.org/"]


def test_load_file_and_gzip_file(tmp_path: Path) -> None:
    plain, packed = tmp_path / "a.html", tmp_path / "b.html.gz"
    plain.write_bytes(b"<p>plain</p>")
    packed.write_bytes(gzip.compress(b"<p>packed</p>"))
    sources = resolve_inputs([str(plain), str(packed)]).sources
    assert [load_input(s).data for s in sources] == [b"<p>plain</p>", b"<p>packed</p>"]
    assert load_input(sources[0]).url is None


def test_file_over_the_cap_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "huge.html"
    page.write_bytes(b"x" * 2000)
    (source,) = resolve_inputs([str(page)]).sources
    with pytest.raises(InputError, match="file too large: 2000 bytes, the limit is 1000"):
        load_input(source, LoadOptions(max_bytes=1000))


def test_gzip_bomb_file_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "bomb.html.gz"
    page.write_bytes(gzip.compress(b" " * 5_000_000))
    (source,) = resolve_inputs([str(page)]).sources
    with pytest.raises(InputError, match="decompressed input larger than the limit"):
        load_input(source, LoadOptions(max_bytes=100_000))


def test_gunzip_multi_member_truncated_and_corrupt() -> None:
    two = gzip.compress(b"one ") + gzip.compress(b"two")
    assert gunzip_capped(two, 100) == b"one two"
    with pytest.raises(InputError, match="truncated gzip data"):
        gunzip_capped(gzip.compress(b"a" * 1000)[:-12], 10_000)
    with pytest.raises(InputError, match="corrupt gzip data"):
        gunzip_capped(b"\x1f\x8b\x08\x00garbage-not-deflate", 10_000)


def test_unreadable_file(tmp_path: Path) -> None:
    (tmp_path / "gone.html").symlink_to(tmp_path / "missing-target.html")
    (source,) = resolve_inputs([str(tmp_path)]).sources
    with pytest.raises(InputError, match="cannot read: No such file or directory"):
        load_input(source)


def test_load_stdin_gzip() -> None:
    source = InputSource("stdin", STDIN_NAME, "-", "stdin", gzip.compress(b"<p>zipped</p>"))
    assert load_input(source).data == b"<p>zipped</p>"


def test_load_url_from_loopback(web: LoopbackServer) -> None:
    web.route("/p.html", b"<p>served</p>", headers={"Content-Type": "text/html; charset=latin-1"})
    start = web.redirect("/go", "/p.html")
    (source,) = resolve_inputs([start]).sources
    loaded = load_input(source, LoadOptions(allow_private=True))
    assert loaded.data == b"<p>served</p>"
    assert loaded.url == web.url("/p.html")  # the final URL, to resolve links against
    assert loaded.content_type == "text/html; charset=latin-1"


def test_load_url_failure_is_a_fetch_error(web: LoopbackServer) -> None:
    (source,) = resolve_inputs([web.url("/missing.html")]).sources
    with pytest.raises(FetchError, match="HTTP 404"):
        load_input(source, LoadOptions(allow_private=True))


def test_loopback_is_refused_by_default(web: LoopbackServer) -> None:
    (source,) = resolve_inputs([web.url("/missing.html")]).sources
    with pytest.raises(FetchError, match="allow-private"):
        load_input(source)
