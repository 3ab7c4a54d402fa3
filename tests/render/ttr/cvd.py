"""Colour-vision-deficiency simulation (Machado, Oliveira and Fernandes 2009, full severity) and CIE Lab distance.

Used to check that player colours stay apart for people with protanopia, deuteranopia and tritanopia.
"""

from __future__ import annotations

import math

RGB = tuple[int, int, int]

MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def simulate(rgb: RGB, kind: str) -> tuple[float, float, float]:
    """Linear RGB (0…1) of how `rgb` looks to someone with this kind of colour vision."""
    lin = [_linear(c) for c in rgb]
    return tuple(min(1.0, max(0.0, sum(m * v for m, v in zip(row, lin, strict=True)))) for row in MATRICES[kind])  # type: ignore[return-value]


def lab(linear: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of a linear RGB colour."""
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def distance(a: RGB, b: RGB, kind: str) -> float:
    """CIE76 ΔE between two colours as seen with this kind of colour vision."""
    return math.dist(lab(simulate(a, kind)), lab(simulate(b, kind)))


def worst_pair(colors: list[RGB]) -> tuple[float, str]:
    """The smallest ΔE between any two of `colors` over every kind of colour vision, and that kind."""
    return min((distance(a, b, kind), kind) for kind in MATRICES for i, a in enumerate(colors) for b in colors[i + 1 :])
