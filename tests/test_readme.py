"""The README's examples run as shown."""

import doctest
import os

from micropython import ROOT


def test_readme_examples():
    with open(os.path.join(ROOT, "README.md")) as handle:
        # Code fences end an example's expected output.
        text = "\n".join("" if line.startswith("```") else line for line in handle.read().split("\n"))
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 10
    assert result.failed == 0
