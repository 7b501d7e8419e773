"""Held-out check of issue 30: its nine attacks in variants of their own, as a user would run.

    python benchmarks/hardening_campaign.py                   # every group
    python benchmarks/hardening_campaign.py --only outputs,huge --show 20

Each case runs ``detlens`` (the console script beside this interpreter) in a fresh sandbox
folder (``in/`` inputs, ``out/`` the one place it may write) and fails on:

- a traceback (``Traceback`` on stdout or stderr), a death by a signal it was not sent
  (SIGABRT, SIGSEGV, the kernel's SIGKILL), or an exit code other than 0, 1 and 2;
- a hang: still running after the case's timeout (then killed);
- an exit 2 without a message on stderr;
- a write outside ``out/``: any file of the sandbox created, changed or removed elsewhere
  (inputs included), anything created under ``/tmp/h30abs_*``;
- a node replaced: a watched device copy, FIFO, link or folder no longer of its kind (or a
  link pointing elsewhere); ``/dev/null`` no longer the character device 1,3;
- signals (``Case.signal``): a worker process still alive 10 s after its parent ended.

Prints tried / clean / failed per group and the first failures; exits 1 if any failed.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import campaign_cases as cc  # noqa: E402
import gen_sets  # noqa: E402

DETLENS = str(Path(sys.executable).with_name("detlens"))


def _snapshot(root: Path) -> dict[str, str]:
    """Kind and content digest of every node under ``root`` except ``out/``."""
    found: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel = os.path.relpath(dirpath, root)
        if rel == "out" or rel.startswith("out" + os.sep):
            dirnames[:] = []
            continue
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            kind = stat_kind(st.st_mode)
            if kind == "file":
                with open(path, "rb") as f:
                    kind += ":" + hashlib.sha1(f.read(1 << 20)).hexdigest() + str(st.st_size)
            elif kind == "link":
                kind += ":" + os.readlink(path)
            elif kind == "chr":
                kind += f":{os.major(st.st_rdev)},{os.minor(st.st_rdev)}"
            found[os.path.relpath(path, root)] = kind
    return found


def stat_kind(mode: int) -> str:
    import stat

    for test, name in (
        (stat.S_ISLNK, "link"),
        (stat.S_ISREG, "file"),
        (stat.S_ISDIR, "dir"),
        (stat.S_ISCHR, "chr"),
        (stat.S_ISFIFO, "fifo"),
    ):
        if test(mode):
            return name
    return "other"


def _descendants(pid: int) -> set[int]:
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    kids = [int(c) for c in f.read().split()]
                out.update(kids)
                todo.extend(kids)
        except (OSError, ValueError):
            continue
    return out


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                if f.read().split(") ")[-1][0] not in "ZX":
                    alive.add(p)
        except OSError:
            continue
    return alive


def _prepare(case: cc.Case, sandbox: Path) -> None:
    (sandbox / "in").mkdir(parents=True)
    (sandbox / "out").mkdir()
    for name, data in case.files.items():
        path = sandbox / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    if case.setup is not None:
        case.setup(sandbox)


def _kill(pids: set[int]) -> None:
    for p in pids:
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)


def _launch(case: cc.Case, sandbox: Path) -> tuple[subprocess.Popen[bytes], set[int], int | None]:
    """The running command, its descendants seen, the signal sent to it (None: none)."""
    argv = [DETLENS, *(a.replace("{S}", str(sandbox)) for a in case.argv)]
    proc = subprocess.Popen(
        argv,
        cwd=sandbox,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    kids: set[int] = set()
    if case.signal is None:
        return proc, kids, None
    name, delay = case.signal
    end = time.perf_counter() + delay
    while time.perf_counter() < end and proc.poll() is None:
        kids |= _descendants(proc.pid)
        time.sleep(0.05)
    if proc.poll() is not None:
        return proc, kids, None
    kids |= _descendants(proc.pid)
    sent = int(getattr(signal, name))
    proc.send_signal(sent)
    return proc, kids, sent


def _outcome(case: cc.Case, code: int, out: bytes, err: bytes, sent: int | None) -> list[str]:
    failures = []
    text = out.decode(errors="replace") + err.decode(errors="replace")
    if "Traceback" in text:
        failures.append("traceback: " + text[text.index("Traceback") :][-300:].replace("\n", " | "))
    ok_codes = set(case.exits)
    if sent is not None:
        ok_codes |= {-sent, 128 + sent, 130}
    if not failures and code not in ok_codes:
        failures.append(f"exit {code}: {err.decode(errors='replace')[-200:]!r}")
    if code == 2 and not err.strip():
        failures.append("exit 2 without a message")
    return failures


def _orphans(kids: set[int]) -> list[str]:
    deadline = time.perf_counter() + 10
    while _alive(kids) and time.perf_counter() < deadline:
        time.sleep(0.1)
    left = _alive(kids)
    _kill(left)
    return [f"workers left alive after the signal: {sorted(left)}"] if left else []


def _tree(case: cc.Case, sandbox: Path, before: dict[str, str]) -> list[str]:
    """Nodes replaced and writes outside ``out/`` and the outputs the case names."""
    failures = []
    after = _snapshot(sandbox)
    named = [os.path.relpath(w.replace("{S}", str(sandbox)), sandbox) for w in case.watch]
    for w in named:  # an output the user named: it may be written, never a node replaced
        kind = before.get(w, "none")
        if kind.split(":")[0] in ("chr", "fifo", "link") and after.get(w) != kind:
            failures.append(f"node replaced: {w} was {kind}, now {after.get(w)}")

    def mine(p: str) -> bool:  # the output, what is in it, the folders made to hold it
        if any(p == w or p.startswith(w + os.sep) for w in named):
            return True
        if p not in before and any(p.startswith(b + os.sep) for b in case.beside):
            return True  # a new file in an output folder that holds inputs
        return after.get(p) == "dir" and any(w.startswith(p + os.sep) for w in named)

    changed = sorted(
        p for p in set(before) | set(after) if before.get(p) != after.get(p) and not mine(p)
    )
    if changed:
        failures.append(f"outside out/: {[(p, before.get(p), after.get(p)) for p in changed[:3]]}")
    for path in Path("/tmp").glob("h30abs_*"):
        failures.append(f"written outside: {path}")
        shutil.rmtree(path, ignore_errors=True)
    st = os.stat("/dev/null")
    if stat_kind(st.st_mode) != "chr" or os.major(st.st_rdev) != 1 or os.minor(st.st_rdev) != 3:
        failures.append("/dev/null replaced")
    return failures


def run_case(case: cc.Case, base: Path, k: int) -> list[str]:
    """The failures of one case (empty: clean)."""
    sandbox = base / f"c{k}"
    _prepare(case, sandbox)
    before = _snapshot(sandbox)
    t0 = time.perf_counter()
    proc, kids, sent = _launch(case, sandbox)
    hang = []
    try:
        out, err = proc.communicate(timeout=case.timeout)
    except subprocess.TimeoutExpired:
        _kill(_descendants(proc.pid))
        proc.kill()
        out, err = proc.communicate()
        hang.append(f"hang: still running after {case.timeout:.0f} s")
    wall = time.perf_counter() - t0
    failures = hang or _outcome(case, proc.returncode, out, err, sent)
    if sent is not None:
        failures += _orphans(kids)
    failures += _tree(case, sandbox, before)
    if wall > 0.9 * case.timeout and not hang:
        failures.append(f"slow: {wall:.0f} s")
    return failures


def cases(only: set[str]) -> Iterator[cc.Case]:
    groups = {
        "export-ids": cc.export_ids,
        "outputs": cc.outputs,
        "huge": cc.huge,
        "numbers": cc.numeric_options,
        "json": cc.json_numbers,
        "curved": cc.curved,
        "states": cc.states,
        "signals": lambda: cc.signals(gen_sets.fixed(400, 100)),
        "odd": cc.odd_data,
    }
    for name, make in groups.items():
        if not only or name in only:
            yield from make()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="", help="comma-separated groups")
    ap.add_argument("--show", type=int, default=40, help="failures printed")
    ap.add_argument("--match", default="", help="only cases whose name contains this")
    a = ap.parse_args()
    only = {g for g in a.only.split(",") if g}
    tried: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    shown: list[str] = []
    base = Path(tempfile.mkdtemp(prefix="detlens-campaign-"))
    t0 = time.perf_counter()
    try:
        for k, case in enumerate(c for c in cases(only) if a.match in c.name):
            problems = run_case(case, base, k)
            tried[case.group] += 1
            if problems:
                failed[case.group] += 1
                shown.append(f"[{case.group}] {case.name[:80]!r}: {problems[0][:400]}")
                print(shown[-1], flush=True)
            if k % 25 == 24:
                print(f"... {k + 1} cases, {sum(failed.values())} failed", flush=True)
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(base)], check=False)
        shutil.rmtree(base, ignore_errors=True)
    print(f"\n{'group':<12}{'tried':>7}{'clean':>7}{'failed':>8}")
    for g in tried:
        print(f"{g:<12}{tried[g]:>7}{tried[g] - failed[g]:>7}{failed[g]:>8}")
    total, bad = sum(tried.values()), sum(failed.values())
    print(f"{'all':<12}{total:>7}{total - bad:>7}{bad:>8}  ({time.perf_counter() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
