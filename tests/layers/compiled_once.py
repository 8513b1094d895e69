#!/usr/bin/env python3
"""A unit linked with retarget::compiled compiles none of the library's functions again: each
function named is undefined in the unit's object (the library gives it), neither defined there
nor inlined away.

    python3 tests/layers/compiled_once.py NM OBJECT [--none-defined REGEX]... FUNCTION...

FUNCTION is a demangled name up to its opening parenthesis, e.g. retarget::ir::model::check(.
With --none-defined, no function the object defines may have a demangled name that REGEX
matches from its start (the unit calls more of a layer than it names).
"""
import re
import subprocess
import sys


def symbols(nm, obj, which):
    out = subprocess.run([nm, "-C", which, obj], capture_output=True, text=True, check=True)
    names = [line.split(maxsplit=1)[-1].split(" ", 1)[-1] if which == "--defined-only"
             else line.split(maxsplit=1)[-1] for line in out.stdout.splitlines() if line.strip()]
    # A function returning std::string is tagged: retarget::ir::to_dot[abi:cxx11](...).
    return [n.replace("[abi:cxx11]", "") for n in names]


def main():
    nm, obj, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    patterns, functions = [], []
    while rest:
        if rest[0] == "--none-defined":
            patterns.append(re.compile(rest[1]))
            rest = rest[2:]
        else:
            functions.append(rest.pop(0))
    undefined = symbols(nm, obj, "--undefined-only")
    defined = symbols(nm, obj, "--defined-only")
    bad = 0
    # A lambda of the function's default argument is made where the call is, not the function
    # (GNU nm writes it ...::{default arg#1}::{lambda(...)#1}, llvm-nm ...::'lambda'(...)).
    defined = [d for d in defined if "{default arg" not in d and "'lambda'" not in d]
    for f in functions:
        if any(d.startswith(f) for d in defined):
            print(f"{f}: defined in {obj}, not left to retarget::compiled")
            bad += 1
        elif not any(u.startswith(f) for u in undefined):
            print(f"{f}: not called from {obj} (inlined, or the test no longer uses it)")
            bad += 1
    for p in patterns:
        for d in sorted(set(d for d in defined if p.match(d))):
            print(f"{d}: defined in {obj}, not left to retarget::compiled")
            bad += 1
    print(f"compiled_once: {len(functions)} functions, {len(patterns)} patterns, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
