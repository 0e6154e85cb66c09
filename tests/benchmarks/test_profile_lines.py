"""The line profiler's readers (benchmarks/profile_lines.py): the assembly's functions and
source lines, and numba's mangled names; perf itself is not run here."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "profile_lines.py"


def _module():
    spec = importlib.util.spec_from_file_location("profile_lines", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ASM = """\
\t.file\t"kernel"
\t.file\t1 "/src/solvers/slant" "state.py"
\t.file\t2 "/src/solvers" "fields.py"
\t.globl\t_ZN5slant5state9propagateB4v184E
_ZN5slant5state9propagateB4v184E:
\t.loc\t1 706 0
\tpushq\t%rbp
\tmovq\t(%rdi), %rax
.LBB0_1:
\t.loc\t2 230 4 prologue_end
\taddq\t$1, %rax
\t# a comment
\tretq
.Lfunc_end0:
\t.size\tx, .Lfunc_end0-x
_ZN5slant5state5resetB4v1E:
\t.loc\t1 240 0
\txorl\t%eax, %eax
.Lfunc_end1:
"""


def test_the_assembly_gives_each_instruction_its_function_and_line():
    found = _module().assembly_functions(ASM)
    assert found == {
        "_ZN5slant5state9propagateB4v184E": [
            ("pushq", "state.py:706"),
            ("movq", "state.py:706"),
            ("addq", "fields.py:230"),
            ("retq", "fields.py:230"),
        ],
        "_ZN5slant5state5resetB4v1E": [("xorl", "state.py:240")],
    }


def test_a_mangled_name_reads_as_its_function():
    short = _module()._short
    assert short("_ZN10boardsweep7solvers5slant5state9propagateB4v184B52c8tJTIeE22Borrowed") == (
        "propagate"
    )
    assert short("cfunc._ZN8__main__4partB2v1E5ArrayIxLi1E") == "part"
    assert short("NRT_decref") == "NRT_decref"
    assert short("_ZN10boardsweep7solvers6fields8_getitem12_3clocals_3e12_3clambda_3eB2v3") == (
        "<lambda>"
    )


def test_loading_it_changes_nothing_for_the_tests_after_it():
    # debug information and a fresh cache folder are switched on in main(), never on import:
    # in the environment they would reach every kernel the test session compiles after it
    watched = ("NUMBA_DEBUGINFO", "BOARDSWEEP_CACHE", "NUMBA_CACHE_DIR")
    before = {name: os.environ.get(name) for name in watched}, "numba" in sys.modules
    _module()
    assert ({name: os.environ.get(name) for name in watched}, "numba" in sys.modules) == before
