"""The commands of README.md's tour and of each client's README, taken from the files and run
as shown, in the order shown, twice in a row, against a real vmd: the docs cannot drift.

Not run here: the guide "Serving your own view models" (its own runner is
.ci/readme-serve-own), the Node README's example (clients/node/test/readme.test.js runs it),
and the indented "Tests" commands of each client's README, which are the commands that run
this file. The socket is found the way a user's is: VMD_SOCKET is unset and XDG_RUNTIME_DIR
is the daemon's directory.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from vmd_client.testing import DaemonProcess, find_vmd_binary

REPO_ROOT = Path(__file__).resolve().parents[3]
WAIT = 60  # seconds one block may take

pytestmark = pytest.mark.skipif(not (shutil.which("socat") and shutil.which("jq")),
                                reason="the README commands need socat and jq")


def section(text: str, heading: str) -> str:
    """The body of the `## heading` section (up to the next `## `)."""
    start = text.index("\n## " + heading + "\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def fenced_blocks(text: str) -> List[Tuple[str, str]]:
    """Every fenced block as (language, body), in order."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r"```(\w*)\n(.*?)```", text, re.S)]


def user_environment(runtime_dir: str) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VMD_")}
    env["XDG_RUNTIME_DIR"] = runtime_dir
    env["PATH"] = str(find_vmd_binary(REPO_ROOT).parent) + os.pathsep + env.get("PATH", "")
    env["NO_COLOR"] = "1"
    return env


def bash(script: str, env: Dict[str, str]) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=WAIT)


def without_subscription_number(line: str) -> str:
    return re.sub(r'"sub-\d+"', '"sub-N"', line)


# README.md: the 30-second tour

def tour() -> str:
    return section((REPO_ROOT / "README.md").read_text(), "A 30-second tour")


def test_the_tour_names_socat_before_its_first_socat_command() -> None:
    text = tour()
    assert "apt-get install socat" in text
    assert text.index("apt-get install socat") < text.index("| socat")


@pytest.mark.parametrize("run", [1, 2])
def test_the_socat_tour_prints_every_line_shown(daemon: DaemonProcess, run: int) -> None:
    blocks = fenced_blocks(tour())
    script = next(body for language, body in blocks if language == "sh")
    expected = next(body for language, body in blocks if language == "" and '"method":"vm.output"' in body)
    result = bash(script, user_environment(str(daemon.directory)))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().split("\n")
    assert '"types"' in lines[0]
    wanted = [without_subscription_number(line) for line in expected.strip().split("\n")]
    assert [without_subscription_number(line) for line in lines[1:]] == wanted


def transcript() -> Tuple[List[Tuple[int, str, List[str]]], List[str]]:
    """The vmctl transcript: (terminal, command, expected lines) in the order shown, and what
    terminal 1's `vmctl watch` prints. From the `# terminal 1  # terminal 2` line until terminal
    1 types its next command, the block has two columns, split where `# terminal 2` starts."""
    body = next(body for language, body in fenced_blocks(tour()) if "$ vmctl" in body)
    steps: List[Tuple[int, str, List[str]]] = []
    watched: List[str] = []
    column = 0  # where terminal 2's column starts; 0 outside the two-column part
    watching = False
    for line in body.rstrip("\n").split("\n"):
        if line.startswith("# terminal 1"):
            column = line.index("# terminal 2")
            continue
        left, right = (line[:column].rstrip(), line[column:].strip()) if column else (line.rstrip(), "")
        if column and left.startswith("$ ") and watching:
            column, watching = 0, False  # terminal 1's next command: one column again
            left, right = line.rstrip(), ""
        for terminal, cell in ((1, left), (2, right)):
            if not cell:
                continue
            if cell.startswith("$ "):
                steps.append((terminal, cell[2:], []))
                watching = watching or (terminal == 1 and cell.startswith("$ vmctl watch"))
            elif terminal == 1 and watching:
                watched.append(cell)
            else:
                owner = max(i for i, step in enumerate(steps) if step[0] == terminal)
                steps[owner][2].append(cell)
    return steps, watched


@pytest.mark.parametrize("run", [1, 2])
def test_the_vmctl_tour_runs_as_shown(run: int) -> None:
    steps, watched = transcript()
    assert [command for _, command, _ in steps][:2] == ["vmctl daemon start", "vmctl create Login --id login --arg latencyMs=800"]
    runtime = tempfile.mkdtemp(prefix="vmdr-", dir="/tmp")
    env = user_environment(runtime)
    env["XDG_STATE_HOME"] = runtime + "/state"
    watcher = None
    try:
        for terminal, command, expected in steps:
            if command.startswith("vmctl watch"):
                watcher = subprocess.Popen(["bash", "-c", command], cwd=REPO_ROOT, env=env,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                wait_for_subscriber(env)
                continue
            result = bash(command, env)
            assert result.returncode == 0, (command, result.stderr)
            got = result.stdout.rstrip("\n").split("\n") if result.stdout.strip() else []
            if command.startswith("vmctl daemon"):
                # Pids, paths and the log's place differ from machine to machine.
                def gist(lines: List[str]) -> List[str]:
                    return [re.sub(r"\d+", "N", line.split(",")[0]) for line in lines]
                assert gist(got) == gist(expected), (command, got)
            else:
                assert [line.split() for line in got] == [line.split() for line in expected], command
        assert watcher is not None
        out, _ = watcher.communicate(timeout=WAIT)
        assert out.strip().split("\n")[:len(watched)] == watched
    finally:
        if watcher is not None and watcher.poll() is None:
            watcher.kill()
        subprocess.run(["vmctl", "daemon", "stop"], env=env, capture_output=True, timeout=WAIT)
        shutil.rmtree(runtime, ignore_errors=True)


def wait_for_subscriber(env: Dict[str, str]) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        listed = subprocess.run(["vmctl", "--json", "list"], env=env, capture_output=True, text=True)
        if '"subscribers":1' in listed.stdout.replace(" ", ""):
            return
        time.sleep(0.05)
    raise AssertionError("vmctl watch never subscribed")


# Each client's README

def client_blocks(client: str, language: str) -> List[str]:
    return [body for lang, body in fenced_blocks((REPO_ROOT / "clients" / client / "README.md").read_text())
            if lang == language]


def literal_comments(script: str) -> List[str]:
    """The `# value` comments that are literal JSON output (`# true`, `# {"value":2}`)."""
    found = []
    for line in script.split("\n"):
        match = re.search(r"\s#\s+(\S+)\s*$", line)
        if match and re.fullmatch(r'true|false|"[^"]*"|\{.*\}|-?\d+', match.group(1)):
            found.append(match.group(1))
    return found


@pytest.mark.parametrize("run", [1, 2])
def test_the_shell_readme_runs_in_order_from_the_repository_root(daemon: DaemonProcess, run: int) -> None:
    blocks = client_blocks("shell", "sh")
    assert len(blocks) >= 3
    env = user_environment(str(daemon.directory))
    for script in blocks:
        result = bash(script, env)
        assert result.returncode == 0, (script, result.stderr)
        for value in literal_comments(script):
            assert value in result.stdout.split("\n"), (value, result.stdout)


def test_the_python_readme_examples_run(daemon: DaemonProcess) -> None:
    env = user_environment(str(daemon.directory))
    env["PYTHONPATH"] = str(REPO_ROOT / "clients" / "python")
    for run in (1, 2):
        for source in client_blocks("python", "python"):
            if "from vmd_types import" in source:
                continue  # needs `vmctl gen python`'s module: test_python_typed_clients.py runs it
            result = subprocess.run(["python3", "-c", source], cwd=REPO_ROOT, env=env, capture_output=True,
                                    text=True, timeout=WAIT)
            assert result.returncode == 0, (run, source, result.stderr)


def test_installing_the_python_client_leaves_no_untracked_build_directory() -> None:
    ignored = subprocess.run(["git", "check-ignore", "-q", "clients/python/build/lib/vmd_client/__init__.py"],
                             cwd=REPO_ROOT)
    assert ignored.returncode == 0
