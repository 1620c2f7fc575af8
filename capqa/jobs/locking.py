"""The lock of one output: ``OUT.lock``, held (``fcntl.flock``) by the one process writing ``OUT``.

The lock file is opened without following a symbolic link (``O_NOFOLLOW``) and used only when it
is a regular file of one link: a link planted at ``OUT.lock`` (``ln -s victim.txt out.csv.lock``,
or a hard link) would otherwise have the victim truncated to a PID. It is removed when the job
ends, by the process that holds it, while it still holds it; a process that opened the file just
before it was removed finds, once it has the lock, that the path no longer names the file it
locked, and starts again on the new one. So two writers never both believe they hold ``OUT``.
A job killed outright leaves its lock file behind; the next run takes it over (the kernel
released the lock with the process).
"""

import errno
import logging
import os
import stat
from pathlib import Path

from capqa.common.quoting import quote

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the manifest checks still hold.
    fcntl = None

logger = logging.getLogger(__name__)

LOCK_SUFFIX = ".lock"
# Opening, locking and finding the file removed under us again and again means something keeps
# removing it: give up with a message rather than loop.
MAX_ATTEMPTS = 20
_HOLDER_BYTES = 200
_OPEN_FLAGS = (os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
               | getattr(os, "O_NONBLOCK", 0))


class OutputLockedError(OSError):
    """Another process is writing the same output."""


class UnsafeLockError(OSError):
    """The lock path is a link or not a regular file: it is never opened through, written or removed."""


def lock_path(out: Path) -> Path:
    return out.with_name(out.name + LOCK_SUFFIX)


class OutputLock:
    """An exclusive lock on ``OUT.lock``; ``release()`` removes the file and lets the lock go."""

    def __init__(self, path: Path, descriptor: int):
        self.path, self._descriptor = path, descriptor

    @classmethod
    def acquire(cls, out: Path) -> "OutputLock":
        path = lock_path(out)
        for _ in range(MAX_ATTEMPTS):
            descriptor = _open_regular(path, out)
            try:
                _lock_or_refuse(descriptor, out)
                if path_names_file(path, descriptor):
                    os.ftruncate(descriptor, 0)
                    os.write(descriptor, f"PID {os.getpid()}\n".encode("ascii"))
                    return cls(path, descriptor)
            except BaseException:
                os.close(descriptor)
                raise
            os.close(descriptor)  # removed (or replaced) between our open and our lock: again
        raise OutputLockedError(f"`--out` {out}: its lock file {path.name} keeps being removed or replaced by "
                                "another process; stop the other job, or choose another --out")

    def release(self) -> None:
        """Remove the lock file (only while it is still the file this lock holds), then unlock."""
        if self._descriptor is None:
            return
        try:
            if path_names_file(self.path, self._descriptor):
                self.path.unlink()
        except OSError as error:  # a read-only folder, say: the lock is released all the same
            logger.debug("could not remove %s: %s", self.path, error)
        finally:
            os.close(self._descriptor)
            self._descriptor = None


def _open_regular(path: Path, out: Path) -> int:
    """A descriptor of ``path``, a regular file of one link, created if missing; never a link."""
    try:
        descriptor = os.open(path, _OPEN_FLAGS, 0o644)
    except OSError as error:  # ELOOP (EMLINK on BSD) for a link, EISDIR for a folder
        if path.is_symlink():
            raise UnsafeLockError(_unsafe(path, out, "a symbolic link")) from None
        if error.errno == errno.EISDIR:
            raise UnsafeLockError(_unsafe(path, out, "a folder")) from None
        raise
    info = os.fstat(descriptor)
    problem = (None if stat.S_ISREG(info.st_mode) else "not a regular file") or \
              (f"a file with {info.st_nlink} hard links" if info.st_nlink > 1 else None)
    if problem:
        os.close(descriptor)
        raise UnsafeLockError(_unsafe(path, out, problem))
    return descriptor


def _unsafe(path: Path, out: Path, what: str) -> str:
    return (f"`--out` {out}: its lock file {quote(str(path))} is {what}; it is never written through, since "
            "writing would change another file. Remove it (it holds nothing of the job) and run again")


def _lock_or_refuse(descriptor: int, out: Path) -> None:
    if fcntl is None:
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(descriptor, _HOLDER_BYTES, 0).decode("utf-8", "replace").strip()
        holder = holder if holder.startswith("PID ") and len(holder) < 40 else "another process"
        raise OutputLockedError(f"`--out` {out} is being written by {holder}; wait for it to finish or "
                                "choose another --out") from None


def path_names_file(path: Path, descriptor: int) -> bool:
    """Whether ``path`` (not followed) is still the file open as ``descriptor``."""
    try:
        named = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)
