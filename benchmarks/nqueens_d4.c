/* Q(n) and U(n) by a search that uses the 8 symmetries of the square, in C: the D4 baseline of
 * benchmarks/nqueens_peers.py, written here in the algorithm class of takaken's counter.
 *
 * It walks the same tree as boardsweep's kernel (solvers/nqueens/kernel.py and symmetry.py):
 *  - corner part: row 0 holds column 0, row 1 column b1 (2 <= b1 <= n-2), rows < b1 may not
 *    use column 1; every leaf is a class of 8;
 *  - side part: row 0 holds column b1 (1 <= b1 <= (n-2)/2, b2 = n-1-b1); rows < b1 may not use
 *    columns 0 and n-1, both are taken by the end of row b2, the last row's queen lies in
 *    columns b1..b2; a leaf counts when no rotation of it is lexicographically smaller, and
 *    adds 2, 4 or 8 as it equals its quarter turn, its half turn, or neither.
 * Plain recursion, bitboards, dead children visited like any other; nodes counts the queens
 * placed, so both programs report the same nodes and their nodes/s compare the code alone.
 *
 * Usage: nqueens_d4 N      prints "N Q(N) U(N) nodes"       (1 <= N <= 32)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int n, last, b1, b2;
static uint64_t full, side, row_mask[64];
static uint64_t board[64];
static long long count, classes, nodes;

static int column(uint64_t bit) { return __builtin_ctzll(bit); }

/* sign of (R - S), R = the board turned k quarter turns clockwise, S = the board */
static int compare_turn(int k)
{
    int row_of[64];
    for (int r = 0; r < n; r++)
        row_of[column(board[r])] = r;
    for (int i = 0; i < n; i++) {
        uint64_t v;
        if (k == 1)
            v = 1ULL << (last - row_of[i]);
        else if (k == 2)
            v = (1ULL << last) >> column(board[last - i]);
        else
            v = 1ULL << row_of[last - i];
        if (v != board[i])
            return v < board[i] ? -1 : 1;
    }
    return 0;
}

/* what a side leaf adds: 0 (not its class's representative), 2, 4 or 8 */
static int class_size(void)
{
    int c;
    if (board[b2] == 1) {
        c = compare_turn(1);
        if (c < 0) return 0;
        if (c == 0) return 2;
    }
    if (board[last] == 1ULL << b2) {
        c = compare_turn(2);
        if (c < 0) return 0;
        if (c == 0) return 4;
    }
    if (board[b1] == 1ULL << last && compare_turn(3) < 0)
        return 0;
    return 8;
}

static void corner(int row, uint64_t ld, uint64_t cd, uint64_t rd)
{
    if (row == n) {
        count += 8;
        classes += 1;
        return;
    }
    uint64_t avail = ~(ld | cd | rd) & row_mask[row];
    while (avail) {
        uint64_t bit = avail & -avail;
        avail ^= bit;
        nodes++;
        corner(row + 1, (ld | bit) << 1, cd | bit, (rd | bit) >> 1);
    }
}

static void sided(int row, uint64_t ld, uint64_t cd, uint64_t rd)
{
    if (row == n) {
        int size = class_size();
        count += size;
        classes += size != 0;
        return;
    }
    uint64_t avail = ~(ld | cd | rd) & row_mask[row];
    if (row == b2 && (cd & side) != side)
        avail = (cd & side) ? avail & side : 0;
    while (avail) {
        uint64_t bit = avail & -avail;
        avail ^= bit;
        nodes++;
        board[row] = bit;
        sided(row + 1, (ld | bit) << 1, cd | bit, (rd | bit) >> 1);
    }
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atoi(argv[1]) : 0;
    if (n < 1 || n > 32) {
        fprintf(stderr, "usage: %s N (1 <= N <= 32)\n", argv[0]);
        return 2;
    }
    last = n - 1;
    full = (1ULL << n) - 1;
    side = 1ULL | (1ULL << last);
    if (n == 1) {
        printf("1 1 1 1\n");
        return 0;
    }
    if (n >= 4) {
        nodes++; /* the corner queen */
        for (b1 = 2; b1 <= n - 2; b1++) {
            for (int r = 0; r < 64; r++)
                row_mask[r] = r < b1 ? full & ~2ULL : full;
            uint64_t bit = 1ULL << b1;
            nodes++;
            corner(2, (2 | bit) << 1, 1 | bit, bit >> 1);
        }
    }
    for (b1 = 1; b1 <= (n - 2) / 2; b1++) {
        b2 = last - b1;
        uint64_t lastmask = 0;
        for (int k = 0; k < b1; k++)
            lastmask |= (1ULL << k) | (1ULL << (last - k));
        for (int r = 0; r < 64; r++)
            row_mask[r] = r < b1 ? full & ~side : full;
        row_mask[last] = full & ~lastmask;
        uint64_t bit = 1ULL << b1;
        board[0] = bit;
        nodes++;
        sided(1, bit << 1, bit, bit >> 1);
    }
    printf("%d %lld %lld %lld\n", n, count, classes, nodes);
    return 0;
}
