"""Real image files for the tests, made with Pillow: photos as cameras and phones make them
(a JPEG with its EXIF, the place it was taken included), and files that only pretend to be
photos (a header that claims 100,000 × 100,000 pixels)."""

from __future__ import annotations

import io
import os
import struct
import zlib

from PIL import Image

# Seoul City Hall, as a phone's GPS would put it in a photo.
LATITUDE = (37, 33, 59.4)
LONGITUDE = (126, 58, 40.7)


def jpeg(width: int = 640, height: int = 480, colour=(200, 120, 40), gps: bool = False, orientation: int = 1,
         quality: int = 85, noise: bool = False) -> bytes:
    """A real JPEG; with `gps`, EXIF as a phone writes it: camera, time, and where it was taken.
    With `noise`, random pixels: as large as a JPEG of that size gets (a photo's detail)."""
    image = Image.frombytes("RGB", (width, height), os.urandom(width * height * 3)) if noise \
        else Image.new("RGB", (width, height), colour)
    # Something other than one flat colour, so the file has real scan data.
    for x in range(0, width, 16):
        for y in range(0, height, 16):
            image.putpixel((x, y), (x % 256, y % 256, (x + y) % 256))
    exif = Image.Exif()
    exif[0x010F] = "DiaryCam"  # Make
    exif[0x0110] = "Model 7"  # Model
    exif[0x0132] = "2024:05:01 21:30:00"  # DateTime
    exif[0xA431] = "SN-4242-SECRET"  # BodySerialNumber
    if orientation != 1:
        exif[0x0112] = orientation
    if gps:
        exif[0x8825] = {  # the GPS IFD
            1: "N", 2: tuple(float(v) for v in LATITUDE),
            3: "E", 4: tuple(float(v) for v in LONGITUDE),
        }
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality, exif=exif.tobytes())
    return out.getvalue()


def png(width: int = 320, height: int = 200, colour=(30, 90, 200, 255), text: dict | None = None) -> bytes:
    image = Image.new("RGBA", (width, height), colour)
    out = io.BytesIO()
    info = None
    if text:
        from PIL.PngImagePlugin import PngInfo
        info = PngInfo()
        for key, value in text.items():
            info.add_text(key, value)
    image.save(out, "PNG", pnginfo=info)
    return out.getvalue()


def webp(width: int = 320, height: int = 240) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (10, 160, 90)).save(out, "WEBP", quality=80)
    return out.getvalue()


def gif(width: int = 64, height: int = 48) -> bytes:
    out = io.BytesIO()
    Image.new("P", (width, height), 3).save(out, "GIF")
    return out.getvalue()


def png_bomb(width: int = 100_000, height: int = 100_000) -> bytes:
    """A tiny PNG whose header claims `width` × `height` pixels: decoding it would take 40 GB."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


def jpeg_bomb() -> bytes:
    """A real JPEG's start with its frame header rewritten to claim 65,000 × 65,000 pixels."""
    data = bytearray(jpeg(16, 16))
    index = 2
    while index < len(data):
        marker, length = data[index + 1], struct.unpack(">H", data[index + 2:index + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            data[index + 5:index + 9] = struct.pack(">HH", 65_000, 65_000)
            break
        index += 2 + length
    return bytes(data)


def has_gps(data: bytes) -> bool:
    """Whether an image's EXIF (as Pillow reads it) holds a GPS position."""
    image = Image.open(io.BytesIO(data))
    exif = image.getexif()
    return bool(exif.get_ifd(0x8825)) or 0x8825 in exif


NOT_PHOTOS = {
    "text": b"just some words, not a photo\n",
    "html": b"<!doctype html><script>alert(1)</script>",
    "svg": b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>',
    "pdf": b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n",
    "zip": b"PK\x03\x04" + b"\0" * 60,
    "random": bytes(range(256)) * 8,
}
