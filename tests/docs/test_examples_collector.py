"""The examples collector (tests/docs/mdexamples.py) on small pages of its own: what passes,
what must fail and how the failure reads, and how fences are found."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.docs import mdexamples
from tests.docs.mdexamples import ExampleError, matches

F = "```"  # a fence, so that this file's own text holds none


def make(root: Path, text: str, name: str = "docs/page.md") -> str:
    """Write a page (dedented, {F} standing for a fence) under ``root`` and return its name."""
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n").replace("{F}", F))
    return name


def run(root: Path, page: str, timeout: float = 60) -> dict:
    """Run the page as tests/docs/test_examples.py does, in a scratch folder under root."""
    folder = root / "scratch"
    if not folder.exists():
        mdexamples.prepare(ROOT, folder)
    return mdexamples.run_page(root, page, folder, timeout)


def fails(root: Path, page: str, *parts: str, timeout: float = 60) -> str:
    """Run the page, which must fail with a message holding each of ``parts``."""
    with pytest.raises(ExampleError) as info:
        run(root, page, timeout)
    message = str(info.value)
    for part in parts:
        assert part in message, message
    return message


# ------------------------------------------------------------------------------------ matching


def test_matching_lines_and_wildcards():
    """`...` alone matches any lines (none too); within a line, any text; trailing blanks."""
    assert matches(["a", "b"], ["a", "b"])
    assert not matches(["a", "b"], ["a", "c"])
    assert not matches(["a"], ["a", "b"])
    assert matches(["a", "...", "z"], ["a", "z"])
    assert matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert matches(["...", "z"], ["x", "z"]) and matches(["a", "..."], ["a"])
    assert not matches(["a", "...", "z"], ["a", "b"])
    assert matches(["a   "], ["a"])
    log = "2026-12-04T13:21:08 boardsweep INFO: queens: planned in 6.89 s"
    assert matches(["... boardsweep INFO: queens: planned in ... s"], [log])
    assert not matches(["... boardsweep INFO: mixed: planned in ... s"], [log])
    assert matches(["  ...", "end"], ["x", "y", "end"])  # an indented `...` line is one too


# ------------------------------------------------------------------------------------ console


def test_console_output_matches(tmp_path):
    """Commands run in order in one folder; output is stdout and stderr merged."""
    page = make(
        tmp_path,
        """
        # A page

        {F}console
        $ echo hello
        hello
        $ echo to-stderr >&2; echo after
        to-stderr
        after
        $ printf 'a\\nb\\nc\\nd\\n'
        a
        ...
        d
        $ echo "started at $(date +%s) in $(pwd)"
        started at ... in .../scratch
        {F}
        """,
    )
    assert run(tmp_path, page)["console"] == 1


def test_console_output_differs(tmp_path):
    """A wrong line fails, naming the page, the command's line, the command and a diff."""
    page = make(
        tmp_path,
        """
        Text.

        {F}console
        $ echo one
        one
        $ echo two; echo three
        two
        four
        {F}
        """,
    )
    message = fails(
        tmp_path,
        page,
        "docs/page.md:6",
        "$ echo two; echo three",
        "-four",
        "+three",
        "output differs",
    )
    assert "docs/page.md:4" not in message


def test_console_exit_status(tmp_path):
    """`[exit N]` expects status N; a status the page does not show fails, as does none."""
    page = make(
        tmp_path,
        """
        {F}console
        $ echo refused; exit 3
        refused
        [exit 3]
        $ false
        [exit 1]
        {F}
        """,
    )
    run(tmp_path, page)
    bad = make(tmp_path, "{F}console\n$ echo oops; exit 2\noops\n{F}\n", "docs/bad.md")
    fails(tmp_path, bad, "docs/bad.md:2", "exit status 2, the page expects 0", "oops")
    unmet = make(tmp_path, "{F}console\n$ true\n[exit 4]\n{F}\n", "docs/unmet.md")
    fails(tmp_path, unmet, "exit status 0, the page expects 4")


def test_console_block_without_output_checks_only_status(tmp_path):
    """A block that shows no output lines checks the exit status alone."""
    page = make(tmp_path, "{F}console\n$ echo whatever\n$ ls data\n{F}\n")
    run(tmp_path, page)
    failing = make(tmp_path, "{F}console\n$ echo whatever\n$ ls no-such-thing\n{F}\n", "docs/f.md")
    fails(tmp_path, failing, "docs/f.md:3", "$ ls no-such-thing", "exit status 2")


def test_console_state_carries_over_and_continuations(tmp_path):
    """`cd` and `export` carry over between commands and blocks; `\\` continues a command,
    its next line maybe prompted with `> `; the folder starts with config.yaml and data/."""
    page = make(
        tmp_path,
        """
        {F}console
        $ ls
        config.yaml
        data
        $ mkdir sub && cd sub
        $ export GREETING=hi
        {F}

        {F}console
        $ pwd
        .../scratch/sub
        $ echo $GREETING \\
        >   there
        hi there
        {F}
        """,
    )
    run(tmp_path, page)


def test_console_environment(tmp_path):
    """NO_COLOR is set and `boardsweep` and `python` are this install's."""
    page = make(
        tmp_path,
        """
        {F}console
        $ echo "$NO_COLOR"
        1
        $ python -c "import sys; print(sys.prefix == '%s')"
        True
        $ boardsweep --version
        boardsweep, version ...
        {F}
        """.replace("%s", __import__("sys").prefix),
    )
    run(tmp_path, page)


def test_console_timeout(tmp_path):
    """A command that does not finish is killed, with a clear failure."""
    page = make(tmp_path, "{F}console\n$ echo started; sleep 30\nstarted\n{F}\n")
    fails(tmp_path, page, "did not finish in 1 s", "$ echo started; sleep 30", timeout=1)


# ------------------------------------------------------------------------------------ files


def test_file_blocks_are_written_for_later_blocks(tmp_path):
    """`<!-- file: NAME -->` writes the block (any language) into the page's folder; a
    boardsweep command then uses it."""
    page = make(
        tmp_path,
        """
        <!-- file: tiny.yaml -->
        {F}yaml
        output: results
        jobs:
          - {name: q, problem: nqueens, n: "4..6"}
        {F}

        <!-- file: notes/readme.txt -->

        {F}text
        plain data
        {F}

        {F}console
        $ cat notes/readme.txt
        plain data
        $ boardsweep plan tiny.yaml
        ...
        plan for ... workers, target task length ... s
        job ... table ... points ...
        q ... counts ... 3 ...
        {F}
        """,
    )
    assert run(tmp_path, page) == {
        **dict.fromkeys(["console", "python", "pycon", "yaml"], 0),
        "console": 1,
        "file": 2,
        "elsewhere": 0,
    }


def test_whole_config_is_validated(tmp_path):
    """A yaml block with no file comment is a config: planned, relative to the folder."""
    good = make(
        tmp_path,
        """
        {F}yaml
        output: results
        jobs:
          - {name: q, problem: nqueens, n: "1..8"}
          - {name: r, problem: max_rooks, boards: {ingest: data/max_rooks_sample.txt}}
        {F}
        """,
    )
    assert run(tmp_path, good)["yaml"] == 1
    bad = make(
        tmp_path,
        """
        Intro.

        {F}yaml
        jobs:
          - {name: q, problem: nqueens, n: "1..x"}
        {F}
        """,
        "docs/bad.md",
    )
    fails(tmp_path, bad, "docs/bad.md:3", "not a valid boardsweep config", "'1..x'")
    fragment = make(tmp_path, "{F}yaml\n- {name: q, problem: nqueens}\n{F}\n", "docs/frag.md")
    fails(tmp_path, fragment, "a config is a mapping")


# ------------------------------------------------------------------------------------ python


def test_python_and_pycon_share_a_namespace(tmp_path):
    """python and pycon blocks run in page order in one namespace, in the page's folder."""
    page = make(
        tmp_path,
        """
        {F}python
        import os
        x = 40
        here = os.getcwd()
        {F}

        {F}pycon
        >>> x + 2
        42
        >>> y = [1, 2]
        >>> print(list(range(30)))
        [0, 1, 2, ..., 29]
        >>> os.path.basename(here)
        'scratch'
        {F}

        {F}python
        assert y == [1, 2]
        print("printed output is not checked")
        {F}

        {F}pycon
        >>> import boardsweep
        >>> boardsweep.count("nqueens", n=8)
        92
        {F}
        """,
    )
    counts = run(tmp_path, page)
    assert (counts["python"], counts["pycon"]) == (2, 2)


def test_python_failures_name_the_line(tmp_path):
    """An exception in a python block fails with the page's line in its traceback; a pycon
    block that prints something else fails with doctest's report."""
    page = make(
        tmp_path,
        """
        {F}python
        a = 1
        b = a / 0
        {F}
        """,
    )
    fails(
        tmp_path,
        page,
        "docs/page.md:1",
        "python block failed",
        "ZeroDivisionError",
        'page.md", line 3',
        "b = a / 0",
    )
    pycon = make(tmp_path, "Text.\n\n{F}pycon\n>>> 1 + 1\n3\n{F}\n", "docs/pycon.md")
    fails(tmp_path, pycon, "docs/pycon.md:3", "Expected:", "3", "Got:", "2", "line 4")


def test_python_block_that_exits_fails(tmp_path):
    """A block that raises SystemExit fails rather than ending the namespace silently."""
    page = make(tmp_path, "{F}python\nimport sys\nsys.exit(3)\n{F}\n")
    fails(tmp_path, page, "SystemExit: 3")


# ------------------------------------------------------------------------------------ elsewhere


def test_run_elsewhere_is_verified(tmp_path):
    """A run-elsewhere block runs not here, but its test must exist and name the page."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_batch.py").write_text('PAGE = DOCS / "page.md"\n')
    (tmp_path / "tests" / "test_other.py").write_text("nothing here\n")
    page = make(
        tmp_path,
        """
        <!-- run elsewhere: tests/test_batch.py -->
        {F}bash
        #!/bin/bash
        sbatch whatever
        {F}
        """,
    )
    assert run(tmp_path, page)["elsewhere"] == 1
    unread = make(
        tmp_path,
        "<!-- run elsewhere: tests/test_other.py -->\n{F}bash\nexit 1\n{F}\n",
        "docs/unread.md",
    )
    fails(tmp_path, unread, "docs/unread.md:2", "does not read docs/unread.md")
    missing = make(
        tmp_path,
        "<!-- run elsewhere: tests/test_gone.py -->\n{F}bash\nexit 1\n{F}\n",
        "docs/missing.md",
    )
    fails(tmp_path, missing, "tests/test_gone.py is not a file")


# ------------------------------------------------------------------------------------ fences


def test_blocks_that_say_not_what_they_are_fail(tmp_path):
    """No language, an unknown language with no file comment, an indented code block, a
    misplaced or malformed annotation: each is reported, all at once, before anything runs."""
    page = make(
        tmp_path,
        """
        {F}
        what is this?
        {F}

        {F}bash
        echo hi
        {F}

        Paragraph.

            indented code

        <!-- file: x.txt -->
        Not a block.

        <!-- file x.txt -->
        {F}text
        t
        {F}

        {F}console
        no prompt
        {F}
        """,
    )
    message = fails(
        tmp_path,
        page,
        "7 block(s)",
        "docs/page.md:1: code block with no language",
        "docs/page.md:5: code block in 'bash'",
        "docs/page.md:11: indented code",
        "docs/page.md:13: <!-- file: ... --> is not directly followed",
        "docs/page.md:16: malformed annotation",
    )
    assert "docs/page.md:17: code block in 'text'" in message  # its file comment is malformed
    assert "docs/page.md:21: console block line 'no prompt' is not a `$ ` command" in message


def test_fence_forms(tmp_path):
    """~~~ fences, a longer fence holding a shorter, a fence in a list item (indented) and in
    a blockquote are found; fences in HTML comments and directives other than Markdown
    containers are not examples; a code-block directive is a fence of its language."""
    page = make(
        tmp_path,
        """
        ~~~console
        $ echo tilde
        tilde
        ~~~

        <!-- file: nested.md -->
        ````markdown
        {F}console
        $ this is not run
        {F}
        ````

        1. A step:

           {F}console
           $ echo listed
           listed
           {F}

        > {F}console
        > $ echo quoted
        > quoted
        > {F}

        <!--
        {F}console
        $ exit 9
        {F}
        -->

        {F}{toctree}
        jobs
        {F}

        {F}{eval-rst}
        .. code-block:: console

           $ exit 9
        {F}

        {F}{literalinclude} ../config.yaml
        :language: yaml
        {F}

        ````{note}
        An admonition holds Markdown:

        {F}console
        $ echo noted
        noted
        {F}
        ````

        {F}{code-block} console
        :caption: a directive
        $ echo directive
        directive
        {F}
        """,
    )
    counts = run(tmp_path, page)
    assert (counts["console"], counts["file"]) == (5, 1)
    assert (tmp_path / "scratch" / "nested.md").read_text().startswith(F + "console\n")
    blocks = mdexamples.collect(tmp_path, page)
    assert [b.line for b in blocks] == [1, 7, 15, 20, 48, 54]
    assert [b.first for b in blocks][-2:] == [49, 56]  # the note's; the code-block's options


def test_includes_run_in_the_including_page(tmp_path):
    """A docs/ page that another includes runs there, at the include, in its folder; its
    failures name its own lines and the include; pages() leaves it out as a page."""
    make(tmp_path, "# R\n", "README.md")
    make(
        tmp_path,
        """
        Part.

        {F}console
        $ cat made-by-main
        main
        {F}
        """,
        "docs/_parts/part.md",
    )
    page = make(
        tmp_path,
        """
        {F}console
        $ echo main > made-by-main
        {F}

        {F}{include} _parts/part.md
        {F}
        """,
        "docs/main.md",
    )
    assert run(tmp_path, page)["console"] == 2
    assert mdexamples.pages(tmp_path) == ["README.md", "docs/main.md"]
    (tmp_path / "docs" / "_parts" / "part.md").write_text(
        f"Part.\n\n{F}console\n$ cat made-by-main\nother\n{F}\n"
    )
    (tmp_path / "scratch" / "made-by-main").unlink()
    fails(tmp_path, page, "docs/_parts/part.md:4 (included from docs/main.md:5)", "-other")


def test_pages_found(tmp_path):
    """README.md and docs/**/*.md, less docs/_build, hidden folders and what the benchmarks
    write, which a page may include as data (its bare fences are no examples)."""
    make(tmp_path, "# R\n", "README.md")
    make(tmp_path, "# A\n\n{F}{include} figures/speed.md\n{F}\n", "docs/a.md")
    make(tmp_path, "# B\n", "docs/sub/b.md")
    make(tmp_path, "# Built\n", "docs/_build/html/_sources/a.md")
    make(tmp_path, "# Hidden\n", "docs/.cache/x.md")
    make(tmp_path, "{F}\nmachine: 2 cores\n{F}\n", "docs/figures/speed.md")
    assert mdexamples.pages(tmp_path) == ["README.md", "docs/a.md", "docs/sub/b.md"]
    assert mdexamples.collect(tmp_path, "docs/a.md") == []


def test_the_sample_page_of_docs_examples_follows_the_conventions(tmp_path):
    """docs/examples.md shows a page's source (written as its file block sample.md): those
    blocks are what they say they are."""
    blocks = mdexamples.collect(ROOT, "docs/examples.md")
    sample = next(b for b in blocks if b.name == "sample.md")
    make(tmp_path, sample.text, "docs/sample.md")
    kinds = [(b.lang, b.name) for b in mdexamples.collect(tmp_path, "docs/sample.md")]
    assert kinds == [("console", None), ("yaml", "tiny.yaml"), ("console", None), ("pycon", None)]


def test_colon_fences_hold_markdown(tmp_path):
    """A MyST colon fence (:::{note}) is Markdown to the collector: its code blocks run."""
    page = make(tmp_path, ":::{note}\nSee:\n\n{F}console\n$ echo in-note\nin-note\n{F}\n:::\n")
    assert [b.line for b in mdexamples.collect(tmp_path, page)] == [4]
    assert run(tmp_path, page)["console"] == 1
