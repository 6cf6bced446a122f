"""Temporary start-up skeleton for D8: imports the package and signals that Python is ready."""

import time

_started = time.perf_counter()

import attention_lessons  # noqa: E402, F401  (proves the package landed on sys.path)
from pyscript import document, window  # noqa: E402

root = document.documentElement
root.setAttribute("data-python-ms", f"{(time.perf_counter() - _started) * 1000:.1f}")
root.setAttribute("data-python", "ready")
document.getElementById("boot-status").textContent = "Python is ready."
document.dispatchEvent(window.CustomEvent.new("lesson:ready"))
