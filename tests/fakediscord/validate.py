"""Discord's documented size limits, so a test fails where the real API would answer 400."""

from __future__ import annotations

from typing import Any

from .world import walk_components

COMPONENTS_V2 = 1 << 15
BUTTON, SELECTS, TEXT_INPUT = 2, (3, 5, 6, 7, 8), 4


def _embed_problems(embeds: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds > 10")
    total = 0
    for i, e in enumerate(embeds):
        limits = {"title": 256, "description": 4096}
        for key, limit in limits.items():
            size = len(e.get(key) or "")
            total += size
            if size > limit:
                problems.append(f"embeds[{i}].{key} has {size} chars > {limit}")
        fields = e.get("fields", [])
        if len(fields) > 25:
            problems.append(f"embeds[{i}] has {len(fields)} fields > 25")
        for j, f in enumerate(fields):
            total += len(f.get("name", "")) + len(f.get("value", ""))
            if not f.get("name") or len(f["name"]) > 256:
                problems.append(f"embeds[{i}].fields[{j}].name empty or > 256")
            if not f.get("value") or len(f["value"]) > 1024:
                problems.append(f"embeds[{i}].fields[{j}].value empty or > 1024")
        footer = (e.get("footer") or {}).get("text") or ""
        author = (e.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > 2048:
            problems.append(f"embeds[{i}].footer.text > 2048")
        if len(author) > 256:
            problems.append(f"embeds[{i}].author.name > 256")
    if total > 6000:
        problems.append(f"embeds total {total} chars > 6000")
    return problems


def _component_problems(components: list[dict[str, Any]], v2: bool) -> list[str]:
    problems: list[str] = []
    if not v2 and len(components) > 5:
        problems.append(f"{len(components)} action rows > 5")
    seen: set[str] = set()
    for comp in walk_components(components):
        cid = comp.get("custom_id")
        if cid is not None:
            if not 1 <= len(cid) <= 100:
                problems.append(f"custom_id {cid!r} length not in 1..100")
            if cid in seen:
                problems.append(f"duplicate custom_id {cid!r}")
            seen.add(cid)
        if comp.get("type") == 1 and not v2:
            kids = comp.get("components", [])
            if not 1 <= len(kids) <= 5:
                problems.append(f"action row with {len(kids)} components")
        if comp.get("type") == BUTTON and len(comp.get("label") or "") > 80:
            problems.append(f"button label {comp['label']!r} > 80 chars")
        if comp.get("type") == BUTTON and comp.get("style") != 5 and cid is None and comp.get("style") != 6:
            problems.append("non-link button without custom_id")
        if comp.get("type") == 3:
            options = comp.get("options", [])
            if not 1 <= len(options) <= 25:
                problems.append(f"select {cid!r} has {len(options)} options (1..25)")
            for opt in options:
                if len(opt.get("label", "")) > 100 or len(opt.get("value", "")) > 100:
                    problems.append(f"select {cid!r} option label/value > 100 chars")
    return problems


def message_problems(payload: dict[str, Any], *, has_files: bool, is_edit: bool = False) -> list[str]:
    """Problems Discord would report for a create/edit message body."""
    problems: list[str] = []
    v2 = bool((payload.get("flags") or 0) & COMPONENTS_V2)
    content = payload.get("content") or ""
    if len(content) > 2000:
        problems.append(f"content has {len(content)} chars > 2000")
    if v2 and content:
        problems.append("content is not allowed with IS_COMPONENTS_V2")
    problems += _embed_problems(payload.get("embeds") or [])
    problems += _component_problems(payload.get("components") or [], v2)
    empty = not (content or payload.get("embeds") or payload.get("components") or has_files or payload.get("poll"))
    if empty and not is_edit and not payload.get("sticker_ids"):
        problems.append("cannot send an empty message")
    return problems


def choices_problems(choices: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(choices) > 25:
        problems.append(f"{len(choices)} autocomplete choices > 25")
    for c in choices:
        if not 1 <= len(str(c.get("name", ""))) <= 100:
            problems.append(f"choice name {c.get('name')!r} length not in 1..100")
        if isinstance(c.get("value"), str) and len(c["value"]) > 100:
            problems.append(f"choice value {c['value']!r} > 100 chars")
    return problems


def modal_problems(data: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    if not 1 <= len(data.get("title", "")) <= 45:
        problems.append("modal title length not in 1..45")
    if not 1 <= len(data.get("custom_id", "")) <= 100:
        problems.append("modal custom_id length not in 1..100")
    if not 1 <= len(data.get("components", [])) <= 5:
        problems.append("modal needs 1..5 top-level components")
    return problems
