"""A cache of loaded packs: a warm start skips YAML, the model's conversion and the claims file.

Each file's outcome (its questions and problems, see `outcome.py`) is kept by the file's path
and a SHA-256 of its content, so any change to a pack reloads that pack. One JSON Lines file
per set of sources, in the cache directory, starts with the quiz's version: the package version
and a hash of its source files' sizes and times, so a cache written by other code is never trusted. The file is
data only (JSON read against the model's types, see `codec.py`), written atomically and readable
by its owner alone, and sealed: its last line is a keyed hash of the others, with a key kept in
the data directory (quiz.base.cache_key), so a cache changed by anything that can write the cache
folder but not read the key is not trusted. One that is damaged, cut short, too large, a
symlink, someone else's, readable by others, unsealed or sealed otherwise, or that does not fit
the model, is ignored and written afresh. A question is
decoded when first used (see `quiz.bank.questions`): an entry found then not to fit the model is
read again from its pack, and the cache is written afresh at that moment.

Each `--bank` set has its own file, so the folder keeps only the `KEPT_FILES` most recently used
(a file used is touched); older ones are removed when a cache is written. Only the owner's own
regular files named as the cache names them are ever removed.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import logging
import os
import re
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from quiz import __version__
from quiz.bank.bank import SkippedQuestion
from quiz.bank.codec import CacheMismatch, decode, encode
from quiz.bank.outcome import Declared, Event, Found, Problem, Rejected, Skipped, Unlisted
from quiz.bank.questions import Deferred
from quiz.base import locations
from quiz.base.atomic import write_text_atomically
from quiz.base.cache_key import cache_key, key_path, seal
from quiz.base.collector import collector_held
from quiz.base.own_file import NotOwnFile, read_own_file, this_user
from quiz.format.claims import Claims
from quiz.format.diagnostics import Diagnostic, Location, Severity
from quiz.format.model import QuestionBase
from quiz.models.registry import Question

log = logging.getLogger(__name__)

FORMAT: Final = 2
"""The layout of the cache file; a change to it is a change to the quiz's sources too."""
FOLLOW_UPS: Final = tuple[str, ...]
"""The type of a question's follow-up ids, kept beside its id so that they are known unbuilt."""
MAX_CACHE_BYTES: Final = 64 * 1024 * 1024
"""A larger cache file is ignored unread (the bundled bank's is about 1 MB)."""
KEPT_FILES: Final = 8
"""Cache files (sets of sources) kept in the folder: the most recently used ones."""
CACHE_NAME: Final = re.compile(r"bank-[0-9a-f]{16}\.jsonl")
PACK, CLAIMS, MAC = "pack", "claims", "mac"
MAC_START: Final = b'["mac","'
"""How the last line begins: the keyed hash of every line before it (quiz.base.cache_key)."""


class Unusable(Exception):
    """Why the cache file is ignored."""


@lru_cache(maxsize=1)
def quiz_version() -> str:
    """The version a cache is written by: the package's, its YAML reader's and a hash of its sources."""
    python = ".".join(map(str, sys.version_info[:2]))
    return f"{__version__} yaml-{yaml_version()} py-{python} {source_hash(Path(__file__).resolve().parent.parent)}"


def yaml_version() -> str:
    """A hash of PyYAML's `__init__.py`, which holds its version, found without importing it:
    a warm start reads no YAML and so never pays the ~20 ms PyYAML takes to import."""
    spec = importlib.util.find_spec("yaml")
    assert spec is not None and spec.origin is not None  # a dependency of the package
    return hashlib.sha256(Path(spec.origin).read_bytes()).hexdigest()[:12]


def source_hash(package: Path) -> str:
    """A hash of every Python file under `package`: its path, size and modification time (in
    nanoseconds), as Python checks its own bytecode against the source. Any write to the code
    changes it, without reading some 240 files on every start (a third of a warm bank load)."""
    digest = hashlib.sha256()

    def visit(folder: str, prefix: str) -> None:
        with os.scandir(folder) as entries:  # plain os calls: pathlib's objects cost as much as the rest
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        visit(entry.path, f"{prefix}{entry.name}/")
                elif entry.name.endswith(".py"):
                    stat = entry.stat()
                    digest.update(f"{prefix}{entry.name}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())

    visit(str(package), "")
    return digest.hexdigest()[:20]


class BankCache:
    """The cache of one set of sources: looked up while the bank loads, then saved once."""

    def __init__(self, folder: Path | None = None, *, owner: int | None = None) -> None:
        self.folder = folder if folder is not None else locations.cache_dir()
        self.owner = owner if owner is not None else this_user()
        """The user a cache file must belong to (this process's), where the system has owners."""
        self.status = "not opened"
        """What became of the cache file: missing, used, or ignored and why (for tests and logs)."""
        self._path: Path | None = None
        self._header: dict[str, Any] = {}
        self._stored: dict[tuple[str, str, str], tuple[str, Any]] = {}  # key: (line, its JSON data)
        # What this run used (its line as read) or loaded (encoded when saved, after the first screen).
        self._kept: dict[tuple[str, str, str], str | Callable[[], list[Any]]] = {}
        self._changed = False

    def open(self, sources: Sequence[Path]) -> None:
        """Read the cache of `sources`, if there is a usable one."""
        names = [str(s) for s in sources]
        self._header = {"format": FORMAT, "quiz": quiz_version(), "sources": names}
        key = hashlib.sha256(json.dumps(names).encode("utf-8", "surrogatepass")).hexdigest()[:16]
        self._path = self.folder / f"bank-{key}.jsonl"
        self._stored, self._kept, self._changed = {}, {}, True
        try:
            with collector_held():
                self._stored = self._read(self._path, self.owner)
        except FileNotFoundError:
            self.status = "missing"
            return
        except Unusable as exc:
            self.status = f"ignored: {exc}"
            log.info("bank cache %s %s", self._path, self.status)
            return
        self.status = "used"
        self._changed = False
        with suppress(OSError):  # used now: the last to be pruned (never through a symlink put in its place)
            os.utime(self._path, follow_symlinks=os.utime not in os.supports_follow_symlinks)

    def pack(self, path: Path, digest: str, reload: Callable[[], list[Event]]) -> list[Event] | None:
        """The events of the pack at `path` whose content hashes to `digest`, if kept. Its questions
        come deferred (see `quiz.bank.questions`): one whose entry turns out not to fit the model
        when it is built is taken from `reload`, the pack's events read afresh, which are kept."""
        key = (PACK, str(path), digest)
        found = self._take(key)
        if found is None:
            return None

        def deferred(question_id: Any, follow_ups: Any, text: Any) -> Deferred:
            index = (decode(question_id, str), decode(follow_ups, FOLLOW_UPS))
            if type(text) is not str:
                raise CacheMismatch("expected a question's JSON text")
            return Deferred(*index, lambda: self._build(text, index, path, key, reload))

        try:
            with collector_held():
                return _decode_events(found[3], path, deferred)
        except (CacheMismatch, IndexError, TypeError):  # TypeError: a model type the codec cannot read
            self._unfit(key)
            return None

    def claims(self, path: Path, digest: str) -> tuple[Claims, list[Event]] | None:
        """The claims file at `path` with content `digest`, and its problems, if kept."""
        found = self._take((CLAIMS, str(path), digest))
        if found is None:
            return None
        try:
            with collector_held():
                return decode(found[3], Claims, path), _decode_events(found[4], path)
        except (CacheMismatch, IndexError, TypeError):  # TypeError: a model type the codec cannot read
            self._unfit((CLAIMS, str(path), digest))
            return None

    def keep_pack(self, path: Path, digest: str, events: list[Event]) -> None:
        """Keep what loading a pack gave, for `save` to write."""
        self._keep((PACK, str(path), digest), lambda: [PACK, str(path), digest, _encode_events(events, path)])

    def keep_claims(self, path: Path, digest: str, claims: Claims, events: list[Event]) -> None:
        """Keep what loading the claims file gave, for `save` to write."""
        self._keep(
            (CLAIMS, str(path), digest), lambda: [CLAIMS, str(path), digest, encode(claims, Claims, path), _encode_events(events, path)]
        )

    def save(self) -> None:
        """Write what this run used and loaded, when it differs from the file; never raises."""
        if self._path is None or not (self._changed or len(self._kept) < len(self._stored)):
            return
        lines = [_line(self._header)]
        for key, kept in self._kept.items():
            try:
                lines.append(kept if isinstance(kept, str) else _line(kept()))
            except (CacheMismatch, TypeError, ValueError) as exc:  # a value the cache cannot store: read afresh next time
                log.info("bank cache %s: %s not kept: %s", self._path, key[1], exc)
        text = "".join(line + "\n" for line in lines)
        sealing_key = cache_key(create=True)
        if sealing_key is None:  # nothing to seal it with: it could not be trusted when read
            log.info("bank cache %s not written: no key in %s", self._path, key_path())
            return
        try:
            sealed = text + _line([MAC, seal(text.encode("utf-8"), sealing_key)]) + "\n"
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_text_atomically(self._path, sealed)  # a temporary file only its owner can read
        except (OSError, ValueError) as exc:
            log.info("bank cache %s not written: %s", self._path, exc)
            return
        self._changed = False
        _prune(self.folder, self.owner)

    def _take(self, key: tuple[str, str, str]) -> Any:
        stored = self._stored.get(key)
        if stored is None:
            return None
        self._kept[key] = stored[0]
        return stored[1]

    def _build(
        self, text: str, index: tuple[str, tuple[str, ...]], home: Path, key: tuple[str, str, str], reload: Callable[[], list[Event]]
    ) -> QuestionBase:
        """The question a deferred entry holds; from its pack read afresh when it does not fit
        the model or its index (and the cache is written again with the pack as read)."""
        try:
            with collector_held():
                question: QuestionBase | None = decode(json.loads(text), Question, home)
        except (CacheMismatch, IndexError, TypeError, ValueError, RecursionError):  # ValueError: damaged JSON
            question = None
        if question is not None and (question.id, question.follow_up_ids) == index:
            return question
        self._unfit(key)
        question_id = index[0]
        fresh = reload()
        self.save()
        for event in fresh:
            if isinstance(event, Found) and isinstance(event.question, QuestionBase) and event.question.id == question_id:
                return event.question
        raise KeyError(question_id)  # the entry named a question its pack does not hold

    def _unfit(self, key: tuple[str, str, str]) -> None:
        log.info("bank cache %s: the entry of %s does not fit the model; reloading it", self._path, key[1])
        self._kept.pop(key, None)
        self._changed = True

    def _keep(self, key: tuple[str, str, str], entry: Callable[[], list[Any]]) -> None:
        self._kept[key] = entry
        self._changed = True

    def _read(self, path: Path, owner: int | None) -> dict[tuple[str, str, str], tuple[str, Any]]:
        """The entries of the cache file by key; Unusable if the file is not one to trust."""
        try:
            data = read_own_file(path, owner, MAX_CACHE_BYTES)
            body, sealed_with = _unsealed(data)
            lines = body.decode("utf-8").splitlines()
            header = json.loads(lines[0]) if lines else None
        except NotOwnFile as exc:
            raise Unusable(str(exc)) from None
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise Unusable(f"not a cache file: {exc}") from None
        if header != self._header:
            raise Unusable("written by another version of the quiz or for other sources")
        entries = self._entries(lines)
        # Last, once the file's form is known: whatever reads as entries is trusted only if sealed with this user's key.
        key = cache_key(create=False)
        if sealed_with is None or key is None or not hmac.compare_digest(sealed_with, seal(body, key)):
            raise Unusable("its keyed hash does not match: not written by this quiz for this user, or changed since")
        return entries

    def _entries(self, lines: list[str]) -> dict[tuple[str, str, str], tuple[str, Any]]:
        """The entries of the lines after the header, by key; Unusable for a line that is not one."""
        entries = {}
        for number, line in enumerate(lines[1:], start=2):
            try:
                entry = json.loads(line)
            except (ValueError, RecursionError) as exc:
                raise Unusable(f"line {number} is damaged: {exc}") from None
            if not (type(entry) is list and len(entry) == (4 if entry[:1] == [PACK] else 5) and entry[0] in (PACK, CLAIMS)):
                raise Unusable(f"line {number} is not an entry")
            if not all(type(part) is str for part in entry[1:3]):
                raise Unusable(f"line {number} is not an entry")
            entries[(entry[0], entry[1], entry[2])] = (line, entry)
        return entries


def _unsealed(data: bytes) -> tuple[bytes, str | None]:
    """The file's lines before its seal, and the keyed hash the seal holds (None when the last line
    is not a seal: then every line is the body)."""
    start = data.rfind(b"\n", 0, len(data) - 1) + 1
    last = data[start:].rstrip(b"\n")
    if not last.startswith(MAC_START):
        return data, None
    sealed_with = json.loads(last)
    if not (type(sealed_with) is list and len(sealed_with) == 2 and type(sealed_with[1]) is str):
        raise ValueError("its last line is not a seal")
    return data[:start], sealed_with[1]


def _prune(folder: Path, owner: int | None, keep: int = KEPT_FILES) -> None:
    """Remove all but the `keep` most recently used cache files of `owner` in `folder`."""
    found: list[tuple[float, Path]] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if CACHE_NAME.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                    status = entry.stat(follow_symlinks=False)
                    if owner is None or status.st_uid == owner:
                        found.append((status.st_mtime, Path(entry.path)))
    except OSError as exc:
        log.info("bank cache folder %s not pruned: %s", folder, exc)
        return
    for _, path in sorted(found, reverse=True)[keep:]:
        try:
            path.unlink()
        except OSError as exc:
            log.info("bank cache %s not removed: %s", path, exc)


def _line(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _encode_events(events: list[Event], home: Path) -> list[Any]:
    """A file's events as JSON data; its own locations are written without the path."""
    encoded: list[Any] = []
    for event in events:
        if isinstance(event, Problem):
            encoded.append(["problem", encode(event.diagnostic, Diagnostic, home)])
        elif isinstance(event, Unlisted):
            encoded.append(["unlisted", str(event.path), event.severity.value, event.count])
        elif isinstance(event, Found):
            # The question as JSON text, parsed only when it is built: a warm start reads one.
            question = event.question
            encoded.append(["found", question.id, encode(question.follow_up_ids, FOLLOW_UPS), _line(encode(question, Question, home))])
        elif isinstance(event, Rejected):
            encoded.append(["rejected", encode(event.question, Question, home), encode(event.skipped, SkippedQuestion, home)])
        elif isinstance(event, Declared):
            encoded.append(["declared", encode(event.claims, Claims, home), encode(event.location, Location, home)])
        else:
            encoded.append(["skipped", encode(event.skipped, SkippedQuestion, home)])
    return encoded


def _decode_events(data: Any, home: Path, deferred: Callable[[Any, Any, Any], Deferred] | None = None) -> list[Event]:
    """A file's events from JSON data, its questions as `deferred` gives them (a claims file has none)."""
    if type(data) is not list:
        raise CacheMismatch("expected a list of events")
    events: list[Event] = []
    for item in data:
        if type(item) is not list or not item:
            raise CacheMismatch("expected an event")
        kind, *parts = item
        if kind == "problem" and len(parts) == 1:
            events.append(Problem(decode(parts[0], Diagnostic, home)))
        elif kind == "unlisted" and len(parts) == 3 and type(parts[2]) is int and parts[2] > 0:
            events.append(Unlisted(decode(parts[0], Path), decode(parts[1], Severity), parts[2]))
        elif kind == "found" and len(parts) == 3 and deferred is not None:
            events.append(Found(deferred(*parts)))
        elif kind == "rejected" and len(parts) == 2:
            events.append(Rejected(decode(parts[0], Question, home), decode(parts[1], SkippedQuestion, home)))
        elif kind == "declared" and len(parts) == 2:
            events.append(Declared(decode(parts[0], Claims, home), decode(parts[1], Location, home)))
        elif kind == "skipped" and len(parts) == 1:
            events.append(Skipped(decode(parts[0], SkippedQuestion, home)))
        else:
            raise CacheMismatch(f"not an event: {str(kind)[:40]}")
    return events
