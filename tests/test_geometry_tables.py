"""The move tables have one type on every interpreter (rays: ranges; the directions of a mask:
memoryview slices), so that the tests walk the tables a board walks."""

from micropython import run_micropython
from rolit_core.geometry import DIRECTIONS_OF, Geometry

KINDS = r"""
from rolit_core.geometry import DIRECTIONS_OF, Geometry
kinds = set()
for size in (8, 6, 4):
    for lines in Geometry(size).rays:
        for ray in lines:
            kinds.add("ray " + type(ray).__name__)
for directions in DIRECTIONS_OF:
    kinds.add("directions " + type(directions).__name__)
print(" ".join(sorted(kinds)))
"""


def kinds_here():
    kinds = set()
    for size in (8, 6, 4):
        for lines in Geometry(size).rays:
            kinds.update("ray " + type(ray).__name__ for ray in lines)
    kinds.update("directions " + type(d).__name__ for d in DIRECTIONS_OF)
    return " ".join(sorted(kinds))


def test_the_tables_have_one_type_on_cpython_and_under_micropython():
    assert kinds_here() == "directions memoryview ray range"
    assert run_micropython(KINDS).strip() == kinds_here()


def test_the_rays_are_the_cells_to_the_edge_nearest_first():
    geometry = Geometry(8)
    assert list(geometry.rays[0][7]) == [9, 18, 27, 36, 45, 54, 63]  # a1 down-right to h8
    assert list(geometry.rays[63][0]) == [54, 45, 36, 27, 18, 9, 0]
    assert list(geometry.rays[0][0]) == [] and not geometry.onboard[0] & 1
    assert list(DIRECTIONS_OF[0b10100001]) == [0, 5, 7]
