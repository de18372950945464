"""The short lesson codes, the teachers' keys and the students' ids: random, and never a name.

- A lesson's code: 6 characters from an alphabet without 0, O, 1, I and L (read aloud or
  copied from a projector, none is mistaken for another): 31^6, about 887 million codes.
- A teacher's key: 128 random bits (32 hex digits) in the teacher's link; the database keeps
  only its SHA-256 (a key this random needs no slow hash: nobody can guess one to try).
- A student's id: 96 random bits in the student's link (16 URL-safe characters)."""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L
CODE_LENGTH = 6
KEY_BYTES = 16       # 128 bits
STUDENT_BYTES = 12   # 96 bits: 16 characters of base64url
_CODE = re.compile(rf"\A[{ALPHABET}]{{{CODE_LENGTH}}}\Z")
_KEY = re.compile(r"\A[0-9a-f]{32}\Z")
_STUDENT = re.compile(r"\A[A-Za-z0-9_-]{16}\Z")


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(text) -> str | None:
    """A code as someone typed it (any case, spaces or dashes between groups) in its
    canonical form; None when it cannot be a code (wrong length, a character not in the
    alphabet, not text)."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = re.sub(r"[\s-]", "", text).upper()
    return code if _CODE.match(code) else None


def new_key() -> str:
    return secrets.token_hex(KEY_BYTES)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def key_matches(key, stored_hash: str) -> bool:
    """Whether `key` (from a link: anything) is the key whose hash is stored; constant time."""
    if not isinstance(key, str) or not _KEY.match(key):
        return False
    return hmac.compare_digest(key_hash(key), stored_hash)


def new_student() -> str:
    return secrets.token_urlsafe(STUDENT_BYTES)


def is_student(text) -> bool:
    return isinstance(text, str) and bool(_STUDENT.match(text))
