"""A server's standing ladder: its service and its pure rules."""
