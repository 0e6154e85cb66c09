/* nqueens_mirror.c -- the plain baseline that benchmarks/nqueens_kernel.py measures against.
 *
 * Counts Q(n), the placements of n non-attacking queens on an n x n board, with the ordinary
 * bitboard search: row by row, `cols`, `ld`, `rd` hold the columns and the two diagonals
 * attacked in the current row, `avail = ~(cols | ld | rd) & mask`, `bit = avail & -avail`.
 * Only the left-right mirror is used: the first row's queen takes the left half of the columns
 * (and the count is doubled), plus the middle column for odd n.
 *
 * nodes = queens placed (one per loop iteration, first row included).
 *
 * Usage: nqueens_mirror N      (1 <= N <= 32)   prints "N Q(N) nodes".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t mask, count, nodes;
static int n;

static void solve(int row, uint64_t ld, uint64_t cols, uint64_t rd)
{
    if (row == n) {
        count++;
        return;
    }
    uint64_t avail = ~(ld | cols | rd) & mask;
    while (avail) {
        uint64_t bit = avail & -avail;
        avail ^= bit;
        nodes++;
        solve(row + 1, (ld | bit) << 1, cols | bit, (rd | bit) >> 1);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2 || (n = atoi(argv[1])) < 1 || n > 32) {
        fprintf(stderr, "usage: %s N   (1 <= N <= 32)\n", argv[0]);
        return 2;
    }
    mask = (1ULL << n) - 1;
    uint64_t total = 0;
    for (int c = 0; c < n / 2; c++) {          /* left half, doubled */
        uint64_t bit = 1ULL << c;
        count = 0;
        nodes++;
        solve(1, bit << 1, bit, bit >> 1);
        total += 2 * count;
    }
    if (n % 2 == 1) {                           /* middle column, once */
        uint64_t bit = 1ULL << (n / 2);
        count = 0;
        nodes++;
        solve(1, bit << 1, bit, bit >> 1);
        total += count;
    }
    printf("%d %llu %llu\n", n, (unsigned long long)total, (unsigned long long)nodes);
    return 0;
}
