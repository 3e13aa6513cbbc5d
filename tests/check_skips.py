#!/usr/bin/env python3
"""Fails a test run in which a test was skipped that may not be: a missing prerequisite (Node, the oracle's npm
packages, the example exports, a Vulkan driver, the validation layer) turns a test into a skip, which CTest counts as
passed. The tests that may be skipped, and why, are listed in expected_skips.txt.

    python3 check_skips.py JUNIT.xml KIND expected_skips.txt

JUNIT.xml: what `ctest --output-junit` wrote. KIND: the build (unit, asan or fuzz); a line of the list holds for its
kind or for `any`. SPINEGPU_ALLOW_SKIPS=1 prints the unexpected skips without failing (for a machine known to lack
something)."""
import os
import sys
import xml.etree.ElementTree as ElementTree


def expected_skips(path, kind):
    """The test names that build `kind` may skip."""
    names = set()
    with open(path, encoding="utf-8") as listing:
        for number, line in enumerate(listing, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split(None, 2)
            if len(fields) < 3 or fields[0] not in ("any", "unit", "asan", "fuzz"):
                sys.exit(f"{path}:{number}: expected KIND NAME REASON, KIND one of any, unit, asan, fuzz")
            if fields[0] in ("any", kind):
                names.add(fields[1])
    return names


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    junit, kind, listing = sys.argv[1:]
    try:
        root = ElementTree.parse(junit).getroot()
    except (OSError, ElementTree.ParseError) as error:
        sys.exit(f"check_skips: cannot read {junit}: {error}")
    cases = root.iter("testcase")
    skipped = sorted(c.get("name", "?") for c in cases if c.get("status") == "notrun" or c.find("skipped") is not None)
    allowed = expected_skips(listing, kind)
    unexpected = [name for name in skipped if name not in allowed]
    total = sum(1 for _ in root.iter("testcase"))
    print(f"check_skips: {total} tests, {len(skipped)} skipped, {len(unexpected)} of them not expected to be")
    if not unexpected:
        return 0
    print("Skipped, though nothing should keep them from running here (see each test's output for why):")
    for name in unexpected:
        print(f"  {name}")
    if os.environ.get("SPINEGPU_ALLOW_SKIPS") == "1":
        print("SPINEGPU_ALLOW_SKIPS=1: not failing")
        return 0
    print("Install what they need (make deps, make oracle-deps, the example exports at ../shared/spine-examples), or")
    print("set SPINEGPU_ALLOW_SKIPS=1 on a machine known to lack it.")
    return 1


if __name__ == "__main__":
    sys.exit(main())
