"""Output files: never one of the inputs, never a pipe, and replaced in one step.

Every command writes its outputs through ``write_atomically`` or ``replaced_atomically``: the new
content goes to a temporary file beside the output, created exclusively (``O_EXCL | O_NOFOLLOW``,
so never through a link or a file planted there), is flushed to disk, and then replaces the output
with one rename. A failure at any point (a full disk, Ctrl-C, an error of the writer) leaves the
old file as it was and no temporary file behind. A symbolic link at the output's name is replaced,
never written through; the output keeps the permissions of the file it replaces.

``check_outputs`` refuses, before any work, an output that is one of the command's inputs (the
same path once links are resolved, or the same file under another name: a hard link), two outputs
that are one file, and an output that cannot be a file: a folder, or a named pipe or a device
(opening a pipe for writing waits for a reader forever).
"""

import contextlib
import os
import re
import secrets
import stat
from pathlib import Path
from typing import BinaryIO, Iterator, Mapping, Optional, Union

PathLike = Union[str, os.PathLike]
# A temporary file is created with these flags: a new file, never an existing one or a link.
_EXCLUSIVE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
TEMPORARY_MARK = ".partial-"


def same_file(first: PathLike, second: PathLike) -> bool:
    """Whether two paths name one file: the same path once links are resolved, or the same
    device and inode (a hard link)."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them does not exist (yet)
        return False


def check_output_file(path: PathLike, name: str) -> Path:
    """``path`` as a Path if a file can be written there: nothing, a regular file, or a link to
    one. A folder, a named pipe, a socket or a device is refused, naming ``name`` (the option)."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"`{name}` {path} is a folder; give a file name")
    if path.exists() and not path.is_file():
        raise OSError(f"`{name}` {path} is not a regular file (a named pipe, a socket or a device): writing it "
                      "would block or go elsewhere; give the name of a file")
    return path


def check_outputs(outputs: Mapping[str, Optional[PathLike]], inputs: Mapping[str, Optional[PathLike]]) -> None:
    """Refuse outputs that are one of the inputs or one file twice, or that cannot be files.

    outputs, inputs: {what the command calls it ("--out", "`--out`'s summary"): path or None}.
    """
    given_outputs = {name: Path(path) for name, path in outputs.items() if path is not None}
    given_inputs = {name: Path(path) for name, path in inputs.items() if path is not None}
    seen = {}
    for name, path in given_outputs.items():
        check_output_file(path, name)
        for input_name, input_path in given_inputs.items():
            if same_file(path, input_path):
                raise ValueError(f"`{name}` {path} is the file of `{input_name}` ({input_path}): writing it would "
                                 f"destroy the input; {_another(name)}")
        for other_name, other in seen.items():
            if same_file(path, other):
                raise ValueError(f"`{name}` {path} and `{other_name}` {other} are the same file: one would overwrite "
                                 f"the other; give them different names")
        seen[name] = path


def _another(name: str) -> str:
    """What to change: "--out" of "--out" (a file), of "--out/summary.md" (a file in a folder), of
    "--out's manifest" (a file beside it); other outputs are named by what they are."""
    option = re.match(r"--[\w-]+", name)
    if option is None:
        return "choose other names"
    what = "folder" if name[option.end():].startswith("/") else "name"
    return f"give `{option.group()}` another {what}"


@contextlib.contextmanager
def replaced_atomically(path: PathLike) -> Iterator[BinaryIO]:
    """A binary handle whose content replaces ``path`` in one step when the block ends without
    an error; on an error the old file stays as it was and the temporary file is removed."""
    path = Path(path)
    if path.is_file() and not os.access(path, os.W_OK):  # a rename would replace a file its owner protected
        raise PermissionError(f"cannot write {path}: the file is read-only")
    handle, temporary = _exclusive_temporary(path)
    try:
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        _keep_permissions(path, temporary)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def write_atomically(path: PathLike, content: Union[str, bytes]) -> Path:
    """Replace ``path`` with ``content`` (text is written as UTF-8, its line ends as they are) in
    one step: on any failure the old file is untouched. Returns the path."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    with replaced_atomically(path) as handle:
        handle.write(data)
    return Path(path)


def save_figure(figure, path: PathLike, **options) -> Path:
    """``figure.savefig(path, **options)`` written atomically, in the format of the path's suffix."""
    path = Path(path)
    options.setdefault("format", path.suffix.lstrip(".").lower() or None)
    with replaced_atomically(path) as handle:
        figure.savefig(handle, **options)
    return path


def _exclusive_temporary(path: Path):
    """(an open binary handle, its path): a new file beside ``path``, created exclusively."""
    for _ in range(100):
        temporary = path.with_name(f".{path.name}{TEMPORARY_MARK}{secrets.token_hex(6)}")
        try:
            descriptor = os.open(temporary, _EXCLUSIVE, 0o666)
        except FileExistsError:  # a name taken (or planted): draw another
            continue
        return os.fdopen(descriptor, "wb"), temporary
    raise FileExistsError(f"cannot create a temporary file beside {path}: every name tried exists")


def _keep_permissions(path: Path, temporary: Path) -> None:
    """The replaced file's permission bits carry over (a new file gets the umask's)."""
    try:
        mode = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return
    if stat.S_ISREG(mode.st_mode):
        os.chmod(temporary, stat.S_IMODE(mode.st_mode))


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (where a folder can be opened and synced: not on Windows)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
