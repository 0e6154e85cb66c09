"""Where a compiled kernel spends its time, by source line: perf samples of a numba kernel
mapped to the lines of its Python source.

    python benchmarks/profile_lines.py slant [--set 5e] [--work DIR] [--seconds 8]
    python benchmarks/profile_lines.py queens_rooks [--n 12] [--seconds 8]

Needs Linux ``perf`` (allowed to record its own process: ``kernel.perf_event_paranoid`` at
most 1, or root) and ``objdump``.  The kernels are compiled afresh with numba's debug
information (``NUMBA_DEBUGINFO=1``, into a temporary ``BOARDSWEEP_CACHE``: the package points
numba's cache there, so ``NUMBA_CACHE_DIR`` alone would load the cached code, which has no
assembly to read).  Then ``perf record`` samples this process while the kernel runs in a
loop.  perf cannot name JIT code, so each function of the entry point's compiled library is
found by name (its address in memory), its bytes are read from ``/proc/self/mem`` and
disassembled, and the instructions are aligned, by mnemonic, with the assembly numba prints
for the library (``inspect_asm``), whose ``.loc`` lines give each instruction's source line.
The alignment is exact where the code in memory was compiled from that assembly, and close
where a function came from another library's copy; the share of instructions aligned is
printed with each function.

Printed: the share of all samples per function and per source line (inlined helpers keep
their own lines).  Not a benchmark: it writes no results file, and the shares are for
finding where to look, not figures for the manual.  Slant sets are ``slant_ab.py``'s
(``5e``: Simon Tatham's 5 x 5 Easy puzzles cached in ``--work`` by ``slant_tatham.py``;
``100``; ``g<n>x<count>s<seed>``).
"""

from __future__ import annotations

import argparse
import collections
import difflib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
PADDING = ("nop", "data16", "cs", "xchg")  # alignment filler objdump shows as instructions


def slant_target(args):
    """Slant's ``solve_range`` over one set: (its dispatcher, a call that runs it once)."""
    from slant_ab import load

    from boardsweep.solvers import slant
    from boardsweep.solvers.slant import kernel

    run = slant._Run(load(args.set, args.work), slant.CHECK)  # private: the frame and block
    count = run.count
    return kernel.solve_range, lambda: kernel.solve_range(run.frame, run.block, 0, count)


def queens_rooks_target(args):
    """The row kernel's histograms over row ``n``'s first symmetry item."""
    from boardsweep.solvers.queens_rooks import kernel, symmetry

    fixed = symmetry.items(args.n, np.zeros((1, 0), np.int16))[0]
    n = args.n
    return kernel._histograms, lambda: kernel._histograms(n, fixed, False, n, n)


TARGETS = {"slant": slant_target, "queens_rooks": queens_rooks_target}


def sampled(run, seconds: float, scratch: Path) -> list[tuple[float, int]]:
    """(share of samples in %, address) of every sampled address while ``run`` loops."""
    data = scratch / "perf.data"
    perf = subprocess.Popen(["perf", "record", "-q", "-o", str(data), "-p", str(os.getpid())])
    time.sleep(1)  # perf attaches
    start = time.time()
    while time.time() - start < seconds:
        run()
    perf.send_signal(signal.SIGINT)
    perf.wait()  # its status says it was interrupted; what it wrote says whether it worked
    if not data.is_file():
        sys.exit("perf record wrote nothing: is kernel.perf_event_paranoid at most 1?")
    report = subprocess.run(
        ["perf", "report", "-i", str(data), "--stdio", "--sort", "sym"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [
        (float(m.group(1)), int(m.group(2), 16))
        for m in re.finditer(r"^\s+([\d.]+)%.*\[\.\] 0x([0-9a-f]+)\s*$", report, re.M)
    ]


def assembly_functions(asm: str) -> dict[str, list[tuple[str, str]]]:
    """Per function of a library's assembly: its instructions as (mnemonic, file:line)."""
    files = {}
    for number, rest in re.findall(r"^\s*\.file\s+(\d+)\s+(.*)$", asm, re.M):
        quoted = re.findall(r'"([^"]*)"', rest)
        files[number] = quoted[-1] if quoted else rest
    functions: dict[str, list[tuple[str, str]]] = {}
    body: list[tuple[str, str]] | None = None
    where = "?"
    for line in asm.splitlines():
        text = line.strip()
        label = re.fullmatch(r"([A-Za-z_][\w.$]*):", text)
        if label and not text.startswith(".L"):
            body = functions.setdefault(label.group(1), [])
            where = "?"
        elif text.startswith(".Lfunc_end"):
            body = None
        elif body is None or not text or text.startswith(("#", ".L")) or text.endswith(":"):
            continue
        elif text.startswith(".loc"):
            parts = text.split()
            where = f"{Path(files.get(parts[1], parts[1])).name}:{parts[2]}"
        elif not text.startswith("."):
            body.append((text.split()[0], where))
    return {name: body for name, body in functions.items() if body}


def disassembled(address: int, length: int, scratch: Path) -> list[tuple[int, str]]:
    """(address, mnemonic) of the machine code at ``address`` in this process, padding left
    out."""
    with open("/proc/self/mem", "rb") as memory:
        memory.seek(address)
        (scratch / "code.bin").write_bytes(memory.read(length))
    listing = subprocess.run(
        ["objdump", "-D", "--insn-width=16", "-b", "binary", "-m", "i386:x86-64"]
        + [f"--adjust-vma={address}", str(scratch / "code.bin")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = re.findall(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(\S+)", listing, re.M)
    return [(int(at, 16), name) for at, name in found if not name.startswith(PADDING)]


def line_map(dispatcher, scratch: Path) -> tuple[dict[int, tuple[str, str]], dict[str, str]]:
    """Address -> (function, file:line) over the dispatcher's library, and per function how
    well its code in memory aligned with the printed assembly."""
    signature = dispatcher.signatures[0]
    library = dispatcher.overloads[signature].library
    where: dict[int, tuple[str, str]] = {}
    notes: dict[str, str] = {}
    for name, body in assembly_functions(dispatcher.inspect_asm(signature)).items():
        try:
            address = library.get_pointer_to_function(name)
        except Exception:  # a declaration, or a symbol the engine does not export
            continue
        if not address:
            continue
        code = disassembled(address, 16 * len(body) + 64, scratch)[: len(body) * 5 // 4]
        match = difflib.SequenceMatcher(
            None, [m[:3] for _, m in code], [m[:3] for m, _ in body], autojunk=False
        )
        target = [None] * len(code)
        aligned = 0
        for block in match.get_matching_blocks():
            for k in range(block.size):
                target[block.a + k] = block.b + k
            aligned += block.size
        last = 0
        short = _short(name)
        for k, (at, _) in enumerate(code):
            last = target[k] if target[k] is not None else last  # an unaligned one: as before
            where[at] = (short, body[last][1])
        notes[short] = f"{aligned} of {len(body)} instructions aligned"
    return where, notes


def _short(symbol: str) -> str:
    """A mangled numba name's function part (``_ZN...5state9propagateB4...``: ``propagate``)."""
    at = symbol.find("_ZN")
    rest, name = symbol[at + 3 :], symbol[:40]
    while at >= 0 and rest[:1].isdigit():
        digits = re.match(r"\d+", rest).group()
        size = int(digits)
        name, rest = rest[len(digits) : len(digits) + size], rest[len(digits) + size :]
    return name.replace("_3c", "<").replace("_3e", ">")  # numba's escapes of <locals>


def release_code_with_lines() -> None:
    """Compile the code numba compiles without debug information, with its line tables.

    Full debug information would profile another program: numba then marks every function
    ``noinline`` (the field accessors became calls, two fifths of Slant's samples), checks
    every array index and keeps every variable alive to its scope's end.  (Its
    ``dbg_directives_only``, line tables alone, fails an assertion in LLVM's DWARF writer.)"""
    from numba.core.cpu import CPUTargetOptions
    from numba.core.lowering import BaseLower

    finalize = CPUTargetOptions.finalize
    pre_lower = BaseLower.pre_lower

    def release_flags(self, flags, options):
        finalize(self, flags, options)
        flags.boundscheck = False
        flags.dbg_extend_lifetimes = False

    def inlinable(self):
        pre_lower(self)
        self.builder.function.attributes.discard("noinline")

    CPUTargetOptions.finalize = release_flags
    BaseLower.pre_lower = inlinable


def main() -> None:
    """Profile the named kernel and print the shares per function and per line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=sorted(TARGETS))
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--set", default="5e", help="Slant: a set of slant_ab.py")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "tatham")
    parser.add_argument("--n", type=int, default=12, help="queens_rooks: the row")
    parser.add_argument("--lines", type=int, default=40, help="how many lines to print")
    args = parser.parse_args()
    if "numba" in sys.modules:
        sys.exit("numba was imported before its debug information could be switched on")
    os.environ["NUMBA_DEBUGINFO"] = "1"  # numba reads it once, when it is imported
    # numba warns, per call site, that the field accessors fields.py makes have no source
    warnings.filterwarnings("ignore", message="Could not find source for function")
    release_code_with_lines()
    sys.path.insert(0, str(HERE))
    with tempfile.TemporaryDirectory(prefix="profile-lines-") as folder:
        scratch = Path(folder)
        os.environ["BOARDSWEEP_CACHE"] = str(scratch / "cache")  # compiled afresh, then gone
        dispatcher, run = TARGETS[args.target](args)
        run()  # compile (with debug information: the cache folder is new)
        samples = sampled(run, args.seconds, scratch)
        where, notes = line_map(dispatcher, scratch)
    by_function: collections.Counter = collections.Counter()
    by_line: collections.Counter = collections.Counter()
    for share, address in samples:
        function, line = where.get(address, ("(outside the library)", ""))
        by_function[function] += share
        by_line[(function, line)] += share
    print(f"{sum(s for s, _ in samples):.1f}% of samples in code perf could not name (JIT)")
    print("\nshare  function  (its code in memory against the assembly)")
    for function, share in by_function.most_common():
        print(f"{share:5.1f}%  {function}  ({notes.get(function, 'not listed')})")
    print("\nshare  function  file:line")
    for (function, line), share in by_line.most_common(args.lines):
        print(f"{share:5.2f}%  {function}  {line}")


if __name__ == "__main__":
    main()
