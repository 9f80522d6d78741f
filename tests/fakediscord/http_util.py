"""Response helpers and request-body parsing (JSON or multipart with ``payload_json`` + ``files[n]``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web

from .validate import errors_object


@dataclass
class UploadedFile:
    """A file part of a multipart request, keyed by its ``files[n]`` index."""

    index: int
    filename: str
    data: bytes
    content_type: str


@dataclass
class Body:
    json: Any = None
    files: list[UploadedFile] = field(default_factory=list)


BODY_KEY = web.RequestKey("fakediscord_body", Body)


def json_response(data: Any, status: int = 200) -> web.Response:
    """discord.py only decodes JSON when Content-Type is exactly ``application/json`` (no charset)."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def empty_response() -> web.Response:
    return web.Response(status=204)


def error_response(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
    """Discord-shaped error body; never 5xx, which discord.py retries with sleeps."""
    assert status < 500, "the fake must not answer 5xx"
    data: dict[str, Any] = {"message": message, "code": code}
    if errors:
        data["errors"] = errors
    return json_response(data, status)


def invalid_form(problems: list[str]) -> web.Response:
    """Discord's answer to a payload over its limits: 400, code 50035 and the ``errors`` object."""
    return error_response(400, 50035, "Invalid Form Body", errors_object(problems))


async def read_body(request: web.Request) -> Body:
    """Parse the request once and cache it on the request (the recorder reads it too)."""
    if BODY_KEY in request:
        return request[BODY_KEY]
    body = Body()
    ctype = request.content_type
    if ctype.startswith("multipart/"):
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            name = part.name or ""  # type: ignore[union-attr]
            raw = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                body.json = json.loads(raw)
            elif name.startswith("files["):
                index = int(name[len("files[") : -1])
                filename = part.filename or f"file{index}"  # type: ignore[union-attr]
                content_type = part.headers.get("Content-Type", "application/octet-stream")  # type: ignore[union-attr]
                body.files.append(UploadedFile(index, filename, bytes(raw), content_type))
    elif ctype == "application/x-www-form-urlencoded":  # OAuth2's token endpoint: read by its route
        body.json = dict(parse_qsl(await request.text()))
    elif request.can_read_body:
        text = await request.text()
        body.json = json.loads(text) if text else None
    request[BODY_KEY] = body
    return body
