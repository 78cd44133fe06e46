"""Which Host and Origin headers a request may carry: the server's own names only.

Host stops DNS rebinding (a hostile name that resolves to 127.0.0.1 reaches the server, but with its
own name in Host); Origin stops other sites' pages from opening the websocket or posting the login
form in the user's name (a browser always sends Origin on both).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

LOOPBACK_NAMES: Final = frozenset({"localhost", "127.0.0.1", "::1"})


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or address to listen on) is this machine only."""
    return host.strip("[]") in LOOPBACK_NAMES or host.startswith("127.")


def split_host(header: str) -> tuple[str, int | None] | None:
    """A Host header's name (lower case, IPv6 without brackets) and port, or None when unreadable."""
    try:
        parsed = urlsplit(f"//{header}")
        name, port = parsed.hostname, parsed.port
    except ValueError:
        return None
    if not name or parsed.username is not None or parsed.path or parsed.query or parsed.fragment:
        return None
    return name.lower(), port


@dataclass(frozen=True)
class Guard:
    """The names (`hosts`) and the origins (`scheme://name[:port]`) the server answers to."""

    hosts: frozenset[tuple[str, int | None]]
    origins: frozenset[str]

    @classmethod
    def for_server(cls, host: str, port: int, base_url: str | None = None) -> Guard:
        """The loopback names and `host` on `port`, plus the public name of `base_url` (a reverse
        proxy in front, which passes its own Host on)."""
        names = {*LOOPBACK_NAMES, host.strip("[]").lower()} - {"0.0.0.0", "::"}
        hosts: set[tuple[str, int | None]] = {(name, port) for name in names}
        origins = {f"http://{_bracketed(name)}:{port}" for name in names}
        if base_url:
            public = urlsplit(base_url)
            assert public.hostname is not None
            hosts |= {(public.hostname, public.port), (public.hostname, public.port or _DEFAULT_PORTS[public.scheme])}
            origins.add(f"{public.scheme}://{public.netloc.rpartition('@')[2]}".lower())
        return cls(frozenset(hosts), frozenset(origins))

    def host_allowed(self, header: str | None) -> bool:
        """Whether a request's Host header names this server."""
        split = split_host(header) if header else None
        return split is not None and split in self.hosts

    def origin_allowed(self, header: str | None, required: bool) -> bool:
        """Whether a request's Origin is this server's own; a missing one passes unless `required`
        (a navigation or a script-less client sends none; a websocket from a page always does)."""
        if header is None:
            return not required
        return header.lower().rstrip("/") in self.origins


_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


def _bracketed(name: str) -> str:
    return f"[{name}]" if ":" in name else name
