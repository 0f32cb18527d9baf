"""The run's files: an in-memory namespace of paths, never the disk.

What a program writes with torch.save, removes with os.remove and reads back with torch.load lives in a dict of
the run, keyed by the normalised path; `tempfile.TemporaryDirectory()` makes a directory name in that namespace
(`/tmp/tmp` + 8 letters, as Python names them) and `uuid.uuid4()` a random name.  No function here opens, lists,
writes or removes anything on the disk: a path the run never wrote is either known to be missing (inside one of
its directories, or removed by it: Python's FileNotFoundError) or refused (it could only be a file of the
machine's).  So the tutorials' "save the saved tensors to disk" hooks run, their files in memory."""

from __future__ import annotations

import posixpath
import random

from gradcli.run.numpy_api import NumpyRefused

NAME_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"  # tempfile._RandomNameSequence's characters
NO_DISK = "gradcli run has no disk access: the run's files live in memory, written by torch.save"


class UUID:
    """uuid.uuid4()'s value: its str is the 36-character form, its repr UUID('...'), .hex the 32 digits."""

    __slots__ = ("hex",)
    python_type_name = "UUID"

    def __init__(self, hex: str):  # noqa: A002 - uuid.UUID's attribute
        self.hex = hex

    def __str__(self) -> str:
        h = self.hex
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def __repr__(self) -> str:
        return f"UUID('{self}')"

    def __eq__(self, other) -> bool:
        return isinstance(other, UUID) and other.hex == self.hex

    def __hash__(self) -> int:
        return hash(self.hex)


class TemporaryDirectory:
    """tempfile.TemporaryDirectory(): a directory of the run's namespace; cleanup() (or leaving its `with`)
    removes it and the files in it."""

    __slots__ = ("files", "name")
    python_type_name = "TemporaryDirectory"

    def __init__(self, files: MemoryFiles, name: str):
        self.files, self.name = files, name

    def cleanup(self) -> None:
        self.files.remove_tree(self.name)

    def __enter__(self) -> str:
        return self.name

    def __exit__(self, *exc) -> bool:
        self.cleanup()
        return False

    def __repr__(self) -> str:
        return f"<TemporaryDirectory {self.name!r}>"


def _path(path, function: str) -> str:
    if not isinstance(path, str):
        raise TypeError(f"{function}: path should be string, bytes or os.PathLike, not {type(path).__name__}")
    path = posixpath.normpath(path)
    return "/" + path.lstrip("/") if path.startswith("//") else path  # '//tmp/x' is '/tmp/x' on Linux


def _not_found(path: str) -> FileNotFoundError:
    return FileNotFoundError(2, "No such file or directory", path)


class MemoryFiles:
    """One run's files (`files`: path -> what torch.save kept) and directories."""

    def __init__(self):
        self.files: dict[str, object] = {}
        self.directories: set[str] = set()
        self.removed: set[str] = set()
        self.names = random.Random()  # its own generator: the program's random module is never drawn from

    # -- what the run knows of a path ------------------------------------------------------------------------
    def is_ours(self, path: str) -> bool:
        """Whether the run alone decides what `path` holds: a file it wrote or removed, or a path inside one of
        its directories."""
        if path in self.files or path in self.removed or path in self.directories:
            return True
        return any(path.startswith(directory + "/") for directory in self.directories)

    def missing(self, path: str, what: str) -> Exception:
        """The error for reading or removing a path the run holds no file at."""
        if self.is_ours(path):
            return _not_found(path)
        return NumpyRefused(f"{what}('{path}') of a file this run did not write ({NO_DISK}; save it earlier in "
                            "the program)")

    def store(self, path, obj) -> None:
        path = _path(path, "torch.save")
        parent = posixpath.dirname(path)
        if parent and parent != "." and parent not in self.directories and self.is_ours(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")  # torch.save's own check
        self.files[path] = obj
        self.removed.discard(path)

    def fetch(self, path):
        path = _path(path, "torch.load")
        if path not in self.files:
            raise self.missing(path, "torch.load")
        return self.files[path]

    # -- os and os.path ----------------------------------------------------------------------------------------
    def remove(self, path) -> None:
        path = _path(path, "remove")
        if path in self.directories:
            raise IsADirectoryError(21, "Is a directory", path)
        if path not in self.files:
            raise self.missing(path, "os.remove")
        del self.files[path]
        self.removed.add(path)

    def remove_tree(self, directory: str) -> None:
        for path in [p for p in self.files if p.startswith(directory + "/")]:
            del self.files[path]
            self.removed.add(path)
        self.directories = {d for d in self.directories if d != directory and not d.startswith(directory + "/")}
        self.removed.add(directory)

    def makedirs(self, name, mode=0o777, exist_ok: bool = False) -> None:
        path = _path(name, "makedirs")
        if path in self.files:
            raise FileExistsError(17, "File exists", path)
        if path in self.directories and not exist_ok:
            raise FileExistsError(17, "File exists", path)
        while path and path not in (".", "/"):
            self.directories.add(path)
            self.removed.discard(path)
            path = posixpath.dirname(path)

    def exists(self, path) -> bool:
        path = _path(path, "exists")
        if path in self.files or path in self.directories:
            return True
        if self.is_ours(path):
            return False
        raise NumpyRefused(f"os.path.exists('{path}') of a path this run did not make ({NO_DISK})")

    def isfile(self, path) -> bool:
        return self.exists(path) and _path(path, "isfile") in self.files

    def isdir(self, path) -> bool:
        return self.exists(path) and _path(path, "isdir") in self.directories

    # -- tempfile and uuid ----------------------------------------------------------------------------------
    def mkdtemp(self, suffix=None, prefix=None, dir=None) -> str:  # noqa: A002 - tempfile's names
        while True:
            letters = "".join(self.names.choice(NAME_LETTERS) for _ in range(8))
            name = posixpath.join(dir or "/tmp", f"{prefix if prefix is not None else 'tmp'}{letters}{suffix or ''}")
            if not self.is_ours(name):
                break
        self.directories.add(name)
        return name

    def temporary_directory(self, suffix=None, prefix=None, dir=None, ignore_cleanup_errors=False, *,  # noqa: A002
                            delete=True) -> TemporaryDirectory:
        return TemporaryDirectory(self, self.mkdtemp(suffix, prefix, dir))

    def uuid4(self) -> UUID:
        bits = self.names.getrandbits(128)
        bits = (bits & ~(0xC000 << 48)) | (0x8000 << 48)  # the RFC 4122 variant, as uuid.UUID(version=4) sets
        bits = (bits & ~(0xF000 << 64)) | (4 << 76)  # version 4
        return UUID(f"{bits:032x}")

    # -- the modules a program imports ----------------------------------------------------------------------
    def os_path_members(self) -> dict:
        return {"join": posixpath.join, "basename": posixpath.basename, "dirname": posixpath.dirname,
                "splitext": posixpath.splitext, "split": posixpath.split, "normpath": posixpath.normpath,
                "sep": "/", "exists": self.exists, "isfile": self.isfile, "isdir": self.isdir}

    def os_members(self) -> dict:
        return {"remove": self.remove, "unlink": self.remove, "makedirs": self.makedirs, "sep": "/"}

    def tempfile_members(self) -> dict:
        return {"TemporaryDirectory": self.temporary_directory, "mkdtemp": self.mkdtemp,
                "gettempdir": lambda: "/tmp"}

    def uuid_members(self) -> dict:
        return {"uuid4": self.uuid4}


OS_PATH_NAMES = ("join", "basename", "dirname", "splitext", "split", "normpath", "sep", "exists", "isfile", "isdir")
OS_NAMES = ("remove", "unlink", "makedirs", "sep")
TEMPFILE_NAMES = ("TemporaryDirectory", "mkdtemp", "gettempdir")
UUID_NAMES = ("uuid4",)
