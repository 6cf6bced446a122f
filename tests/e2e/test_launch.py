"""The Chromium the tests launch: Playwright's own features kept, and no heap profiler that could
crash a renderer running Pyodide (see NO_HEAP_PROFILER in src/course_build/machine.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserType

from course_build.machine import NO_HEAP_PROFILER


def browser_command_line(profile: Path) -> list[str]:
    """The arguments of the Chromium browser process (not one of its children) that uses this
    profile, read from /proc."""
    for each in Path("/proc").iterdir():
        try:
            argv = (each / "cmdline").read_bytes().decode().split("\0")
        except (OSError, ValueError):
            continue  # not a process, or gone
        if f"--user-data-dir={profile}" in argv and not any(a.startswith("--type=") for a in argv):
            return argv
    raise AssertionError(f"no Chromium browser process uses {profile}")


def features(argv: list[str], switch: str) -> list[list[str]]:
    """Each value of a features switch, as a list of features, in order."""
    return [arg.removeprefix(switch).split(",") for arg in argv if arg.startswith(switch)]


def test_chromium_keeps_playwrights_features_and_turns_its_heap_profiler_off(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any], tmp_path: Path,
) -> None:
    profile = browser_type.launch_persistent_context(tmp_path, **browser_type_launch_args)
    try:
        argv = browser_command_line(tmp_path)
    finally:
        profile.close()
    enabled = features(argv, "--enable-features=")
    assert enabled, "Chromium was launched with no --enable-features"
    # Chromium honours only the last one: it must hold all that the earlier ones ask for.
    *earlier, last = enabled
    lost = sorted({feature for each in earlier for feature in each} - set(last))
    assert not lost, f"the last --enable-features drops what Playwright enables: {lost}"
    assert NO_HEAP_PROFILER in last
    assert len(features(argv, "--disable-features=")) == 1, (
        "a second --disable-features would replace the list Playwright disables")
