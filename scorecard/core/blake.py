"""BLAKE2b, the digest of the warm cache and of a parsed file's content, without importing hashlib.

hashlib loads OpenSSL's libcrypto when it is imported (3.4 ms of a 0.2 s pre-commit hook) to offer
digests the hook never computes, and its blake2b is this very one: hashlib never takes BLAKE2 from
OpenSSL. Same function, same digests.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # a Python built without its own BLAKE2 (hashlib then has one from OpenSSL)
    from hashlib import blake2b

__all__ = ["blake2b"]
