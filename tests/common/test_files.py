"""capqa.common.files (issue 35 items 1, 2, 3, 9): an output replaces its old file in one step or
not at all, its temporary file is never a link planted for it, and an output that is an input, a
folder or a named pipe is refused before any work."""

import os
import stat

import pytest

from capqa.common.files import (TEMPORARY_MARK, check_output_file, check_outputs, replaced_atomically, same_file,
                                write_atomically)

from support.full_disk import run_on_full_disk

OLD = "old content, which a failed write must leave whole\n" * 200  # 10,400 bytes


def leftovers(folder):
    return sorted(path.name for path in folder.iterdir() if TEMPORARY_MARK in path.name)


def test_a_write_replaces_the_file_and_keeps_its_permissions(tmp_path):
    path = tmp_path / "out.json"
    path.write_text(OLD)
    path.chmod(0o640)
    write_atomically(path, "new\r\nline ends as given\n")
    assert path.read_bytes() == b"new\r\nline ends as given\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and leftovers(tmp_path) == []


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_file(tmp_path):
    path = tmp_path / "out.json"
    path.write_text(OLD)
    with pytest.raises(RuntimeError, match="the writer failed"):
        with replaced_atomically(path) as handle:
            handle.write(b"half of the new")
            raise RuntimeError("the writer failed")
    assert path.read_text() == OLD and leftovers(tmp_path) == []


def test_a_full_disk_leaves_the_old_file_whole(tmp_path):
    """The new content (20 kB) cannot be written past 4 kB: the old file keeps its 10 kB."""
    path = tmp_path / "out.json"
    path.write_text(OLD)
    done = run_on_full_disk(["-c", "import sys; from capqa.common.files import write_atomically; "
                                   "write_atomically(sys.argv[1], 'x' * 20000)", str(path)], 4096, module=False)
    assert done.returncode != 0 and "File too large" in done.stderr
    assert path.read_text() == OLD and leftovers(tmp_path) == []


def test_the_temporary_file_is_never_a_planted_link(tmp_path, monkeypatch):
    from capqa.common import files

    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    path = tmp_path / "out.json"
    names = iter(["planted", "planted", "fresh"])
    monkeypatch.setattr(files.secrets, "token_hex", lambda _: next(names))
    (tmp_path / f".out.json{TEMPORARY_MARK}planted").symlink_to(victim)
    write_atomically(path, "new\n")
    assert victim.read_text() == "precious\n" and path.read_text() == "new\n"


def test_a_link_at_the_output_is_replaced_never_written_through(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    path = tmp_path / "out.json"
    path.symlink_to(victim)
    write_atomically(path, "new\n")
    assert victim.read_text() == "precious\n" and not path.is_symlink() and path.read_text() == "new\n"


def test_an_output_that_is_an_input_is_refused_by_path_link_or_inode(tmp_path):
    scores = tmp_path / "scores.csv"
    scores.write_text("cap\n0.5\n")
    (tmp_path / "linked.csv").symlink_to(scores)
    os.link(scores, tmp_path / "hard.csv")
    for out in (scores, tmp_path / "sub" / ".." / "scores.csv", tmp_path / "linked.csv", tmp_path / "hard.csv"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(ValueError, match=r"`--out` .* is the file of `--scores` .*: writing it would destroy "
                                             r"the input; give `--out` another name"):
            check_outputs({"--out": out}, {"--scores": scores})
    check_outputs({"--out": tmp_path / "new.json"}, {"--scores": scores, "--severity": None})
    assert same_file(scores, tmp_path / "hard.csv") and not same_file(scores, tmp_path / "new.json")


def test_two_outputs_that_are_one_file_are_refused(tmp_path):
    with pytest.raises(ValueError, match="`--plot` .* and `--out` .* are the same file"):
        check_outputs({"--out": tmp_path / "a.png", "--plot": tmp_path / "." / "a.png"}, {})


def test_a_folder_or_a_named_pipe_is_no_output_file(tmp_path):
    with pytest.raises(IsADirectoryError, match="`--out` .* is a folder"):
        check_output_file(tmp_path, "--out")
    os.mkfifo(tmp_path / "pipe.json")
    (tmp_path / "link.json").symlink_to(tmp_path / "pipe.json")
    for name in ("pipe.json", "link.json"):
        with pytest.raises(OSError, match="is not a regular file .*named pipe"):
            check_output_file(tmp_path / name, "--out")
