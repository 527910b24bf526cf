"""The xml and csv formats through ``feedsift extract`` and ``feedsift export``."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path

import pytest
from lxml import etree

from conftest import ARTICLE_SENTENCE, PAGES, THIRD_SENTENCE
from feedsift.cli.main import main
from feedsift.records import Article, BodyPart, Provenance
from feedsift.storage import NewArticle, NewDocument, Store

ARTICLE = str(PAGES / "article.html")
NOW = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)
CODE = "def f(x):\n    return x  # indented"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_extract_xml_and_csv(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "extract", ARTICLE, "-f", "xml")
    doc = etree.fromstring(out.encode())
    assert status == 0 and doc.tag == "doc" and doc.get("input") == ARTICLE
    assert ARTICLE_SENTENCE in "".join(doc.find("main").itertext())
    status, out, _ = run(capsys, "extract", ARTICLE, "-f", "csv")
    header, row = csv.reader(io.StringIO(out))
    record = dict(zip(header, row, strict=True))
    assert status == 0 and record["input"] == ARTICLE and ARTICLE_SENTENCE in record["text"]


def test_extract_many_inputs_as_csv_into_one_file_and_xml_into_a_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "all.csv"
    assert run(capsys, "extract", str(PAGES), "-f", "csv", "-o", str(target))[0] == 0
    rows = list(csv.DictReader(target.open(encoding="utf-8", newline="")))
    assert len(rows) == 3 and THIRD_SENTENCE in rows[2]["text"]
    out_dir = tmp_path / "xml"
    assert run(capsys, "extract", str(PAGES), "-f", "xml", "-o", str(out_dir))[0] == 0
    written = sorted(str(p.relative_to(out_dir)) for p in out_dir.rglob("*.xml"))
    assert written == ["article.xml", "more/third.xml", "second.xml"]
    status, out, _ = run(capsys, "extract", str(PAGES), "-f", "xml")
    assert status == 0 and len(etree.fromstring(out.encode()).findall("doc")) == 3


@pytest.fixture
def database(tmp_path: Path) -> str:
    """A store holding one article with a code block and a table."""
    path = tmp_path / "f.db"
    body = (
        BodyPart("paragraph", "Some text, with a comma."),
        BodyPart("code", CODE),
        BodyPart.table((("Name", "Value"), ("a", "1")), head_rows=1),
    )
    article = Article(body, 'A "quoted" title', Provenance("page", "v1", 0.9),
                      url="http://a.example/p", published=NOW)  # fmt: skip
    with Store(path) as store:
        with store.transaction():
            doc, _ = store.documents.add(NewDocument(
                "http://a.example/p", "a.example", "http://a.example/p", "http://a.example/p",
                200, (), b"<p>x</p>", NOW, 0.01,
            ))  # fmt: skip
        with store.transaction():
            store.articles.add(NewArticle(doc, "a.example", "http://a.example/p", article,
                                          "h", 1, NOW, 0.01))  # fmt: skip
    return str(path)


def test_export_csv_and_xml_keep_code_and_tables(
    capsys: pytest.CaptureFixture[str], database: str
) -> None:
    status, out, _ = run(capsys, "export", "--db", database, "-f", "csv")
    (record,) = csv.DictReader(io.StringIO(out))
    assert status == 0 and record["title"] == 'A "quoted" title'
    assert record["text"] == f"Some text, with a comma.\n\n{CODE}\n\nName\tValue\na\t1"
    status, out, _ = run(capsys, "export", "--db", database, "-f", "xml")
    (doc,) = etree.fromstring(out.encode())
    assert status == 0 and doc.findtext("main/code") == CODE
    assert [[c.text for c in row] for row in doc.iterfind("main/table/row")] == [
        ["Name", "Value"], ["a", "1"],
    ]  # fmt: skip
    status, out, _ = run(capsys, "export", "--db", database, "-f", "markdown")
    assert f"```\n{CODE}\n```" in out and "| Name | Value |\n| --- | --- |\n| a | 1 |" in out
