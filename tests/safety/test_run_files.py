"""`gradcli run`'s files are an in-memory namespace (gradcli/run/memory_files.py): a program may torch.save, torch.load,
os.remove and make temporary directories, but nothing it does reads, writes, removes or even tests a path on the
disk; eval() of a string goes through the same checks and limits as the program; a __del__ cannot escape them."""

from __future__ import annotations

import io
import os

import pytest

from gradcli.run import RunLimits, run_source


def _run(source: str, **limits) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_source(source, "<probe>", stdout=out, stderr=err, limits=RunLimits(**limits))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def victim(tmp_path, monkeypatch):
    """A real file on disk and the run's cwd beside it: after each probe, both must be as they were."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "victim.pt"
    path.write_bytes(b"precious")
    yield path
    assert path.read_bytes() == b"precious"
    assert sorted(os.listdir(tmp_path)) == ["victim.pt"]


@pytest.mark.parametrize("use", [
    "x = torch.load(P)", "os.remove(P)", "os.unlink(P)", "print(os.path.exists(P))", "print(os.path.isfile(P))",
    "x = torch.load(os.path.join(tempfile.mkdtemp(), '..', '..', P.lstrip('/')))",
    "d = tempfile.TemporaryDirectory()\nos.remove(os.path.join(d.name, '..', '..', P.lstrip('/')))",
    "x = torch.load('/etc/passwd')", "os.remove('/etc/hostname')",
])
def test_a_path_the_run_did_not_write_is_refused_never_touched(victim, use):
    source = f"import os, tempfile, torch\nP = {str(victim)!r}\n{use}\n"
    code, _, err = _run(source)
    assert code == 2 and "gradcli run does not support" in err and "no disk access" in err


def test_torch_save_over_a_real_file_writes_memory_only(victim):
    source = (f"import os, torch\nP = {str(victim)!r}\ntorch.save(torch.ones(2), P)\nprint(torch.load(P))\n"
              "os.remove(P)\nprint(os.path.exists(P))\ntorch.save(1, 'new_file.pt')\n"
              "print(torch.load('new_file.pt'))\n")
    code, out, err = _run(source)
    assert (code, out, err) == (0, "tensor([1., 1.])\nFalse\n1\n", "")  # the disk's victim.pt: unchanged (fixture)


def test_the_modules_offer_nothing_else(victim):
    for use in ("os.system('touch x')", "os.listdir('.')", "os.getcwd()", "os.environ", "tempfile.NamedTemporaryFile()",
                "uuid.uuid1()", "os.path.abspath('.')", "os.rmdir('/tmp')", "os.rename('a', 'b')"):
        code, _, err = _run(f"import os, tempfile, uuid\nx = {use}\n")
        assert code == 2 and "the run's files live in memory" in err, use


def test_a_removed_file_and_a_missing_one_in_the_runs_directory_are_file_not_found(victim):
    source = ("import os, tempfile, torch\nd = tempfile.mkdtemp()\np = os.path.join(d, 'w.pt')\n"
              "try:\n    torch.load(p)\nexcept FileNotFoundError as e:\n    print(e.errno)\n"
              "torch.save(1, p)\nos.remove(p)\ntry:\n    os.remove(p)\nexcept OSError as e:\n"
              "    print(type(e).__name__)\n")
    assert _run(source)[:2] == (0, "2\nFileNotFoundError\n")


@pytest.mark.parametrize(("source", "refusal"), [
    ("x = eval('open(\"/etc/passwd\")')\n", "the builtin open()"),
    ("x = eval(\"__import__('os')\")\n", "the name __import__"),
    ("x = eval('().__class__.__bases__')\n", "the attribute .__bases__"),
    ("x = eval('exec(\"y = 1\")')\n", "the builtin exec()"),
    ("x = eval('eval(\"compile\")')\n", "the builtin compile()"),
    ("x = eval('1', {'__builtins__': None})\n", "eval() with globals or locals"),
    ("import torch\nx = eval('torch.ones(1)._secret')\n", "the attribute ._secret"),
])
def test_eval_strings_are_checked_as_the_program(source, refusal):
    code, _, err = _run(source)
    assert code == 2 and err.startswith(f"gradcli run does not support {refusal}")
    assert "in the string given to eval()" in err or "globals" in refusal


@pytest.mark.parametrize(("source", "limit"), [
    ("s = 'eval(s)'\nx = eval(s)\n", "max_call_depth"),
    ("x = eval('[i for i in range(10**8)]')\n", "max_iterations"),
    ("x = eval('9 ** 9 ** 9')\n", "max_int_bits"),
    ("x = eval('1 + ' * 100_000 + '1')\n", "max_source_chars"),
])
def test_eval_strings_are_under_the_runs_limits(source, limit):
    code, _, err = _run(source, max_source_chars=200_000 if limit != "max_source_chars" else 100_000)
    assert code == 2 and limit in err


@pytest.mark.parametrize(("body", "expected"), [
    ("        while True:\n            pass", "max_iterations"),
    ("        open('/etc/passwd')", "the builtin open()"),
    ("        import os\n        os.remove('/etc/hostname')", "no disk access"),
])
@pytest.mark.parametrize("drop", ["a = None\nprint('after')\n", "print('end')\n"])
def test_a_del_method_cannot_escape_the_checks_or_the_limits(victim, body, expected, drop):
    source = f"class A:\n    def __del__(self):\n{body}\na = A()\n{drop}"
    code, _, err = _run(source, max_iterations=10_000)
    assert code == 2 and expected in err  # (open() is found by the static check, before anything runs)


def test_a_del_method_runs_when_the_object_is_dropped_and_at_exit():
    source = ("class A:\n    def __init__(self, n):\n        self.n = n\n    def __del__(self):\n"
              "        print('del', self.n)\na = A(1)\nb = A(2)\na = None\nprint('middle')\n")
    assert _run(source)[:2] == (0, "del 1\nmiddle\ndel 2\n")


def test_an_error_in_del_is_printed_and_ignored_as_cpython_does():
    source = "class A:\n    def __del__(self):\n        1 / 0\na = A()\na = None\nprint('goes on')\n"
    code, out, err = _run(source)
    assert (code, out) == (0, "goes on\n")
    assert err == "Exception ignored in: <function A.__del__ at 0x…>\nZeroDivisionError: division by zero\n"
