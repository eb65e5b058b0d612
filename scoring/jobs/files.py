"""Where jobs keep their files: ``settings.JOBS_DIR``, shared by every machine of a deployment
(the app servers serve what the workers wrote)."""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

from django.conf import settings


def jobs_dir() -> Path:
    return Path(settings.JOBS_DIR)


def new_path(owner: object, name: str) -> Path:
    """A fresh file for a job's result (``owner``: the job's number) or an upload (``upload``):
    a folder of its own, a name nobody guesses."""
    folder = jobs_dir() / f"{owner}-{secrets.token_hex(8)}"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder / name


def write_file(path: Path, content: bytes) -> None:
    """Written under another name then renamed: a reader never sees half a file."""
    partial = path.with_name(path.name + ".part")
    partial.write_bytes(content)
    os.replace(partial, path)


def stored(relative: str) -> Path | None:
    """The file a job made, if it is still there (never a path outside the jobs' folder)."""
    if not relative:
        return None
    root = jobs_dir().resolve()
    path = (root / relative).resolve()
    if root not in path.parents or not path.is_file():
        return None
    return path


def relative_name(path: Path) -> str:
    return path.resolve().relative_to(jobs_dir().resolve()).as_posix()


def top_folder(relative: str) -> str:
    """The folder of the jobs' folder that holds ``relative`` (a job's file or upload)."""
    return relative.split("/", 1)[0] if relative else ""


def remove_folders(*, older_than: float, keep: set[str]) -> int:
    """Remove the folders of the jobs' folder last changed before ``older_than`` (a time
    stamp), except those in ``keep`` (still named by a job). Returns how many went."""
    root = jobs_dir()
    if not root.is_dir():
        return 0
    removed = 0
    for folder in root.iterdir():
        if folder.name in keep or not folder.is_dir() or folder.stat().st_mtime >= older_than:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed += 1
    return removed
