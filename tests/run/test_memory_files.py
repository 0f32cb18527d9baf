"""The run's in-memory files (gradcli/run/memory_files.py): names formed as Python forms them, checked by Python's own
uuid and tempfile conventions (the programs' behaviour against torch is in tests/snippets/385_memory_files_and_del.py
and the sandbox probes in tests/safety/test_run_files.py)."""

from __future__ import annotations

import re
import uuid

from gradcli.run.memory_files import MemoryFiles


def test_uuid4_is_a_random_version_4_uuid_as_python_parses_it():
    files = MemoryFiles()
    seen = set()
    for _ in range(500):
        value = files.uuid4()
        parsed = uuid.UUID(str(value))
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122
        assert (str(parsed), parsed.hex, f"UUID('{parsed}')") == (str(value), value.hex, repr(value))
        seen.add(value.hex)
    assert len(seen) == 500


def test_temporary_directories_are_named_as_tempfile_names_them_and_removed_with_their_files():
    files = MemoryFiles()
    directory = files.temporary_directory()
    assert re.fullmatch(r"/tmp/tmp[a-z0-9_]{8}", directory.name)
    assert re.fullmatch(r"/data/pre[a-z0-9_]{8}post", files.mkdtemp("post", "pre", "/data"))
    path = directory.name + "/w.pt"
    files.store(path, 1)
    assert files.isdir(directory.name) and files.isfile(path) and files.fetch("//" + path.lstrip("/")) == 1
    directory.cleanup()
    assert not files.exists(path) and not files.exists(directory.name)
