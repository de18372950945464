"""A lesson as a small versioned JSON file, validated by a schema (pydantic): export, import,
and the form the database keeps (ui/lessons/lesson_store.py).

    {"format": "hopfield-lesson", "version": 1, "title": "Memories as valleys",
     "steps": [{"page": "classical", "view": {"mode": "sync", "presets": "letter_A,letter_H"},
                "title": "A 2-cycle", "instruction": "Predict where ...",
                "question": "destination", "note": "Synchronous updates can ..."}]}

A step's `view` is the page's link state (the same names and texts the settings layer puts in
the address bar). What the schema cannot know, whether the page exists, takes those settings
and asks that kind of question, a `check_step(page, view, question)` given by the caller
decides (ui/pages/lesson_steps.py: the page registry and each page's fields).

`read(data, check_step)` gives a Lesson or raises LessonFileError, whose message is one sentence
for the teacher: nothing of a bad file is kept. Texts are kept exactly as typed (they are shown
as plain text, never markdown or HTML), within caps that refuse, never cut: a title 80
characters, an instruction 500, a teacher's note 1000."""
from __future__ import annotations

import json
from typing import Annotated, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator

FORMAT = "hopfield-lesson"
VERSION = 1
MAX_BYTES = 64 * 1024
MAX_STEPS = 30
CAPS = {"title": 80, "instruction": 500, "note": 1000, "reason": 200}  # reason: a student's
MAX_SETTINGS = 80  # settings in one step's view (a page and the sidebar have about 40)

Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]
Value = Annotated[str, StringConstraints(max_length=2000)]


def _no_nul(text: str) -> str:
    if "\x00" in text:  # PostgreSQL's text cannot hold it, and no one types it
        raise ValueError("contains a NUL character")
    return text


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    page: Name
    view: dict[Name, Value] = Field(default_factory=dict, max_length=MAX_SETTINGS)
    title: str = Field(min_length=1, max_length=CAPS["title"])
    instruction: str = Field(default="", max_length=CAPS["instruction"])
    question: Name | None = None
    note: str = Field(default="", max_length=CAPS["note"])

    @field_validator("page", "title", "instruction", "question", "note")
    @classmethod
    def _texts(cls, v):
        return v if v is None else _no_nul(v)

    @field_validator("view")
    @classmethod
    def _view(cls, v):
        for k, x in v.items():
            _no_nul(k), _no_nul(x)
        return v


class Lesson(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    format: Literal["hopfield-lesson"] = FORMAT
    version: Literal[1] = VERSION
    title: str = Field(min_length=1, max_length=CAPS["title"])
    steps: tuple[Step, ...] = Field(min_length=1, max_length=MAX_STEPS)

    @field_validator("title")
    @classmethod
    def _title(cls, v):
        return _no_nul(v)


class LessonFileError(ValueError):
    """A lesson file that cannot be used; str(e) is one sentence saying why."""


FIELD_NAMES = {"title": "title", "instruction": "instruction", "note": "teacher's note",
               "page": "page", "view": "settings", "question": "question", "steps": "steps",
               "format": "format", "version": "version"}


def _where(loc: tuple) -> str:
    """An error's place as a sentence starts: "Step 3's instruction", "The lesson's title"."""
    if len(loc) >= 2 and loc[0] == "steps" and isinstance(loc[1], int):
        rest = loc[2:]
        head = f"Step {loc[1] + 1}"
        if not rest:
            return head
        if rest[0] == "view" and len(rest) > 1:
            return f"{head}'s setting {json.dumps(str(rest[1]))[:50]}"
        return f"{head}'s {FIELD_NAMES.get(rest[0], str(rest[0]))}"
    if loc:
        return f"The lesson's {FIELD_NAMES.get(loc[0], str(loc[0]))}"
    return "The lesson file"


def _sentence(err: dict) -> str:
    """One pydantic error as a sentence a teacher can act on."""
    kind, loc, ctx = err["type"], tuple(err["loc"]), err.get("ctx") or {}
    where = _where(loc)
    if kind == "extra_forbidden":
        parent = _where(loc[:-1])
        name = json.dumps(str(loc[-1]))[:50]
        return (f"The lesson file has a field {name} that lesson files do not have." if len(loc) == 1
                else f"{parent} has a field {name} that a step does not have.")
    if kind == "missing":
        return f"{where} is missing."
    if kind in ("string_too_long", "too_long"):
        n = len(err["input"]) if hasattr(err.get("input"), "__len__") else "too many"
        if loc == ("steps",):
            return f"The lesson has {n} steps; a lesson has at most {MAX_STEPS}."
        unit = "characters" if kind == "string_too_long" else "entries"
        return f"{where} is {n} {unit} long; at most {ctx.get('max_length')} are allowed."
    if kind in ("string_too_short", "too_short"):
        return f"{where} is empty." if loc != ("steps",) else "The lesson has no steps."
    if kind == "literal_error" and loc == ("version",):
        return (f"This lesson file is version {json.dumps(err['input'])[:20]}; this app reads "
                f"version {VERSION} files.")
    if kind == "literal_error" and loc == ("format",):
        return "This is not a lesson file of this app (its format is not \"hopfield-lesson\")."
    if kind == "value_error":
        return f"{where} contains a NUL character."
    if kind in ("string_type", "dict_type", "int_type", "tuple_type", "list_type", "model_type"):
        want = {"string_type": "text", "dict_type": "a set of named settings", "model_type": "an object",
                "tuple_type": "a list", "list_type": "a list", "int_type": "a whole number"}[kind]
        return f"{where} should be {want}."
    return f"{where}: {err['msg']}."


def read(data: bytes | str, check_step: Callable[[str, dict, str | None], list[str]] | None = None) -> Lesson:
    """The lesson in a file's bytes, or LessonFileError with one sentence; check_step gives each
    step's problems with the app's pages ([] when none), the first of which is the error."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if len(raw) > MAX_BYTES:
        raise LessonFileError(f"The file is {len(raw) / 1024:.0f} KB; a lesson file is at most "
                              f"{MAX_BYTES // 1024} KB.")
    try:
        parsed = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LessonFileError("The file is not a lesson file: it is not JSON text.") from None
    if not isinstance(parsed, dict):
        raise LessonFileError("The file is not a lesson file: it holds no lesson.")
    if parsed.get("format") != FORMAT:
        raise LessonFileError("This is not a lesson file of this app (its format is not \"hopfield-lesson\").")
    if "version" in parsed and parsed["version"] != VERSION:
        raise LessonFileError(f"This lesson file is version {json.dumps(parsed['version'])[:20]}; this app "
                              f"reads version {VERSION} files.")
    if isinstance(parsed.get("steps"), list):
        parsed["steps"] = tuple(parsed["steps"])
    try:
        lesson = Lesson.model_validate(parsed)
    except ValidationError as e:
        raise LessonFileError(_sentence(e.errors(include_url=False)[0])) from None
    if check_step is not None:
        for i, step in enumerate(lesson.steps):
            problems = check_step(step.page, dict(step.view), step.question)
            if problems:
                raise LessonFileError(f"Step {i + 1}: {problems[0]}")
    return lesson


def write(lesson: Lesson) -> bytes:
    """The lesson's file: JSON, UTF-8, one field a line where it helps a reader."""
    return json.dumps(body(lesson), ensure_ascii=False, indent=1).encode("utf-8")


def body(lesson: Lesson) -> dict:
    """The lesson as plain data (what the database keeps, what `read` takes back)."""
    return lesson.model_dump(mode="json")
