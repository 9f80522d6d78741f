"""Discord's documented size limits, so a test fails where the real API would answer 400.

Each problem carries the field path and error code Discord puts in the ``errors`` object of its
``50035 Invalid Form Body`` answer (e.g. ``{"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", ...}]}}``).
"""

from __future__ import annotations

from typing import Any

from .world import walk_components

COMPONENTS_V2 = 1 << 15
BUTTON, SELECTS, TEXT_INPUT = 2, (3, 5, 6, 7, 8), 4
MAX_LENGTH, BAD_LENGTH, MAX_ITEMS, BAD_ITEMS = ("BASE_TYPE_MAX_LENGTH", "BASE_TYPE_BAD_LENGTH",
                                                "BASE_TYPE_MAX_LENGTH", "BASE_TYPE_BAD_LENGTH")


class Problem(str):
    """A readable complaint that also knows where Discord would put it in its ``errors`` object."""

    path: tuple[str | int, ...]
    code: str

    def __new__(cls, text: str, path: tuple[str | int, ...] = (), code: str = "BASE_TYPE_INVALID") -> Problem:
        made = super().__new__(cls, text)
        made.path, made.code = path, code
        return made


def errors_object(problems: list[str]) -> dict[str, Any]:
    """Discord's nested ``errors``: each field path ends in ``_errors`` listing code and message."""
    errors: dict[str, Any] = {}
    for problem in problems:
        path = problem.path if isinstance(problem, Problem) else ()
        code = problem.code if isinstance(problem, Problem) else "BASE_TYPE_INVALID"
        node = errors
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": str(problem)})
    return errors


def _length(value: str, limit: int, path: tuple[str | int, ...], what: str, minimum: int = 0) -> list[Problem]:
    if minimum <= len(value) <= limit:
        return []
    bound = f"between {minimum} and {limit}" if minimum else f"{limit} or fewer"
    code = BAD_LENGTH if minimum else MAX_LENGTH
    return [Problem(f"{what} has {len(value)} chars: must be {bound} in length", path, code)]


def _embed_problems(embeds: list[dict[str, Any]]) -> list[Problem]:
    problems: list[Problem] = []
    if len(embeds) > 10:
        problems.append(Problem(f"{len(embeds)} embeds > 10", ("embeds",), MAX_ITEMS))
    total = 0
    for i, e in enumerate(embeds):
        for key, limit in {"title": 256, "description": 4096}.items():
            text = e.get(key) or ""
            total += len(text)
            problems += _length(text, limit, ("embeds", i, key), f"embeds[{i}].{key}")
        fields = e.get("fields", [])
        if len(fields) > 25:
            problems.append(Problem(f"embeds[{i}] has {len(fields)} fields > 25", ("embeds", i, "fields"), MAX_ITEMS))
        for j, f in enumerate(fields):
            total += len(f.get("name") or "") + len(f.get("value") or "")
            problems += _length(f.get("name") or "", 256, ("embeds", i, "fields", j, "name"),
                                f"embeds[{i}].fields[{j}].name", 1)
            problems += _length(f.get("value") or "", 1024, ("embeds", i, "fields", j, "value"),
                                f"embeds[{i}].fields[{j}].value", 1)
        footer = (e.get("footer") or {}).get("text") or ""
        author = (e.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        problems += _length(footer, 2048, ("embeds", i, "footer", "text"), f"embeds[{i}].footer.text")
        problems += _length(author, 256, ("embeds", i, "author", "name"), f"embeds[{i}].author.name")
    if total > 6000:
        problems.append(Problem(f"embeds total {total} chars > 6000", ("embeds",), "MAX_EMBED_SIZE_EXCEEDED"))
    return problems


def _component_problems(components: list[dict[str, Any]], v2: bool) -> list[Problem]:
    problems: list[Problem] = []
    if not v2 and len(components) > 5:
        problems.append(Problem(f"{len(components)} action rows > 5", ("components",), MAX_ITEMS))
    if not v2:
        for r, row in enumerate(components):
            kids = row.get("components", []) if row.get("type") == 1 else []
            if row.get("type") == 1 and not 1 <= len(kids) <= 5:
                problems.append(Problem(f"action row {r} has {len(kids)} components (1..5)",
                                        ("components", r, "components"), BAD_ITEMS))
    seen: set[str] = set()
    for comp in walk_components(components):
        cid = comp.get("custom_id")
        if cid is not None:
            problems += _length(cid, 100, ("components", "custom_id"), f"custom_id {cid[:40]!r}", 1)
            if cid in seen:
                problems.append(Problem(f"duplicate custom_id {cid!r}", ("components", "custom_id"),
                                        "COMPONENT_CUSTOM_ID_DUPLICATED"))
            seen.add(cid)
        if comp.get("type") == BUTTON:
            problems += _length(comp.get("label") or "", 80, ("components", "label"), "button label")
            if comp.get("style") not in (5, 6) and cid is None:
                problems.append(Problem("non-link button without custom_id", ("components", "custom_id"),
                                        "BASE_TYPE_REQUIRED"))
        if comp.get("type") == 3:
            options = comp.get("options", [])
            if not 1 <= len(options) <= 25:
                problems.append(Problem(f"select {cid!r} has {len(options)} options (1..25)",
                                        ("components", "options"), BAD_ITEMS))
            for opt in options:
                problems += _length(opt.get("label", ""), 100, ("components", "options", "label"),
                                    "select option label", 1)
                problems += _length(opt.get("value", ""), 100, ("components", "options", "value"),
                                    "select option value", 1)
    return problems


def message_problems(payload: dict[str, Any], *, has_files: bool, is_edit: bool = False) -> list[str]:
    """Problems Discord would report for a create/edit message body."""
    problems: list[str] = []
    v2 = bool((payload.get("flags") or 0) & COMPONENTS_V2)
    content = payload.get("content") or ""
    problems += _length(content, 2000, ("content",), "content")
    if v2 and content:
        problems.append(Problem("content is not allowed with IS_COMPONENTS_V2", ("content",)))
    problems += _embed_problems(payload.get("embeds") or [])
    problems += _component_problems(payload.get("components") or [], v2)
    empty = not (content or payload.get("embeds") or payload.get("components") or has_files or payload.get("poll"))
    if empty and not is_edit and not payload.get("sticker_ids"):
        problems.append(Problem("cannot send an empty message", (), "MESSAGE_EMPTY"))
    return problems


def choices_problems(choices: list[dict[str, Any]]) -> list[str]:
    """Autocomplete: at most 25 choices, each name 1-100 chars, each string value 1-100 chars."""
    problems: list[str] = []
    if len(choices) > 25:
        problems.append(Problem(f"{len(choices)} autocomplete choices > 25", ("data", "choices"), MAX_ITEMS))
    for i, c in enumerate(choices):
        problems += _length(str(c.get("name", "")), 100, ("data", "choices", i, "name"), "choice name", 1)
        if isinstance(c.get("value"), str):
            problems += _length(c["value"], 100, ("data", "choices", i, "value"), "choice value", 1)
    return problems


def modal_problems(data: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    problems += _length(data.get("title", ""), 45, ("data", "title"), "modal title", 1)
    problems += _length(data.get("custom_id", ""), 100, ("data", "custom_id"), "modal custom_id", 1)
    if not 1 <= len(data.get("components", [])) <= 5:
        problems.append(Problem("modal needs 1..5 top-level components", ("data", "components"), BAD_ITEMS))
    return problems


def thread_problems(body: dict[str, Any]) -> list[str]:
    """A new thread: a name of 1-100 characters and one of Discord's four archive durations."""
    problems: list[str] = list(_length(str(body.get("name") or ""), 100, ("name",), "thread name", 1))
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in (60, 1440, 4320, 10080):
        problems.append(Problem(f"auto_archive_duration {duration} is not 60, 1440, 4320 or 10080",
                                ("auto_archive_duration",), "BASE_TYPE_CHOICES"))
    return problems
