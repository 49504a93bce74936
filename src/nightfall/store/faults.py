"""A fault-injection point for the crash tests (inactive unless the variable is set).

``NIGHTFALL_FAULT=pause:PATH`` makes a writer stop inside its transaction, after the
new events were inserted and before the commit, write PATH, and sleep: the crash test
kills the process there with SIGKILL and checks that nothing of the command remains.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def checkpoint(name: str) -> None:
    setting = os.environ.get("NIGHTFALL_FAULT", "")
    if not setting.startswith("pause:"):
        return
    Path(setting.removeprefix("pause:")).write_text(name)
    time.sleep(600)
