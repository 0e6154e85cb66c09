/* nqueens_mirror.c -- the plain baseline that the N-queens benchmarks measure against.
 *
 * Counts Q(n), the placements of n non-attacking queens on an n x n board, with the ordinary
 * bitboard search: row by row, `cols`, `ld`, `rd` hold the columns and the two diagonals
 * attacked in the current row, `avail = ~(cols | ld | rd) & mask`, `bit = avail & -avail`.
 * Only the left-right mirror is used: the first row's queen takes the left half of the columns
 * (and the count is doubled), plus the middle column for odd n.
 *
 * The timed build keeps nothing but the count, in locals returned up the recursion, so the
 * baseline pays for no bookkeeping the plain counter would not have.  Built with -DCOUNT_NODES
 * it also counts nodes (queens placed, first row included) into a global.
 *
 * Usage: nqueens_mirror N      (1 <= N <= 32)   prints "N Q(N) nodes" (nodes 0 unless counted).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t mask, nodes;
static int n;

static uint64_t solve(int row, uint64_t ld, uint64_t cols, uint64_t rd)
{
    if (row == n)
        return 1;
    uint64_t found = 0;
    uint64_t avail = ~(ld | cols | rd) & mask;
    while (avail) {
        uint64_t bit = avail & -avail;
        avail ^= bit;
#ifdef COUNT_NODES
        nodes++;
#endif
        found += solve(row + 1, (ld | bit) << 1, cols | bit, (rd | bit) >> 1);
    }
    return found;
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
#ifdef COUNT_NODES
        nodes++;
#endif
        total += 2 * solve(1, bit << 1, bit, bit >> 1);
    }
    if (n % 2 == 1) {                           /* middle column, once */
        uint64_t bit = 1ULL << (n / 2);
#ifdef COUNT_NODES
        nodes++;
#endif
        total += solve(1, bit << 1, bit, bit >> 1);
    }
    printf("%d %llu %llu\n", n, (unsigned long long)total, (unsigned long long)nodes);
    return 0;
}
