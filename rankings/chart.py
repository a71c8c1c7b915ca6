"""The rating chart on a player's page as inline SVG geometry (no JavaScript, no ORM)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    points: str
    ticks: list[Tick]
    last_x: float
    last_y: float


def rating_chart(
    ratings: Sequence[float], *, width: int = 640, height: int = 220, margin: int = 40
) -> Chart | None:
    """A polyline of `ratings` (one per game, oldest first) scaled into the box, with
    horizontal grid lines every 50, 100 or 200 points. None when there is nothing to draw."""
    if not ratings:
        return None
    low, high = min(ratings), max(ratings)
    step = 50 if high - low <= 300 else 100 if high - low <= 800 else 200
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    left, right, top, bottom = margin, width - 10, 10, height - 20

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    count = len(ratings)
    xs = [left + (right - left) * (i / (count - 1) if count > 1 else 0.5) for i in range(count)]
    points = " ".join(f"{x:.1f},{y_of(r):.1f}" for x, r in zip(xs, ratings, strict=True))
    ticks = [Tick(y=round(y_of(v), 1), label=str(v)) for v in range(int(low), int(high) + 1, step)]
    return Chart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        points=points,
        ticks=ticks,
        last_x=round(xs[-1], 1),
        last_y=round(y_of(ratings[-1]), 1),
    )
