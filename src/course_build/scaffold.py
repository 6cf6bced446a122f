"""`new-lesson SLUG`: write a working lesson skeleton (module, notebook, tests, plan), listed."""

from __future__ import annotations

import json
import keyword
import re
import sys
from pathlib import Path
from string import Template
from typing import Any

from .paths import ROOT

SKELETON = Path(__file__).resolve().parent / "lesson_skeleton"
# A slug is the page's folder, its progress key and its notebook's name: lower-case words of
# letters and digits joined by hyphens, as URLs and every file system take them.
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
TAKEN = {"notebook", "py", "pyodide", "pyscript", "runtime"}  # folders the built site has
REGISTRY = Path("src", "attention_lessons", "lessons", "__init__.py")
IMPORT = re.compile(r"^from \. import (?P<names>[\w, ]+)$", re.MULTILINE)
TRACK_END = "\n)}\n"  # where the tuple of LESSONS closes: a new lesson goes last on the track
# The one line of a notebook the learner is asked to change, each notebook's, ends so; it sets
# one of the lesson's inputs (tests/building/test_notebooks.py changes it and reads the heads).
CHANGE_ME = "  # change me, then run this cell again"
QUERY_LINE = f"query = [2, -1]{CHANGE_ME}"


def module_name(slug: str) -> str:
    """The lesson's module: the slug with underscores, prefixed if it starts with a digit."""
    name = slug.replace("-", "_")
    return f"lesson_{name}" if name[0].isdigit() or keyword.iskeyword(name) else name


def lesson_code(slug: str) -> str:
    """The code the track shows: "8-4" becomes "8.4", and any other slug stays as it is."""
    return slug.replace("-", ".") if re.fullmatch(r"[0-9-]+", slug) else slug


def targets(root: Path, slug: str, module: str) -> dict[str, Path]:
    """Every file the skeleton writes, by its template."""
    return {
        "lesson.py.txt": root / "src" / "attention_lessons" / "lessons" / f"{module}.py",
        "test.py.txt": root / "tests" / "lessons" / f"test_{module}.py",
        "plan.py.txt": root / "tests" / "e2e" / "plans" / f"{module}.py",
        "notebook": root / "fixtures" / "notebooks" / f"{slug}.ipynb",
    }


def refusal(root: Path, slug: str, module: str) -> str | None:
    """Why the slug cannot be a new lesson, or None if it can."""
    if not SLUG.fullmatch(slug):
        return (f"{slug!r} is not a folder name a lesson can have: use lower-case letters, "
                "digits and single hyphens, such as 8-4 or masked-attention")
    if slug in TAKEN:
        return f"{slug!r} is a folder the built site already uses for its own files"
    registry = (root / REGISTRY).read_text(encoding="utf-8")
    lessons = root / "src" / "attention_lessons" / "lessons"
    if any(f'slug="{slug}"' in path.read_text(encoding="utf-8") for path in lessons.glob("*.py")):
        return f"a lesson with the slug {slug!r} exists already"
    if IMPORT.search(registry) is None or TRACK_END not in registry:
        return f"{REGISTRY} is not laid out as the skeleton expects, so it cannot register it"
    taken = [str(path.relative_to(root)) for path in targets(root, slug, module).values()
             if path.exists()]
    return f"these files exist already: {', '.join(taken)}" if taken else None


def numbers(root: Path) -> dict[str, str]:
    """What the skeleton's plan types and expects, from the package's own numbers for the head."""
    sys.path.insert(0, str(root / "src"))
    from attention_lessons import attend, load_fixture, parse_number  # noqa: PLC0415
    from attention_lessons.engine import decimals, exact, largest  # noqa: PLC0415

    fixture = load_fixture("attention-8.2.json", root / "fixtures")
    head = attend(fixture.query, fixture.keys, fixture.values)
    found = {"score_1": exact(head.scores[0]), "scaled_1": decimals(head.scaled[0]),
             "weight_1": decimals(head.weights[0]), "weight_2": decimals(head.weights[1]),
             "output_1": decimals(head.output[0]), "output_2": decimals(head.output[1]),
             "exp_2": decimals(head.exps[1])}
    found["scaled_1_comma"] = found["scaled_1"].replace(".", ",")
    for name in ("score_1", "scaled_1", "weight_1", "weight_2", "output_1"):
        typed = found["scaled_1_comma"] if name == "scaled_1" else found[name]
        found[f"read_{name}"] = parse_number(typed).echo
    first = head.weights[0] == max(head.weights)
    right, wrong = ("Key 1.", "Another key.") if first else ("Another key.", "Key 1.")
    found.update(right_prediction=right, wrong_prediction=wrong,
                 largest=largest(head.weights),
                 output_re=re.escape(f"{found['output_1']}, {found['output_2']}"))
    return found


def notebook(code: str, title: str, slug: str) -> dict[str, Any]:
    """A clean notebook: its title, the fixture, the head's step table, a query to change, and
    a key moved as Explore moves it."""
    def cell(kind: str, number: int, source: str) -> dict[str, Any]:
        lines = source.strip("\n").splitlines(keepends=True)
        made: dict[str, Any] = {"cell_type": kind, "id": f"cell-{number}", "metadata": {},
                                "source": lines}
        if kind == "code":
            made.update(execution_count=None, outputs=[])
        return made

    table = ('def step_table(head):\n    """Print the head\'s step table as the page does."""\n'
             '    for step in ("scores", "scaled", "exps", "weights", "output"):\n'
             '        values = getattr(head, step)\n'
             '        print(f"  {step:<40}" + ", ".join(f"{x:.4f}" for x in values))\n')
    label = "output, weights against values"
    sources = [
        ("markdown", f"# {code} · {title}\n\nA placeholder notebook from the lesson skeleton: "
                     "it computes the lesson's head with the same package as the page."),
        ("code", 'from importlib.resources import files\n\n'
                 'from attention_lessons import attend, parse_fixture\n\n'
                 'text = files("attention_lessons.fixtures").joinpath("attention-8.2.json")'
                 '.read_text()\nfixture = parse_fixture(text)\n' + table),
        ("markdown", "## Your turn: change the query"),
        ("code", f"{QUERY_LINE}\n\nhead = attend(query, fixture.keys, fixture.values)\n"
                 'step_table(head)\nprint(f"  {' + repr(label) + ':<40}" + '
                 '", ".join(f"{x:.4f}" for x in head.output))\n'),
        ("markdown", "## Move a key, as Explore does"),
        ("code", "from attention_lessons import LESSONS, Explore, explore_work, move\n\n"
                 f"lesson = LESSONS[{slug!r}]\n"
                 'moved = move(Explore(), fixture, "key_2", 2, -1)  # key 2 to (2, -1): change me\n'
                 "before = explore_work(lesson, fixture, Explore())\n"
                 "after = explore_work(lesson, fixture, moved)\n"
                 "for spec, was, now in zip(lesson.heads, before.heads, after.heads,\n"
                 "                          strict=True):\n"
                 '    decimals = ", ".join(f"{w:.4f}" for w in now.weights)\n'
                 '    print(spec.name, "weights, key 2 moved to (2, -1):       ", decimals)\n'),
    ]
    return {"cells": [cell(kind, i, source) for i, (kind, source) in enumerate(sources, 1)],
            "metadata": {"kernelspec": {"display_name": "Python (Pyodide)", "language": "python",
                                        "name": "python"},
                         "language_info": {"name": "python"}, "title": f"{code} · {title}"},
            "nbformat": 4, "nbformat_minor": 5}


def register(root: Path, module: str) -> None:
    """List the new module in the registry's import and last on the track."""
    path = root / REGISTRY
    text = path.read_text(encoding="utf-8")
    found = IMPORT.search(text)
    assert found is not None  # refusal() checked the layout
    names = sorted({*found["names"].replace(" ", "").split(","), module})
    text = text[: found.start("names")] + ", ".join(names) + text[found.end("names"):]
    text = text.replace(TRACK_END, f"\n    {module}.LESSON,{TRACK_END}", 1)
    path.write_text(text, encoding="utf-8")


def command(name: str, args: list[str]) -> int:
    """`new-lesson SLUG`: write lesson SLUG's skeleton into this checkout."""
    if len(args) != 1:
        print("usage: build.py new-lesson SLUG   (its folder, such as 8-4)", file=sys.stderr)
        return 2
    return new_lesson(ROOT, args[0])


def new_lesson(root: Path, slug: str) -> int:
    """Write lesson SLUG's skeleton under root and register it; return the exit status."""
    module = module_name(slug) if SLUG.fullmatch(slug) else slug
    reason = refusal(root, slug, module)
    if reason is not None:
        print(f"new-lesson: {reason}. Nothing was written.", file=sys.stderr)
        return 1
    code = lesson_code(slug)
    title = f"Placeholder lesson {code}"
    classname = "".join(part.capitalize() for part in module.split("_"))
    values = {"slug": slug, "code": code, "title": title, "classname": classname,
              **numbers(root)}
    written = []
    for template, path in targets(root, slug, module).items():
        if template == "notebook":
            text = json.dumps(notebook(code, title, slug), indent=1, ensure_ascii=False) + "\n"
        else:
            text = Template((SKELETON / template).read_text(encoding="utf-8")).substitute(values)
        path.write_text(text, encoding="utf-8")
        written.append(path.relative_to(root))
    register(root, module)
    print(f"new-lesson: wrote lesson {code} ({slug}), a placeholder that builds and passes the "
          "tests as it is:")
    for path in [*written, REGISTRY]:
        print(f"  {path}")
    print("Write its prose, questions and plan, then run `python3 build.py test`.")
    return 0
