"""Output files (issue 17, first part): one writer for -o, --save and plot --png/--svg.  Regular files are
replaced atomically and keep their permissions; a symlink's target is written and the link kept; a device,
FIFO or socket is written through, never replaced; a directory is a one-line error; `-o -` is stdout; no
temporary file survives an error or SIGTERM/SIGHUP.  Each case runs gradcli in a child process."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time

import pytest

GRADCLI = [sys.executable, "-m", "gradcli"]


def gradcli(*args, **kwargs):
    return subprocess.run([*GRADCLI, *args], capture_output=True, text=True, timeout=60, **kwargs)


def leftovers(directory) -> list[str]:
    return [p for p in os.listdir(directory) if p.endswith(".tmp")]


def test_symlink_target_is_written_and_link_kept(tmp_path):
    target = tmp_path / "target.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target.name)
    result = gradcli("eval", "x*2", "x=3", "-o", str(link), "--no-check")
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == "target.json"
    assert json.loads(target.read_text())["tensors"]["x"]["grad"] == 2.0
    assert leftovers(tmp_path) == []


def test_permissions_of_a_replaced_file_are_kept(tmp_path):
    out = tmp_path / "private.json"
    out.write_text("old")
    out.chmod(0o600)
    assert gradcli("eval", "x*2", "x=3", "-o", str(out), "--no-check").returncode == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert json.loads(out.read_text())["output"]["value"] == 6.0


def test_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    result = gradcli("eval", "x*2", "x=3", "-o", str(fifo), "--no-check")
    reader.join(10)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # still a FIFO, not replaced by a regular file
    assert json.loads(received[0])["output"]["value"] == 6.0
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("device", ["/dev/null", "/dev/full"])
def test_character_devices_are_written_through(device):
    if not os.path.exists(device):
        pytest.skip(f"{device} does not exist here")
    before = os.stat(device)
    result = gradcli("eval", "x*2", "x=3", "-o", device, "--format", "json", "--no-check")
    after = os.stat(device)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev  # still the device
    if device == "/dev/full":
        assert result.returncode == 2
        assert result.stderr.strip() == "gradcli: error: cannot write /dev/full: No space left on device"
    else:
        assert result.returncode == 0, result.stderr


def test_device_made_with_mknod(tmp_path):
    node = tmp_path / "null"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null of our own
    except (PermissionError, OSError) as err:
        pytest.skip(f"mknod not permitted here: {err}")
    assert gradcli("eval", "x*2", "x=3", "-o", str(node), "--format", "json", "--no-check").returncode == 0
    assert stat.S_ISCHR(node.stat().st_mode)


def test_directory_is_an_error_naming_it(tmp_path):
    target = tmp_path / "out.json"
    target.mkdir()
    result = gradcli("eval", "x*2", "x=3", "-o", str(target), "--no-check")
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == f"gradcli: error: cannot write {target}: it is a directory"
    assert leftovers(tmp_path) == []


def test_immutable_target_is_an_error_naming_it(tmp_path):
    target = tmp_path / "locked.json"
    target.write_text("old")
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(target)]).returncode != 0:
        pytest.skip("chattr +i is not available or not permitted here")
    try:
        result = gradcli("eval", "x*2", "x=3", "-o", str(target), "--no-check")
    finally:
        subprocess.run(["chattr", "-i", str(target)])
    assert result.returncode == 2
    assert result.stderr.strip() == f"gradcli: error: cannot write {target}: Operation not permitted"
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_file_size_limit_leaves_the_old_file(tmp_path):
    if shutil.which("prlimit") is None:
        pytest.skip("prlimit is not available")
    out = tmp_path / "out.json"
    out.write_text("old")
    result = subprocess.run(["prlimit", "--fsize=1000", *GRADCLI, "eval", "(x*2).sum()", "x=randn(1000)", "-o",
                             str(out), "--no-check"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == "gradcli: error: could not complete the command: File too large"
    assert out.read_text() == "old" and leftovers(tmp_path) == []


def test_dash_is_stdout(tmp_path):
    result = gradcli("eval", "x*2", "x=3", "-o", "-", "--format", "json", "--no-check", cwd=tmp_path)
    assert json.loads(result.stdout)["output"]["value"] == 6.0
    assert os.listdir(tmp_path) == []


def test_plot_png_goes_through_the_same_writer(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "real.png"
    target.write_bytes(b"old")
    link = tmp_path / "plot.png"
    link.symlink_to(target.name)
    result = gradcli("plot", "x^2", "--png", str(link))
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and target.read_bytes().startswith(b"\x89PNG")
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_signal_during_a_rows_write_leaves_no_temp_and_the_old_file(tmp_path, sig):
    rows = tmp_path / "rows.fifo"
    os.mkfifo(rows)
    out = tmp_path / "out.csv"
    out.write_text("old\n")
    child = subprocess.Popen([*GRADCLI, "eval", "x*2", "--rows", str(rows), "-o", str(out), "--no-check"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(rows, "w") as writer:  # rows arrive, then the input stays open: the run is mid-write
        writer.write("x\n" + "1\n" * 5000)
        writer.flush()
        deadline = time.monotonic() + 20
        while not leftovers(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert leftovers(tmp_path), "the run never started its temporary file"
        child.send_signal(sig)
        child.wait(20)
    assert leftovers(tmp_path) == []
    assert out.read_text() == "old\n"
    assert child.returncode != 0


# -- standard streams -----------------------------------------------------------------------------------

COMMANDS = {  # argv, exit code when all three streams are open (check of a wrong answer: 1)
    "eval": (["eval", "x*2", "x=3"], 0),
    "eval --json": (["eval", "x*2", "x=3", "--json"], 0),
    "check right": (["check", "x^2", "--expect", "2x"], 0),
    "check wrong": (["check", "x^2", "--expect", "3x"], 1),
    "explain": (["explain", "x*2", "x=3"], 0),
    "steps": (["steps", "x^2"], 0),
    "ops": (["ops"], 0),
    "run": (["run", "PROGRAM"], 0),
    "plot": (["plot", "x^2"], 0),
}


def _run_closed(argv, closed: int, tmp_path):
    program = tmp_path / "p.py"
    program.write_text("print(1)\n")
    argv = [str(program) if a == "PROGRAM" else a for a in argv]
    # the child starts with descriptor `closed` closed, as after `>&-`, `2>&-` or `<&-` in a shell
    shell = {0: "<&-", 1: ">&-", 2: "2>&-"}[closed]
    command = " ".join(shlex.quote(a) for a in [*GRADCLI, *argv])
    return subprocess.run(["bash", "-c", f"{command} {shell}"], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_closed_stdout(name, tmp_path):
    argv, _ = COMMANDS[name]
    result = _run_closed(argv, 1, tmp_path)
    assert "Traceback" not in result.stderr
    assert result.returncode == 2  # the answer could not be delivered: an error, never check's "no"
    assert result.stderr.strip().endswith("could not complete the command: standard output is closed")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_closed_stderr_keeps_the_exit_code(name, tmp_path):
    argv, code = COMMANDS[name]
    result = _run_closed(argv, 2, tmp_path)
    assert result.returncode == code, result.stdout
    assert result.stdout  # the answer still goes to stdout


@pytest.mark.parametrize("argv", [["eval", "x*2", "x=-"], ["eval", "x*2", "--rows", "-"], ["repl"]])
def test_closed_stdin(argv, tmp_path):
    result = _run_closed(argv, 0, tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "standard input is closed" in result.stderr


def test_run_output_to_a_full_disk_is_gradclis_error(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    program = tmp_path / "p.py"
    program.write_text("for i in range(10000):\n    print(i)\n")
    with open("/dev/full", "w") as full:
        result = subprocess.run([*GRADCLI, "run", str(program)], stdout=full, stderr=subprocess.PIPE, text=True,
                                timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == "gradcli: error: could not complete the command: No space left on device"


# -- conflicts, before any work --------------------------------------------------------------------------

@pytest.mark.parametrize("args,message", [
    (["-o", "o.json", "--save", "x=o.json"], "-o o.json and --save x=o.json name the same file (o.json)"),
    (["-o", "link.json", "--save", "x=o.json"], "-o link.json and --save x=o.json name the same file"),
    (["--save", "x=xin.txt"], "--save x=xin.txt would overwrite the input x=@xin.txt: both are xin.txt"),
    (["--rows", "rows.csv", "-o", "rows.csv"], "-o rows.csv would overwrite the input --rows rows.csv"),
])
def test_two_names_for_one_file_are_refused(args, message, tmp_path):
    (tmp_path / "xin.txt").write_text("3\n")
    (tmp_path / "o.json").write_text("keep")
    (tmp_path / "link.json").symlink_to("o.json")
    (tmp_path / "rows.csv").write_text("y\n1\n")
    expression = ["x*y", "x=@xin.txt"] if "--rows" in args else ["x*2", "x=@xin.txt"]
    result = gradcli("eval", *expression, *args, "--no-check", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0].startswith(f"gradcli: error: {message}")
    assert (tmp_path / "o.json").read_text() == "keep" and (tmp_path / "xin.txt").read_text() == "3\n"
    assert (tmp_path / "rows.csv").read_text() == "y\n1\n"


def test_png_and_svg_naming_one_file_are_refused(tmp_path):
    result = gradcli("plot", "x^2", "--png", "a.png", "--svg", "a.png", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == "gradcli: error: --png a.png and --svg a.png name the same file (a.png)"
    assert os.listdir(tmp_path) == []
