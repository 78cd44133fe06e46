"""The layers stay apart: the engine imports nothing of the quiz, the UI or YAML."""

import json
import subprocess
import sys


def modules_after_import(module: str) -> set[str]:
    """Names in sys.modules after a fresh interpreter imports `module`."""
    code = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return set(json.loads(out.stdout))


def test_engine_loads_no_quiz_textual_or_yaml():
    loaded = modules_after_import("engine")
    for forbidden in ("quiz", "textual", "yaml"):
        assert not {m for m in loaded if m == forbidden or m.startswith(forbidden + ".")}, forbidden
