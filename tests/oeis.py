"""Published sequences the tests check counts against (OEIS), typed once."""

# A000170: Q(n), the placements of n non-attacking queens on an n x n board, n = 1, 2, ...
A000170 = (
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2680,
    14200,
    73712,
    365596,
    2279184,
    14772512,
    95815104,
    666090624,
)
