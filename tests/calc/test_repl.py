"""`gradcli repl`: driven through stdin (a pipe) and through a pseudo-terminal; the session logic in-process."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
import time

import numpy as np
import pytest

from gradcli.calc.repl import Completer, Session, Settings, run


def gradcli(*args, input=None, env=None, timeout=120):
    environment = {**os.environ, **(env or {})}
    environment.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "gradcli", *args], input=input, capture_output=True, text=True,
                          env=environment, timeout=timeout)


def session_lines(text: str, **settings):
    """Run a piped session in-process: (exit code, stdout, stderr)."""
    from gradcli.cli.terminal import make_console

    out, err = io.StringIO(), io.StringIO()
    console = make_console("never")
    console.file = out
    code = run(Settings(**settings), console, stdin=io.StringIO(text), stdout=out, stderr=err, interactive=False)
    return code, out.getvalue(), err.getvalue()


# -- through a pipe -------------------------------------------------------------------------------------

def test_piped_session_prints_what_eval_prints():
    session = gradcli("repl", input="x = [1, 2, 3]\nconst z = 4\n(x**2).sum() * z\n")
    single = gradcli("eval", "(x**2).sum() * z", "x=[1,2,3]", "--const", "z=4")
    assert session.returncode == 0 and single.returncode == 0
    assert session.stdout == single.stdout  # the table, the cross-check line: the same text
    assert "[ 8. 16. 24.]" in session.stdout  # d/dx_i 4 x_i^2 = 8 x_i
    assert "gradcli>" not in session.stdout and session.stderr == ""


def test_piped_json_answers_one_object_per_line_and_errors_do_not_stop_the_session():
    lines = ["x = 2", "y = [1, -1]", ":json", "x**3", "nope(x)", "(x * y).sum()", "const c = 5", "c * x",
             "x = [1,,2]", "(y**2).mean()"]
    done = gradcli("repl", "--no-check", input="\n".join(lines) + "\n")
    assert done.returncode == 2  # some lines failed, the others were answered
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["expression"] for a in answers] == ["x**3", "(x * y).sum()", "c * x", "(y**2).mean()"]
    assert answers[0]["tensors"]["x"]["grad"] == 12.0  # 3 x^2 at 2
    assert answers[1]["tensors"]["x"]["grad"] == 0.0 and answers[1]["tensors"]["y"]["grad"] == [2.0, 2.0]
    assert answers[2]["tensors"]["x"]["grad"] == 5.0 and answers[2]["tensors"]["c"]["grad"] is None
    assert answers[2]["tensors"]["c"]["requires_grad"] is False
    assert answers[3]["tensors"]["y"]["grad"] == [1.0, -1.0]  # d/dy mean(y^2) = y
    assert set(answers[1]["tensors"]) == {"x", "y"}  # only the tensors an expression uses take part
    errors = done.stderr.splitlines()
    assert errors[0].startswith("gradcli: error:") and "nope" in errors[0]
    assert errors[1] == "  nope(x)" and errors[2].startswith("  ^")
    assert any(line == "  x = [1,,2]" for line in errors)
    assert "Traceback" not in done.stderr


def test_piped_session_exit_code_zero_when_every_line_works():
    assert session_lines("x = 1\nx + 1\n# a comment\n\n", check=False)[0] == 0
    code, out, err = session_lines("y + 1\n", check=False)
    assert code == 2 and "no value given for y" in err and "y = 1.0" in err


def test_commands_toggle_settings():
    text = "x = [1, 2]\n:hessian\n(x**3).sum()\n:hessian off\n:check off\n:json on\n(x**3).sum()\n"
    code, out, err = session_lines(text)
    assert code == 0, err
    table, json_line = out.split("{", 1)
    assert "hessian" in table and "sympy" in table
    answer = json.loads("{" + json_line)
    assert "hessian" not in answer and "symbolic" not in answer
    assert answer["tensors"]["x"]["grad"] == [3.0, 12.0]  # 3 x^2


@pytest.mark.parametrize("line, message", [
    ("x.grad", ".grad is not part of an expression"),
    ("torch.autograd.grad((x**2).sum(), x)", "torch.autograd.grad is not part of an expression"),
    ("(x**2).sum().backward()", ".backward() is not part of an expression"),
])
def test_pytorch_autograd_calls_get_what_to_type_instead(line, message):
    """'attribute grad is not supported' gave no hint, torch.autograd.grad 'did you mean rand'."""
    code, out, err = session_lines(f"x = [1, 2, 3]\n{line}\n(x**2).sum()\n", check=False)
    assert code == 2 and message in err and "rand" not in err
    assert "hint: type the expression whose gradient you want, e.g. (x**2).sum()" in err
    assert "[2. 4. 6.]" in out  # the session and its binding went on


def test_hessian_values():
    code, out, _ = session_lines("x = [1, 2]\n:hessian\n:json\n(x**3).sum()\n", check=False)
    assert json.loads(out)["hessian"]["x,x"] == [[6.0, 0.0], [0.0, 12.0]]  # diag(6 x)


def test_vars_del_and_unknown_command():
    code, out, err = session_lines("x = [1, 2]\nconst w = 3\n:vars\n:del x\n:vars\nx\n:hesian\n", check=False)
    assert code == 2
    listing = out.splitlines()
    assert listing[0].startswith("x  (2,)  requires grad") and listing[1].startswith("w  ()  const")
    assert listing[2].startswith("w  ()  const") and len(listing) == 3
    assert "no value given for x" in err and "did you mean :hessian?" in err


def test_quit_ends_the_session_and_stdin_values_are_refused():
    code, out, err = session_lines("x = -\n:quit\nx\n", check=False)
    assert code == 2 and "standard input is the session" in err and out == ""


def test_rebinding_switches_between_grad_and_const():
    code, out, _ = session_lines("x = 2\nconst x = 3\n:json\nx * 2\n", check=False)
    assert json.loads(out)["tensors"]["x"] == {"shape": [], "value": 3.0, "requires_grad": False, "grad": None,
                                               "used": True}


def test_keyboard_interrupt_during_an_evaluation_returns_to_the_prompt(monkeypatch):
    from gradcli.calc import repl as repl_module

    session = Session(Settings(check=False), console=None, stdout=io.StringIO(), stderr=io.StringIO())
    session.handle("x = 1")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(repl_module, "calculate", interrupted)
    with pytest.raises(KeyboardInterrupt):  # the loop catches it; the bindings survive
        session.handle("x + 1")
    assert "x" in session.inputs and not session.failed


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a line runs in a forked child on POSIX terminals")
@pytest.mark.parametrize("where", ["line", "after"])
def test_a_line_whose_child_took_the_terminals_ctrl_c_first_is_interrupted_not_failed(monkeypatch, tmp_path, where):
    """Ctrl-C on a terminal reaches the session and the line's child at once; when the child stops first (exit
    130, nothing handed back) the line was stopped by the user, as when the session sees it first: 'gradcli:
    interrupted', the session goes on, and the exit code stays 0 (it read 'crashed' and the session exited 2, so
    the pty tests saw 0 or 2 by the race)."""
    from gradcli.calc import repl as repl_module

    out, err = open(tmp_path / "out", "w+"), open(tmp_path / "err", "w+")  # noqa: SIM115 - the child writes to them
    session = Session(Settings(check=False), console=None, stdout=out, stderr=err)
    session.handle("x = 1")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    if where == "line":
        monkeypatch.setattr(repl_module, "calculate", interrupted)
    else:  # while the child writes what the line changed
        monkeypatch.setattr(repl_module.pickle, "dumps", interrupted)
    with pytest.raises(KeyboardInterrupt):  # the loop prints 'gradcli: interrupted' and reads the next line
        repl_module.handle_in_child(session, "x + 1")
    err.seek(0)
    assert "crashed" not in err.read() and not session.failed and "x" in session.inputs
    out.close(), err.close()


def test_completer_knows_ops_methods_bindings_and_commands():
    session = Session(Settings(), console=None)
    session.inputs["weights"] = np.zeros(2)
    complete = Completer(session).candidates
    assert "sigmoid" in complete("sigm") and "weights" in complete("wei")
    assert "x.sum" in complete("x.su") and "torch.tanh" in complete("torch.tan")
    assert "F.softmax" in complete("F.soft") and complete(":he") == [":help", ":hessian"]
    assert "torch.linalg.norm" in complete("torch.linalg.no")


# -- through a pseudo-terminal --------------------------------------------------------------------------

def _read_until(fd, marker: bytes, timeout: float = 60.0) -> bytes:
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"no {marker!r} in {data!r}")
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            data += chunk
    return data


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_repl_on_a_terminal_prompts_evaluates_and_quits(tmp_path):
    import pty

    primary, secondary = pty.openpty()
    env = {**os.environ, "HOME": str(tmp_path), "TERM": "dumb"}
    env.pop("NO_COLOR", None)

    def controlling_terminal():  # so that Ctrl-C typed on the terminal sends SIGINT, as in a real shell
        import fcntl
        import termios

        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    child = subprocess.Popen([sys.executable, "-m", "gradcli", "repl", "--color", "never"], stdin=secondary,
                             stdout=secondary, stderr=secondary, env=env, close_fds=True, start_new_session=True,
                             preexec_fn=controlling_terminal)
    os.close(secondary)
    try:
        assert b"gradcli> " in _read_until(primary, b"gradcli> ")
        os.write(primary, b"x = [1, 2, 3]\n")
        assert b"requires grad" in _read_until(primary, b"gradcli> ")
        # Ctrl-C at the prompt cancels the line, the session goes on.  (Wait until readline sits in its select():
        # a signal landing between the prompt's output and that call is only noticed at the next key.)
        time.sleep(0.5)
        os.write(primary, b"\x03")
        _read_until(primary, b"gradcli> ")
        os.write(primary, b"(x**2).sum()\n")
        answer = _read_until(primary, b"gradcli> ")
        assert b"14.0" in answer and b"[2. 4. 6.]" in answer and b"agrees" in answer
        assert b"\x1b[1m" not in answer  # --color never: not even bold
        # Ctrl-C during a long evaluation (40 products of 1500x1500 matrices and their backward: many seconds)
        # ends that evaluation only
        os.write(primary, b"w = randn(1500, 1500)\n")
        _read_until(primary, b"gradcli> ")
        os.write(primary, b"(" + b"@".join([b"w"] * 40) + b").sum()\n")
        time.sleep(1.0)
        os.write(primary, b"\x03")
        assert b"gradcli: interrupted" in _read_until(primary, b"gradcli> ")
        os.write(primary, b"x[0] * 5\n")
        assert b"5.0" in _read_until(primary, b"gradcli> ")  # the bindings survived
        os.write(primary, b":quit\n")
        assert child.wait(timeout=60) == 0  # no line failed
    finally:
        if child.poll() is None:
            child.kill()
        os.close(primary)
    assert "(x**2).sum()" in (tmp_path / ".gradcli_history").read_text()


@pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "fork"), reason="pseudo-terminals and fork are POSIX")
def test_repl_ctrl_c_inside_one_long_numpy_call_keeps_the_session_and_its_bindings(tmp_path):
    """Ctrl-C while a line sits inside one numpy call (an einsum of 1.6e11 multiply-adds: minutes in C, which
    never returns to Python in time) ends that line only: back at the prompt with every
    binding, as often as it is pressed."""
    import pty

    primary, secondary = pty.openpty()
    env = {**os.environ, "HOME": str(tmp_path), "TERM": "dumb"}

    def controlling_terminal():
        import fcntl
        import termios

        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    child = subprocess.Popen([sys.executable, "-m", "gradcli", "repl", "--color", "never", "--no-check"],
                             stdin=secondary, stdout=secondary, stderr=secondary, env=env, close_fds=True,
                             start_new_session=True, preexec_fn=controlling_terminal)
    os.close(secondary)
    try:
        _read_until(primary, b"gradcli> ")
        os.write(primary, b"x = [1, 2, 3]\n")
        _read_until(primary, b"gradcli> ")
        os.write(primary, b"const a = randn(3000, 3000)\n")
        _read_until(primary, b"gradcli> ")
        os.write(primary, b"const W = randn(630, 630)\n")
        _read_until(primary, b"gradcli> ")
        # (each line one einsum of 1.6e11 multiply-adds, minutes in C on any machine: a 3000x3000 product is
        # done in about a second on an idle one, before the Ctrl-C)
        for line in (b"einsum('ij,kl->', W, W).sum() * x[0]\n", b"einsum('ij,kl->', W, a[:630, :630]) + x.sum()\n",
                     b"(einsum('ij,kl->', W, W) * x).sum()\n", b"einsum('ij,kl->', W, W) + x\n"):
            os.write(primary, line)
            time.sleep(1.0)  # inside the product by now (the parse and the draws take milliseconds)
            started = time.monotonic()
            os.write(primary, b"\x03")
            answer = _read_until(primary, b"gradcli> ", timeout=30)
            assert b"gradcli: interrupted" in answer, answer
            assert time.monotonic() - started < 2.0  # not after the product: at once
            assert child.poll() is None  # the session goes on
        os.write(primary, b":vars\n")
        listed = _read_until(primary, b"gradcli> ")
        assert b"x  (3,)" in listed and b"a  (3000, 3000)" in listed
        os.write(primary, b"x[1] * 5\n")
        assert b"10.0" in _read_until(primary, b"gradcli> ")  # the bindings survived
        os.write(primary, b"z = [2, 4]\n")
        _read_until(primary, b"gradcli> ")
        os.write(primary, b"(z * x[:2]).sum()\n")
        assert b"10.0" in _read_until(primary, b"gradcli> ")
        os.write(primary, b":quit\n")
        assert child.wait(timeout=60) == 0
    finally:
        if child.poll() is None:
            child.kill()
        os.close(primary)


@pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "fork"), reason="pseudo-terminals and fork are POSIX")
def test_repl_products_in_children_after_mkl_was_loaded_in_the_session(tmp_path):
    """Each line runs in a forked child; after a child used MKL the session loads it too (so the next children
    need not), and products in the children that follow - large enough for MKL's OpenMP threads - neither hang
    nor change: the same answer on every line, and numpy's within float32 rounding."""
    import pty

    from gradcli.engine.kernels import mkl

    if not mkl.available():
        pytest.skip(f"MKL is not available ({mkl.why_not()}): products use numpy's BLAS, nothing to load")
    primary, secondary = pty.openpty()
    env = {**os.environ, "HOME": str(tmp_path), "TERM": "dumb"}
    child = subprocess.Popen([sys.executable, "-m", "gradcli", "repl", "--color", "never", "--no-check"],
                             stdin=secondary, stdout=secondary, stderr=secondary, env=env, close_fds=True,
                             start_new_session=True)
    os.close(secondary)
    try:
        _read_until(primary, b"gradcli> ")
        os.write(primary, b"W = ones(600, 600) / 8\n")
        _read_until(primary, b"gradcli> ")
        answers = []
        for _ in range(3):  # the first child loads MKL, the session then; the others inherit it
            started = time.monotonic()
            os.write(primary, b"(W @ W).sum()\n")
            answers.append(_read_until(primary, b"gradcli> ", timeout=30))
            assert time.monotonic() - started < 25, "a product in a child hung"
        assert all(b"3375000.0" in a for a in answers), answers  # 600 * 600 * (600 / 64) exactly
        os.write(primary, b":quit\n")
        assert child.wait(timeout=60) == 0
    finally:
        if child.poll() is None:
            child.kill()
        os.close(primary)
