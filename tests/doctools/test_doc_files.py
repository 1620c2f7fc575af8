"""``docs --write`` and ``--check`` on docs as people save them (issue 35 item 19): CRLF line ends
are kept, mixed ones too, and a doc that is not UTF-8 is named."""

import pytest

from capqa.cli import main as cli_main
from capqa.doctools import registry as doc_tables

GENERATED = "| a | b |\n|---|---|\n| 1 | 2 |"


def _demo_table():
    return GENERATED


@pytest.fixture
def root(tmp_path, monkeypatch):
    monkeypatch.setattr(doc_tables, "TABLES", {"demo": doc_tables.Table("test_doc_files:_demo_table")})
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_bytes(b"# readme\n")
    return tmp_path


@pytest.mark.parametrize("line_end", ["\r\n", "\n"])
def test_write_keeps_the_docs_line_ends(root, line_end):
    doc = root / "docs" / "demo.md"
    lines = ["Before.", "", "<!-- generated: demo -->", "| stale |", "<!-- /generated: demo -->", "", "After.", ""]
    doc.write_bytes(line_end.join(lines).encode("utf-8"))
    assert doc_tables.write(root) == [doc]
    expected = ["Before.", "", "<!-- generated: demo -->", *GENERATED.split("\n"), "<!-- /generated: demo -->", "",
                "After.", ""]
    assert doc.read_bytes() == line_end.join(expected).encode("utf-8")
    assert doc_tables.check(root) == [] and doc_tables.write(root) == []


def test_a_doc_of_mixed_line_ends_keeps_each_outside_the_blocks(root):
    doc = root / "docs" / "demo.md"
    doc.write_bytes(b"LF line\nCRLF line\r\n<!-- generated: demo -->\r\nstale\r\n<!-- /generated: demo -->\nend\n")
    doc_tables.write(root)
    assert doc.read_bytes() == (b"LF line\nCRLF line\r\n<!-- generated: demo -->\r\n"
                                + GENERATED.replace("\n", "\r\n").encode() + b"\r\n<!-- /generated: demo -->\nend\n")


def test_a_doc_that_is_not_utf8_is_named(root, capsys, monkeypatch):
    monkeypatch.delenv("CAPQA_TRACEBACK", raising=False)
    (root / "docs" / "latin.md").write_bytes("Caf\xe9 <!-- no block -->\n".encode("latin-1"))
    for action in ("--check", "--write"):
        assert cli_main(["docs", action, "--root", str(root)]) == 1
        errors = capsys.readouterr().err
        assert f"error: {root / 'docs' / 'latin.md'} is not UTF-8 text (byte 3: invalid continuation byte)" in errors
        assert "Traceback" not in errors
