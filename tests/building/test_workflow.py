"""The GitHub Pages workflow: unit tests, then build.py, then the official Pages actions, pinned."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from course_build.paths import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
EXACT = re.compile(r"^[\w.-]+/[\w.-]+@(v\d+\.\d+\.\d+|[0-9a-f]{40})$")


@pytest.fixture(scope="module")
def workflow() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return loaded


def steps(workflow: dict[str, Any], job: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = workflow["jobs"][job]["steps"]
    return found


def uses(workflow: dict[str, Any], job: str) -> list[str]:
    return [step["uses"].split("@")[0] for step in steps(workflow, job) if "uses" in step]


def test_it_runs_on_pushes_to_main_and_by_hand(workflow: dict[str, Any]) -> None:
    # YAML 1.1 reads a bare `on` as true.
    trigger: dict[str, Any] = workflow["on"] if "on" in workflow else workflow[True]  # type: ignore[index]
    assert trigger["push"]["branches"] == ["main"]
    assert "workflow_dispatch" in trigger


def test_it_has_the_permissions_pages_needs_and_no_more(workflow: dict[str, Any]) -> None:
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert workflow["concurrency"]["cancel-in-progress"] is False


def test_every_action_is_pinned_to_an_exact_release(workflow: dict[str, Any]) -> None:
    pinned = [s["uses"] for job in workflow["jobs"] for s in steps(workflow, job) if "uses" in s]
    assert pinned
    loose = [u for u in pinned if not EXACT.match(u)]
    assert not loose, f"pin these to vX.Y.Z or a commit: {loose}"


def test_build_py_builds_then_the_unit_tests_run_in_its_venv_before_the_upload(
    workflow: dict[str, Any],
) -> None:
    """One install: build.py makes .venv/ with the pinned tools, and the tests use it."""
    runs = [s.get("run", "") for s in steps(workflow, "build")]
    built = next(i for i, r in enumerate(runs) if r.strip() == "python build.py build")
    tests = next(i for i, r in enumerate(runs) if "pytest" in r)
    assert built < tests < len(runs) - 1  # the upload, the last step, comes after both
    assert runs[tests].startswith(".venv/bin/python -m pytest ")
    assert "--ignore=tests/e2e" in runs[tests]
    assert not [r for r in runs if "pip install" in r]


def test_the_official_actions_upload_dist_and_deploy_it(workflow: dict[str, Any]) -> None:
    build_steps = steps(workflow, "build")
    assert uses(workflow, "build")[-1] == "actions/upload-pages-artifact"
    assert build_steps[-1]["with"]["path"] == "dist"
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["environment"]["name"] == "github-pages"
    assert uses(workflow, "deploy") == ["actions/deploy-pages"]
    assert deploy["environment"]["url"] == "${{ steps.deployment.outputs.page_url }}"
    assert steps(workflow, "deploy")[0]["id"] == "deployment"


def test_the_runtimes_match_the_readme(workflow: dict[str, Any]) -> None:
    setup = {s["uses"].split("@")[0]: s.get("with", {}) for s in steps(workflow, "build")
             if "uses" in s}
    python = tuple(int(x) for x in setup["actions/setup-python"]["python-version"].split("."))
    assert python >= (3, 11)
    assert int(setup["actions/setup-node"]["node-version"]) >= 20
