"""The embedded shared cache: Django's file cache with an ``add`` that is atomic across processes.

Throttles and login limits (docs/SECURITY.md) count in the cache every process shares. Without
Redis that is a directory under ``CELTIC_VAR_DIR``: no server, no database queries, and every
process on the machine sees the same files. Django's ``FileBasedCache.add`` checks and then
writes, so two processes could both claim one login-limit slot; here the new entry is
hard-linked into place, which fails when the file already exists.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache


class AtomicFileCache(FileBasedCache):
    """``FileBasedCache`` whose ``add`` succeeds in exactly one of several racing processes."""

    def add(
        self,
        key: Any,
        value: Any,
        timeout: Any = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        if self.has_key(key, version):  # also removes an expired entry
            return False
        self._createdir()  # the directory can be deleted at any time
        self._cull()
        fname = self._key_to_file(key, version)
        fd, tmp_path = tempfile.mkstemp(dir=self._dir)
        try:
            with open(fd, "wb") as file:
                self._write_content(file, timeout, value)
            try:
                os.link(tmp_path, fname)  # atomic: fails if another process got there first
            except FileExistsError:
                return False
            return True
        finally:
            os.remove(tmp_path)
