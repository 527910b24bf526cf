"""WARC input: the reader, ``feedsift extract FILE.warc.gz`` and ``feedsift.extract_warc``.

Every test writes a real WARC file (FastWARC's records, one real gzip member per record)
holding HTML pages beside the records a crawl also stores: a request, an image, a 404, a
record the crawler truncated, a gzip-and-chunked page, and garbage at the end.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import shutil
import subprocess
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import feedsift
from conftest import ARTICLE_SENTENCE, NAV_TEXT, PAGES, SECOND_SENTENCE, LoopbackServer
from feedsift.acquisition.warc import WarcPage, WarcSkip, read_warc
from feedsift.acquisition.warc_writer import http_response, warc_record, write_warc
from feedsift.cli.main import main

ARTICLE_URL = "https://coast.example.org/2023/10/lighthouse-time"
SECOND_URL = "https://birds.example.org/2023/11/winter-weight"
LATIN_URL = "https://koeln.example.de/2024/03/bruecke"
CHUNKED_URL = "https://coast.example.org/2023/10/lighthouse-time-gzip"
CAPTURED = datetime(2024, 5, 1, 12, 30, tzinfo=UTC)
#: A German page in ISO-8859-1 whose charset only the HTTP header gives (no <meta>).
LATIN_SENTENCE = "Die Bürger von Köln überquerten die Brücke über den Rhein"
LATIN_PAGE = f"""<html><head><title>Die Brücke über den Rhein</title></head><body>
<nav><a href="/">Startseite</a> <a href="/archiv">Archiv</a></nav>
<article><h1>Die Brücke über den Rhein</h1>
<p>{LATIN_SENTENCE}, als die Glocken des Doms zwölf schlugen und der Nebel sich hob.</p>
<p>Schon früh am Morgen warteten Händler mit Körben voller Äpfel, Rüben und Käse auf die
Öffnung der Tore, während Fährleute ihre Boote an das Ufer zogen und über die Preise
klagten, die seit dem Bau der Brücke gefallen waren.</p>
<p>Ältere Kölner erinnern sich gern an die Zeit, in der die Überfahrt noch eine Reise war
und man für einen Groschen über den Strom gerudert wurde, bei jedem Wetter.</p>
</article><footer>Impressum · Datenschutz</footer></body></html>""".encode("iso-8859-1")


def _chunked(data: bytes, size: int = 500) -> bytes:
    pieces = [data[i : i + size] for i in range(0, len(data), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n"


def _records() -> list[bytes]:
    article = (PAGES / "article.html").read_bytes()
    second = (PAGES / "second.html").read_bytes()
    encoded = http_response(
        _chunked(gzip.compress(article)),
        headers=[("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked")],
    )
    request = b"GET /2023/10/lighthouse-time HTTP/1.1\r\nHost: coast.example.org\r\n\r\n"
    return [
        warc_record(ARTICLE_URL, request, record_type="request",
                    content_type="application/http; msgtype=request"),
        warc_record(ARTICLE_URL, http_response(article), date=CAPTURED),
        warc_record("https://coast.example.org/logo.png",
                    http_response(b"\x89PNG\r\n\x1a\n" + bytes(200), "image/png")),
        warc_record(LATIN_URL, http_response(LATIN_PAGE, "text/html; charset=iso-8859-1")),
        warc_record(f"{ARTICLE_URL}/gone", http_response(b"gone", status="404 Not Found")),
        warc_record(SECOND_URL, http_response(second), headers=[("WARC-Truncated", "length")]),
        warc_record(CHUNKED_URL, encoded),
        warc_record(SECOND_URL, http_response(second)),
    ]  # fmt: skip


@pytest.fixture
def warc(tmp_path: Path) -> Path:
    """The records above, then a broken tail (a gzip member cut short, then garbage)."""
    path = tmp_path / "crawl.warc.gz"
    write_warc(path, _records())
    with open(path, "ab") as handle:
        handle.write(gzip.compress(b"WARC/1.1\r\nWARC-Type: response\r\n")[:-6] + b"\x00junk")
    return path


@pytest.fixture
def clean_warc(tmp_path: Path) -> Path:
    """The same records, plain (no gzip), and nothing broken."""
    path = tmp_path / "clean.warc"
    write_warc(path, _records(), compress=False)
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["extract", *args])
    out, err = capsys.readouterr()
    return status, out, err


# --- the reader ----------------------------------------------------------------------------


def test_reader_yields_pages_and_says_why_other_records_give_none(warc: Path) -> None:
    items = list(read_warc(str(warc)))
    pages = [item for item in items if isinstance(item, WarcPage)]
    skips = [item for item in items if isinstance(item, WarcSkip)]
    assert [page.url for page in pages] == [ARTICLE_URL, LATIN_URL, CHUNKED_URL, SECOND_URL]
    assert [skip.reason for skip in skips] == ["not-html", "status", "truncated", "broken"]
    assert skips[0].detail == "image/png" and skips[1].detail == "HTTP status 404"
    assert "breaks after the record" in skips[3].detail
    first = pages[0]
    assert first.date == CAPTURED and first.status == 200
    assert first.record_id.startswith("<urn:uuid:") and first.charset == "utf-8"
    assert first.body == (PAGES / "article.html").read_bytes()
    assert pages[1].charset == "iso-8859-1" and pages[1].body == LATIN_PAGE
    assert pages[2].body == first.body  # gzip and chunked codings undone


def test_reader_reads_plain_warc_files_and_caps_record_size(clean_warc: Path) -> None:
    assert sum(isinstance(item, WarcPage) for item in read_warc(str(clean_warc))) == 4
    # 1,219 bytes: the article is refused by its length, its gzip copy once decoded
    capped = list(read_warc(str(clean_warc), max_bytes=1000))
    assert [item.url for item in capped if isinstance(item, WarcPage)] == [LATIN_URL, SECOND_URL]
    too_large = [
        item for item in capped if isinstance(item, WarcSkip) and item.reason == "too-large"
    ]
    assert [item.url for item in too_large] == [ARTICLE_URL, CHUNKED_URL]
    assert too_large[1].detail == "body larger than 1000 bytes decoded"


def test_a_target_uri_in_angle_brackets_as_wget_writes_it(tmp_path: Path) -> None:
    path = tmp_path / "wget.warc.gz"
    page = http_response((PAGES / "article.html").read_bytes())
    write_warc(
        path, [warc_record(ARTICLE_URL, page, headers=[("WARC-Target-URI", f"<{ARTICLE_URL}>")])]
    )
    (item,) = read_warc(str(path))
    assert isinstance(item, WarcPage) and item.url == ARTICLE_URL


@pytest.mark.skipif(shutil.which("wget") is None, reason="wget is not installed")
def test_a_warc_written_by_wget_from_a_loopback_site(
    capsys: pytest.CaptureFixture[str], web: LoopbackServer, tmp_path: Path
) -> None:
    article = web.route("/2023/10/lighthouse-time", (PAGES / "article.html").read_bytes())
    web.route("/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(64), content_type="image/png")
    links = (
        b'<html><body><a href="/2023/10/lighthouse-time">a</a><img src="/logo.png"></body></html>'
    )
    home = web.route("/", links)
    archive = tmp_path / "site"
    subprocess.run(
        ["wget", "-q", "--no-proxy", "--recursive", "--level=1", "--page-requisites",
         f"--warc-file={archive}", "-P", str(tmp_path / "mirror"), home],
        check=False, timeout=60,
    )  # fmt: skip
    status, out, err = run(capsys, f"{archive}.warc.gz", "-f", "jsonl")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["url"] for r in records] == [home, article]
    assert ARTICLE_SENTENCE in records[1]["text"]
    assert "1 record not HTML, skipped (image/png)" in err
    assert "1 record with an HTTP status other than 200, skipped (status 404)" in err  # robots
    assert status == 0


def test_a_block_shorter_than_its_length_is_broken_not_a_cut_page(tmp_path: Path) -> None:
    path = tmp_path / "cut.warc"
    record = warc_record(ARTICLE_URL, http_response((PAGES / "article.html").read_bytes()))
    path.write_bytes(record[:-500])  # the download of the file stopped in the middle
    (item,) = read_warc(str(path))
    assert isinstance(item, WarcSkip) and item.reason == "broken"
    assert item.detail.startswith("cut short")


_ARCHIVE = b"".join(gzip.compress(record) for record in _records())


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, len(_ARCHIVE) - 1), st.binary(max_size=40)), max_size=6),
    st.integers(0, len(_ARCHIVE)),
    st.booleans(),
)
def test_damaged_files_give_skips_or_an_input_error_never_a_crash(
    edits: list[tuple[int, bytes]], cut: int, compressed: bool
) -> None:
    data = bytearray(_ARCHIVE if compressed else b"".join(_records()))
    for position, garbage in edits:
        data[position : position + len(garbage)] = garbage
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "damaged.warc.gz"
        path.write_bytes(bytes(data[:cut]))
        try:
            items = list(read_warc(str(path)))
        except feedsift.InputError:
            return
    assert all(isinstance(item, WarcPage | WarcSkip) for item in items)


def test_a_file_that_is_no_warc_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "page.warc"
    path.write_bytes((PAGES / "article.html").read_bytes())
    with pytest.raises(feedsift.InputError, match="not a readable WARC file"):
        list(read_warc(str(path)))


# --- the command line ----------------------------------------------------------------------


def test_extract_writes_one_article_per_html_record_with_its_warc_fields(
    capsys: pytest.CaptureFixture[str], warc: Path
) -> None:
    status, out, err = run(capsys, str(warc), "-f", "jsonl")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["url"] for r in records] == [ARTICLE_URL, LATIN_URL, CHUNKED_URL, SECOND_URL]
    assert all(r["input"] == str(warc) for r in records)
    assert all(r["warc_record_id"].startswith("<urn:uuid:") for r in records)
    assert len({r["warc_record_id"] for r in records}) == 4
    assert records[0]["warc_date"] == "2024-05-01T12:30:00+00:00"
    assert ARTICLE_SENTENCE in records[0]["text"] and NAV_TEXT not in records[0]["text"]
    assert LATIN_SENTENCE in records[1]["text"] and "Impressum" not in records[1]["text"]
    assert records[1]["title"] == "Die Brücke über den Rhein"
    assert records[2]["text"] == records[0]["text"]
    assert SECOND_SENTENCE in records[3]["text"]
    # one line per kind of skipped record; the broken tail makes the exit status 1
    lines = err.splitlines()
    assert status == 1 and len(lines) == 4
    assert lines[0] == "feedsift: WARC: 1 record not HTML, skipped (image/png)"
    assert lines[1] == (
        "feedsift: WARC: 1 record with an HTTP status other than 200, skipped (status 404)"
    )
    assert lines[2] == (
        "feedsift: WARC: 1 record truncated by the crawler (WARC-Truncated), skipped (length)"
    )
    assert lines[3].startswith(f"feedsift: WARC: 1 record broken, skipped ({warc}: the file breaks")


def test_skips_that_are_a_warcs_ordinary_contents_leave_the_status_at_0(
    capsys: pytest.CaptureFixture[str], clean_warc: Path
) -> None:
    status, out, err = run(capsys, str(clean_warc), "-f", "jsonl")
    assert status == 0 and len(out.splitlines()) == 4
    assert "not HTML" in err and "broken" not in err


def test_records_over_max_size_are_counted_as_failures(
    capsys: pytest.CaptureFixture[str], clean_warc: Path
) -> None:
    status, out, err = run(capsys, str(clean_warc), "-f", "jsonl", "--max-size", "0.001")
    assert status == 1 and "feedsift: WARC: 2 records larger than --max-size, skipped" in err
    assert [json.loads(line)["url"] for line in out.splitlines()] == [LATIN_URL, SECOND_URL]


def test_jobs_2_gives_what_jobs_1_gives_in_the_same_order(
    capsys: pytest.CaptureFixture[str], warc: Path, clean_warc: Path
) -> None:
    args = (str(warc), str(clean_warc), str(PAGES / "article.html"), "-f", "jsonl")
    one = run(capsys, *args, "-j", "1")
    two = run(capsys, *args, "-j", "2")
    assert one == two
    assert len(one[1].splitlines()) == 9


def test_csv_gets_the_warc_columns_and_txt_names_each_page(
    capsys: pytest.CaptureFixture[str], clean_warc: Path
) -> None:
    _, out, _ = run(capsys, str(clean_warc), str(PAGES / "second.html"), "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0])[-2:] == ["warc_record_id", "warc_date"]
    assert rows[0]["warc_date"] == "2024-05-01T12:30:00+00:00"
    assert rows[-1]["input"].endswith("second.html") and rows[-1]["warc_record_id"] == ""
    _, out, _ = run(capsys, str(clean_warc), "-f", "txt")
    assert f"==> {clean_warc}: {LATIN_URL} <==" in out.splitlines()


def test_folder_output_names_each_page_after_its_url(
    capsys: pytest.CaptureFixture[str], clean_warc: Path, tmp_path: Path
) -> None:
    out_dir = tmp_path / "texts"
    status, _, _ = run(capsys, str(clean_warc), "-o", f"{out_dir}/")
    written = sorted(p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*.txt"))
    assert status == 0
    assert written == [
        "clean/birds.example.org_2023_11_winter-weight.txt",
        "clean/coast.example.org_2023_10_lighthouse-time-gzip.txt",
        "clean/coast.example.org_2023_10_lighthouse-time.txt",
        "clean/koeln.example.de_2024_03_bruecke.txt",
    ]


def test_a_glob_of_warc_files_and_an_unreadable_one(
    capsys: pytest.CaptureFixture[str], clean_warc: Path, tmp_path: Path
) -> None:
    (tmp_path / "fake.warc").write_text("<html>not an archive</html>")
    status, out, err = run(capsys, str(tmp_path / "*.warc"), "-f", "jsonl")
    assert status == 1 and len(out.splitlines()) == 4
    assert f"feedsift: {tmp_path / 'fake.warc'}: not a readable WARC file" in err


def test_a_warc_under_another_name_is_refused_with_a_hint(
    capsys: pytest.CaptureFixture[str], clean_warc: Path, tmp_path: Path
) -> None:
    misnamed = tmp_path / "crawl.dat"
    misnamed.write_bytes(clean_warc.read_bytes())
    status, out, err = run(capsys, str(misnamed))
    assert (status, out) == (1, "") and "name ending in .warc or .warc.gz" in err


def test_the_page_of_a_record_is_the_page_of_its_file(
    capsys: pytest.CaptureFixture[str], clean_warc: Path
) -> None:
    _, from_warc, _ = run(capsys, str(clean_warc), "-f", "jsonl")
    _, from_file, _ = run(capsys, str(PAGES / "article.html"), "--url", ARTICLE_URL, "-f", "json")
    warc_article = json.loads(from_warc.splitlines()[0])
    file_article = json.loads(from_file)
    for key in ("input", "warc_record_id", "warc_date"):
        warc_article.pop(key)
    file_article.pop("input")
    assert warc_article == file_article


# --- from Python ---------------------------------------------------------------------------


def test_extract_warc_from_python(warc: Path) -> None:
    skipped: list[WarcSkip] = []
    items = list(feedsift.extract_warc(warc, on_skip=skipped.append))
    assert [item.page.url for item in items] == [ARTICLE_URL, LATIN_URL, CHUNKED_URL, SECOND_URL]
    assert items[0].page.date == CAPTURED and items[0].article.url == ARTICLE_URL
    assert ARTICLE_SENTENCE in items[0].article.text
    assert LATIN_SENTENCE in items[1].article.text
    assert [skip.reason for skip in skipped] == ["not-html", "status", "truncated", "broken"]


def test_extract_warc_reports_a_page_that_does_not_extract_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "two.warc.gz"
    binary = http_response(bytes(range(256)) * 40, "text/html")
    write_warc(path, [warc_record(ARTICLE_URL, binary), warc_record(SECOND_URL, http_response(
        (PAGES / "second.html").read_bytes()))])  # fmt: skip
    skipped: list[WarcSkip] = []
    items = list(feedsift.extract_warc(path, on_skip=skipped.append, include_comments=True))
    assert [item.page.url for item in items] == [SECOND_URL]
    assert [(skip.reason, skip.url) for skip in skipped] == [("failed", ARTICLE_URL)]


def test_extract_warc_checks_its_options_at_once(warc: Path) -> None:
    with pytest.raises(TypeError, match="unknown extract option"):
        feedsift.extract_warc(warc, comments=True)
