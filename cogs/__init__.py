"""Discord cogs, thin: each parses an interaction, calls the host and sends what it returns.

Every module here not starting with ``_`` is loaded as an extension by ``bot.py``.
"""
