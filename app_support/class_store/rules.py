"""What the class store accepts: join codes, secret keys, names of lessons and questions, nicknames and
answers, checked before any of it reaches a query (bad input: ``ValueError`` / ``TypeError`` saying why).
"""
from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
import unicodedata

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # 32 symbols: no I, O, 0, 1 (read off a projector)
CODE_LENGTH = 8                                  # 32**8 = 2**40 codes
NICKNAME_MAX = 24
ANSWER_MAX = 200
MAX_STEP = 1000
_NAME = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
_KEY = re.compile(r"^[A-Za-z0-9_-]{16,128}$")


def new_code() -> str:
    """A join code: :data:`CODE_LENGTH` symbols of :data:`ALPHABET`, each from ``secrets``."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def new_key() -> str:
    """A secret key (a teacher's or a student's): 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def key_hash(key: str) -> str:
    """What the database keeps of a key (SHA-256, hex): a leaked database gives no usable key."""
    return hashlib.sha256(key.encode()).hexdigest()


def same_key(key, stored_hash: str) -> bool:
    """``key`` is the one whose hash is ``stored_hash``; compared in constant time."""
    if not isinstance(key, str) or not _KEY.match(key):
        return False
    return hmac.compare_digest(key_hash(key), stored_hash)


def clean_code(code) -> str | None:
    """A typed join code in canonical form (upper case, spaces and hyphens dropped), or None when it
    cannot be a code (the caller reports "no class with this code")."""
    if not isinstance(code, str):
        return None
    text = re.sub(r"[\s-]", "", code).upper()
    if len(text) != CODE_LENGTH or any(c not in ALPHABET for c in text):
        return None
    return text


def check_name(value, what: str) -> str:
    """A lesson, question or session name: 1-64 letters, digits, ``_ . : -``."""
    if not isinstance(value, str) or not _NAME.match(value):
        raise ValueError(f"{what} must be 1-64 letters, digits or _ . : - ; got {value!r:.80}")
    return value


def check_step(step) -> int:
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= MAX_STEP:
        raise ValueError(f"a step is a whole number from 0 to {MAX_STEP}; got {step!r:.40}")
    return step


def _printable(text: str) -> bool:
    return not any(unicodedata.category(c).startswith("C") for c in text)


def check_nickname(nickname) -> str | None:
    """An optional nickname: at most :data:`NICKNAME_MAX` characters, no control characters; blank -> None."""
    if nickname is None:
        return None
    if not isinstance(nickname, str):
        raise TypeError(f"a nickname is text; got {type(nickname).__name__}")
    text = unicodedata.normalize("NFC", nickname).strip()
    if len(text) > NICKNAME_MAX:
        raise ValueError(f"a nickname has at most {NICKNAME_MAX} characters; this one has {len(text)}")
    if not _printable(text):
        raise ValueError("a nickname cannot hold control or invisible formatting characters")
    return text or None


def check_answer(answer) -> str:
    """An answer as stored: text (1-:data:`ANSWER_MAX` printable characters, trimmed) or a finite number
    (its ``repr``: ``0.25``, ``3``).  Booleans, containers and NaN / inf are refused."""
    if isinstance(answer, bool) or not isinstance(answer, (str, int, float)):
        raise TypeError(f"an answer is text or a number; got {type(answer).__name__}")
    if isinstance(answer, (int, float)):
        if not math.isfinite(answer):
            raise ValueError("an answer cannot be NaN or infinite")
        return repr(answer)
    text = unicodedata.normalize("NFC", answer).strip()
    if not text or len(text) > ANSWER_MAX:
        raise ValueError(f"an answer has 1 to {ANSWER_MAX} characters; this one has {len(text)}")
    if not _printable(text):
        raise ValueError("an answer cannot hold control or invisible formatting characters")
    return text


def check_value(value) -> float:
    """A pooled experiment result: a finite number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"a result is a finite number; got {value!r:.40}")
    return float(value)
