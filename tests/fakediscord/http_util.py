"""Response helpers and request-body parsing (JSON or multipart with ``payload_json`` + ``files[n]``)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web
from aiohttp.multipart import content_disposition_filename, parse_content_disposition

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
    ctype, params = _content_type(request.headers.get("Content-Type", ""))
    if ctype.startswith("multipart/"):
        for headers, raw in _parts(await request.read(), params.get("boundary", "").encode()):
            name, filename = _disposition(headers.get("content-disposition", ""))
            if name == "payload_json":
                body.json = json.loads(raw)
            elif name.startswith("files["):
                index = int(name[len("files[") : -1])
                content_type = headers.get("content-type", "application/octet-stream")
                body.files.append(UploadedFile(index, filename or f"file{index}", raw, content_type))
    elif ctype == "application/x-www-form-urlencoded":  # OAuth2's token endpoint: read by its route
        body.json = dict(parse_qsl(await request.text()))
    elif request.can_read_body:
        text = await request.text()
        body.json = json.loads(text) if text else None
    request[BODY_KEY] = body
    return body


# Multipart bodies are split here rather than by aiohttp's reader: its header parsing (the email package, for
# every part and the request's own Content-Type) was a quarter of the fake's CPU in bench/bench_moves_images.py,
# where the fake shares the machine's cores with the bot it measures. What the simple forms below do not cover
# goes to aiohttp's own parser.
SIMPLE_DISPOSITION = re.compile(r'form-data; name="([^"\\%]*)"(?:; filename="([^"\\%]*)")?')


def _content_type(header: str) -> tuple[str, dict[str, str]]:
    """``type/subtype`` (lower case, '' when absent) and the parameters (``boundary``) of a Content-Type."""
    kind, _, rest = header.partition(";")
    params: dict[str, str] = {}
    for item in rest.split(";"):
        key, equals, value = item.strip().partition("=")
        if equals:
            params[key.strip().lower()] = value.strip().strip('"')
    return kind.strip().lower(), params


def _parts(data: bytes, boundary: bytes) -> list[tuple[dict[str, str], bytes]]:
    """The parts of a multipart body: (headers by lower-case name, the part's bytes)."""
    if not boundary:
        raise web.HTTPBadRequest(text="multipart body without a boundary")
    parts = []
    for chunk in data.split(b"--" + boundary)[1:]:
        if chunk.startswith(b"--"):  # the closing delimiter
            break
        head, found, raw = chunk.partition(b"\r\n\r\n")
        if not found:
            continue
        headers = {}
        for line in head.decode("utf-8", "surrogateescape").split("\r\n"):
            key, colon, value = line.partition(":")
            if colon:
                headers[key.strip().lower()] = value.strip()
        parts.append((headers, raw.removesuffix(b"\r\n")))
    return parts


def _disposition(header: str) -> tuple[str, str | None]:
    """(name, filename) of a part's Content-Disposition, as aiohttp's ``BodyPartReader`` reads them."""
    simple = SIMPLE_DISPOSITION.fullmatch(header)
    if simple is not None:
        return simple.group(1), simple.group(2)
    _, params = parse_content_disposition(header)
    return content_disposition_filename(params, "name") or "", content_disposition_filename(params, "filename")
