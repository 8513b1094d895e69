#!/usr/bin/env python3
"""Including retarget computes no large table: no single constant evaluation in a unit that
includes the umbrella header takes more than LIMIT operations (g++'s -fconstexpr-ops-limit),
header-only or with retarget::compiled. Tables over the schema table (the opset registry's
candidate steps, a domain's op names) are computed where a plan or a conversion is
instantiated, not in every unit that includes them.

The control case instantiates the opset registry's candidate steps in the same unit and must
exceed LIMIT: it shows the limit is below what such a table costs, so the check can fail.

    python3 tests/layers/constant_evaluation.py COMPILER LIMIT [FLAG...]
"""
import subprocess
import sys
import tempfile

UMBRELLA = "#include <retarget/retarget.hpp>\n"
TABLE = UMBRELLA + "static_assert(retarget::convert::detail::candidate_steps<>.size() > 0);\n"
EXCEEDED = "evaluation operation count exceeds limit"


def compile_unit(compiler, flags, limit, text):
    with tempfile.NamedTemporaryFile("w", suffix=".cpp") as f:
        f.write(text)
        f.flush()
        out = subprocess.run([compiler, *flags, f"-fconstexpr-ops-limit={limit}", "-fsyntax-only",
                              f.name], capture_output=True, text=True)
    return out.returncode, out.stderr


def main():
    compiler, limit, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = 0
    for mode, extra in (("header-only", []), ("with retarget::compiled",
                                              ["-DRETARGET_SEPARATE_COMPILATION"])):
        rc, err = compile_unit(compiler, flags + extra, limit, UMBRELLA)
        if rc != 0:
            first = next((l for l in err.splitlines() if ": error:" in l), err.strip()[:300])
            print(f"the umbrella header, {mode}: a constant evaluation exceeds {limit} "
                  f"operations (or the unit does not compile): {first}")
            bad += 1
    rc, err = compile_unit(compiler, flags, limit, TABLE)
    if rc == 0 or EXCEEDED not in err:
        print(f"control: the opset registry's candidate steps were computed within {limit} "
              "operations (or failed otherwise); the limit no longer tells a table from the rest"
              + (f": {err.strip()[:300]}" if rc else ""))
        bad += 1
    print(f"constant_evaluation: limit {limit}, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
