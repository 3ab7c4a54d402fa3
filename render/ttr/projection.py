"""From latitude and longitude to board pixels: a Lambert conformal conic fitted to the map's frame.

A conic keeps the shapes people know from school atlases (the curved Canadian border, Scandinavia leaning
east), which an equirectangular projection flattens.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Conic:
    """A Lambert conformal conic projection with its fit: `project` gives pixels in the board's frame."""

    lon0: float
    n: float
    f: float
    rho0: float
    scale: float = 1.0
    dx: float = 0.0
    dy: float = 0.0

    def raw(self, lat: float, lon: float) -> Point:
        """Project to unscaled plane coordinates, y growing downwards."""
        rho = self.f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** self.n
        theta = self.n * math.radians(lon - self.lon0)
        return rho * math.sin(theta), -(self.rho0 - rho * math.cos(theta))

    def project(self, lat: float, lon: float) -> Point:
        """Project to board pixels."""
        x, y = self.raw(lat, lon)
        return x * self.scale + self.dx, y * self.scale + self.dy


def conic_for(lats: Iterable[float], lons: Iterable[float]) -> Conic:
    """Choose a conic whose standard parallels sit at 1/6 and 5/6 of the latitudes spanned (the usual rule)."""
    lat_list, lon_list = list(lats), list(lons)
    south, north = min(lat_list), max(lat_list)
    phi1 = math.radians(south + (north - south) / 6)
    phi2 = math.radians(north - (north - south) / 6)
    n = math.log(math.cos(phi1) / math.cos(phi2)) / math.log(
        math.tan(math.pi / 4 + phi2 / 2) / math.tan(math.pi / 4 + phi1 / 2)
    )
    f = math.cos(phi1) * math.tan(math.pi / 4 + phi1 / 2) ** n / n
    phi0 = math.radians((south + north) / 2)
    rho0 = f / math.tan(math.pi / 4 + phi0 / 2) ** n
    return Conic(lon0=(min(lon_list) + max(lon_list)) / 2, n=n, f=f, rho0=rho0)


def fit(conic: Conic, points: Iterable[tuple[float, float]], box: tuple[float, float, float, float]) -> Conic:
    """Scale and shift `conic` so the (lat, lon) points fill the pixel box (x0, y0, x1, y1), centred."""
    raw = [conic.raw(lat, lon) for lat, lon in points]
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]
    x0, y0, x1, y1 = box
    scale = min((x1 - x0) / (max(xs) - min(xs)), (y1 - y0) / (max(ys) - min(ys)))
    dx = x0 + ((x1 - x0) - (max(xs) - min(xs)) * scale) / 2 - min(xs) * scale
    dy = y0 + ((y1 - y0) - (max(ys) - min(ys)) * scale) / 2 - min(ys) * scale
    return Conic(lon0=conic.lon0, n=conic.n, f=conic.f, rho0=conic.rho0, scale=scale, dx=dx, dy=dy)
