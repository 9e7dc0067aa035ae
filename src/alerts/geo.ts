// Whether a CAP area holds the unit's position (WGS 84 degrees): a polygon by ray casting on
// latitude/longitude (as CAP areas are drawn, small enough for a flat test, across the
// antimeridian too), a circle by the great-circle distance on a sphere of the mean Earth radius.
import type { CapArea, LatLon } from './cap-alert.js';

const EARTH_KM = 6371.0088;

/**
 * Ray casting on latitude/longitude. CAP draws each edge the short way, so an edge whose
 * longitudes differ by more than 180 degrees crosses the antimeridian: the longitudes are made
 * continuous first (a Bering Sea polygon from 170 E to 170 W spans 20 degrees, not 340), and
 * the point is tried where it falls in that range.
 */
export function inPolygon([lat, lon]: LatLon, poly: LatLon[]): boolean {
  const p = continuous(poly);
  return [lon, lon - 360, lon + 360].some((x) => rayCast(lat, x, p));
}

function continuous(poly: LatLon[]): LatLon[] {
  if (!poly.some(([, x], i) => i > 0 && Math.abs(x - poly[i - 1][1]) > 180)) return poly;
  let prev = poly[0][1];
  return poly.map(([y, x]) => {
    let v = x;
    while (v - prev > 180) v -= 360;
    while (prev - v > 180) v += 360;
    prev = v;
    return [y, v];
  });
}

function rayCast(lat: number, lon: number, poly: LatLon[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [yi, xi] = poly[i];
    const [yj, xj] = poly[j];
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function distanceKm([lat1, lon1]: LatLon, [lat2, lon2]: LatLon): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** True when the area contains `at` (polygon or circle) or names one of `geocodes`. */
export function areaHolds(
  area: CapArea,
  at: LatLon | undefined,
  geocodes: ReadonlyArray<{ valueName: string; value: string }>,
): boolean {
  if (area.geocodes.some((g) => geocodes.some((u) => u.valueName === g.valueName && u.value === g.value))) return true;
  if (!at) return false;
  return (
    area.polygons.some((p) => inPolygon(at, p)) || area.circles.some((c) => distanceKm(at, c.centre) <= c.radiusKm)
  );
}
