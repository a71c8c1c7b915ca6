"""Pictures for emails: SVG drawn as PNG (mail clients do not show inline SVG)."""

from __future__ import annotations


def board_png(svg: str, *, width: int = 480) -> bytes:
    """A board drawn by its kind (``GameKind.svg``) as a PNG ``width`` pixels wide.

    Rendered by resvg, a wheel with no system library; the
    labels use any sans-serif font the machine has (none: the labels are left out)."""
    import resvg_py

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, background="#ffffff"))
