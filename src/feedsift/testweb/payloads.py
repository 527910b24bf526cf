"""Hostile bodies for the faults site: a gzip bomb, an oversized stream, a billion laughs.

All are cheap to make: the bomb is one deflate stream built from a single compressed
chunk repeated (its CRC comes from the CRC-combination algebra, not from hashing a
gigabyte), and the oversized body is produced chunk by chunk as it is sent.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator

__all__ = [
    "BOMB_CHUNK",
    "BOMB_SIZE",
    "OVERSIZED_BYTES",
    "billion_laughs",
    "crc32_combine",
    "gzip_bomb",
    "oversized_chunks",
]

#: Decompressed size of the gzip bomb: far beyond any sane cap.
BOMB_SIZE = 1 << 30
#: The bomb repeats one compressed chunk of this many spaces.
BOMB_CHUNK = 1 << 20
#: Size of the oversized bodies: above the crawler's default 20 MiB cap.
OVERSIZED_BYTES = 30 * (1 << 20)
#: Chunks of the oversized stream.
STREAM_CHUNK = 1 << 16
#: CRC-32's reversed polynomial (the operator for one zero bit).
CRC32_POLY = 0xEDB88320
#: Gzip member header: magic, deflate, no flags, no mtime, no extra flags, unknown OS.
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


def _gf2_times(matrix: list[int], vector: int) -> int:
    total, row = 0, 0
    while vector:
        if vector & 1:
            total ^= matrix[row]
        vector >>= 1
        row += 1
    return total


def _gf2_square(matrix: list[int]) -> list[int]:
    return [_gf2_times(matrix, matrix[row]) for row in range(32)]


def crc32_combine(crc1: int, crc2: int, length2: int) -> int:
    """CRC-32 of ``A + B`` from ``crc(A)``, ``crc(B)`` and ``len(B)`` (zlib's algorithm:
    shift ``crc(A)`` by ``len(B)`` zero bytes with squared GF(2) operators)."""
    if length2 <= 0:
        return crc1
    odd = [CRC32_POLY] + [1 << bit for bit in range(31)]
    even = _gf2_square(odd)
    odd = _gf2_square(even)
    while True:
        even = _gf2_square(odd)
        if length2 & 1:
            crc1 = _gf2_times(even, crc1)
        length2 >>= 1
        if not length2:
            break
        odd = _gf2_square(even)
        if length2 & 1:
            crc1 = _gf2_times(odd, crc1)
        length2 >>= 1
        if not length2:
            break
    return crc1 ^ crc2


def _repeated_crc(chunk: bytes, times: int) -> int:
    """CRC-32 of ``chunk * times`` by doubling, without building it."""
    result, result_len = 0, 0
    power, power_len = zlib.crc32(chunk), len(chunk)
    while times:
        if times & 1:
            result = crc32_combine(result, power, power_len)
            result_len += power_len
        power = crc32_combine(power, power, power_len)
        power_len *= 2
        times >>= 1
    return result


def gzip_bomb(size: int = BOMB_SIZE, chunk_size: int = BOMB_CHUNK) -> bytes:
    """A valid gzip member that inflates to ``size`` spaces (a multiple of ``chunk_size``).

    After a full flush, deflate forgets its history, so every chunk compresses to the same
    bytes: the body is that block repeated, an empty final block and the trailer.
    """
    if size % chunk_size:
        raise ValueError("size must be a multiple of chunk_size")
    chunk = b" " * chunk_size
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    final = compressor.flush(zlib.Z_FINISH)
    times = size // chunk_size
    trailer = struct.pack("<II", _repeated_crc(chunk, times), size & 0xFFFFFFFF)
    return GZIP_HEADER + block * times + final + trailer


def oversized_chunks(size: int = OVERSIZED_BYTES, prefix: bytes = b"") -> Iterator[bytes]:
    """``size`` bytes in :data:`STREAM_CHUNK` pieces: ``prefix`` then filler text."""
    line = b"<p>This page goes on and on and on, far beyond any reasonable size.</p>\n"
    filler = line * (STREAM_CHUNK // len(line) + 1)
    yield prefix[:size]
    sent = min(len(prefix), size)
    while sent < size:
        piece = filler[: min(STREAM_CHUNK, size - sent)]
        sent += len(piece)
        yield piece


def billion_laughs(levels: int = 9) -> bytes:
    """An RSS document whose nested entities expand to 10**levels copies of "lol"."""
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{n} "{f"&lol{n - 1};" * 10}">' for n in range(1, levels + 1)
    ]
    last = f"&lol{levels};"
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE rss [\n  '
        + "\n  ".join(entities)
        + f'\n]>\n<rss version="2.0"><channel><title>Laughs</title><link>/</link>'
        f"<description>{last}</description><item><title>{last}</title>"
        f"<description>{last}</description></item></channel></rss>\n"
    ).encode()
