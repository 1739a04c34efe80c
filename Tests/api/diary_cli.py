"""Runs the `diary` command line on a test server's database (for users, tokens, export).

A module of its own, not conftest.py, so that `from diary_cli import cli` is never confused
with another test folder's conftest when pytest runs several folders at once."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("DIARY_BIN", REPO / ".build/debug/diary"))


def cli(database: Path, *args: str, input: Optional[str] = None) -> str:
    """`diary ARGS --database DATABASE` (bcrypt cost 4, no other DIARY_ setting): its standard
    output. Fails the test if it exits non-zero."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
    env["DIARY_BCRYPT_COST"] = "4"
    done = subprocess.run([str(BINARY), *args, "--database", str(database)], input=input,
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, f"diary {' '.join(args)} exited {done.returncode}:\n{done.stderr}"
    return done.stdout
