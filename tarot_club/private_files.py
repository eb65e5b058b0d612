"""Private files made once: the local secret key and the sealing key (standard library only:
settings import it before Django is set up)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def create_once(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path`` (mode 0600) unless the file exists: the first process wins.

    The file is written whole under a temporary name, then hard-linked into place, which is
    atomic and never replaces an existing file, so two processes starting at once both read
    the file of the first. Without hard links (a FAT-formatted USB key) the file is created
    exclusively instead; a reader may then find it still empty for a moment and should wait.
    Raises OSError when the folder is missing or cannot be written.
    """
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # 0600
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass
        except OSError:  # no hard links on this file system
            try:
                exclusive = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                return
            with os.fdopen(exclusive, "wb") as file:
                file.write(content)
    finally:
        os.unlink(temporary)
