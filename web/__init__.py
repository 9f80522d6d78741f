"""The live board in a browser: an aiohttp app the bot process serves when ``WEB_PORT`` is set (issue #22).

It imports ``host`` and ``engines`` only; every call into the host is in ``web/calls.py``.
"""
