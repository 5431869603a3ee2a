"""A PEP 517 build backend of the standard library only, so that ``pip wheel`` builds this distribution offline.

It writes the wheel a packaging tool would: the ``ag_shelf`` package and an
``ag_shelf-0.1.0.dist-info`` with its metadata, its entry points (from
``pyproject.toml``'s ``[project.entry-points]``, copied here) and its RECORD.
"""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile
from typing import Any

NAME, VERSION = "ag_shelf", "0.1.0"
ENTRY_POINTS = "[agent_graph.stores]\nshelf = ag_shelf:SCHEME\n"
METADATA = (
    "Metadata-Version: 2.1\nName: ag-shelf\nVersion: 0.1.0\n"
    "Summary: A folder of Run texts, one file per Run: a throwaway agent-graph store for the tests\n"
    "Requires-Python: >=3.10\nRequires-Dist: agent-graph\n"
)
WHEEL = "Wheel-Version: 1.0\nGenerator: ag-shelf build_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None) -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    info = f"{NAME}-{VERSION}.dist-info"
    files: dict[str, bytes] = {}
    for folder, _, names in os.walk(os.path.join(here, NAME)):
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, "rb") as handle:
                    files[os.path.relpath(path, here).replace(os.sep, "/")] = handle.read()
    files[f"{info}/METADATA"] = METADATA.encode()
    files[f"{info}/WHEEL"] = WHEEL.encode()
    files[f"{info}/entry_points.txt"] = ENTRY_POINTS.encode()
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = f"{NAME}-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return wheel
