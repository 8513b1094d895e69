#!/usr/bin/env python3
"""The public headers of ir/ stay light: with retarget::compiled (RETARGET_SEPARATE_COMPILATION)
none of them includes ONNX's or protobuf's headers; ir/proto.hpp is the one that opts in.

Asks the compiler for each header's dependencies (-M), so a header that reaches ONNX through
another is caught too. Prints each offending header with the first ONNX or protobuf file it
pulls in and the include chain that reaches it, and exits 1 if there is any.

    python3 tests/layers/light_headers.py SOURCE_DIR COMPILER [FLAG...]
"""
import pathlib
import subprocess
import sys

HEAVY = ("/onnx/", "/google/protobuf/")
OPT_IN = {"proto.hpp"}  # the header for code that reads raw protos


def heavy_dependency(compiler, flags, header):
    out = subprocess.run([compiler, *flags, "-DRETARGET_SEPARATE_COMPILATION", "-x", "c++", "-M",
                          str(header)], capture_output=True, text=True)
    if out.returncode != 0:
        return f"does not compile alone: {out.stderr.strip().splitlines()[0] if out.stderr else ''}"
    deps = out.stdout.replace("\\\n", " ").split()
    for d in deps:
        if any(h in d for h in HEAVY):
            return d
    return None


def include_chain(compiler, flags, header):
    """The headers that lead from `header` to the first heavy one, from the compiler's -H."""
    out = subprocess.run([compiler, *flags, "-DRETARGET_SEPARATE_COMPILATION", "-x", "c++", "-H",
                          "-fsyntax-only", str(header)], capture_output=True, text=True).stderr
    stack = []
    for line in out.splitlines():
        dots = len(line) - len(line.lstrip("."))
        if dots == 0 or not line[dots:].startswith(" "):
            continue
        path = line[dots + 1:]
        stack = stack[:dots - 1] + [path]
        if any(h in path for h in HEAVY):
            return " -> ".join(pathlib.Path(p).name if "/retarget/" not in p
                               else p.split("/include/")[-1] for p in stack)
    return ""


def main():
    source, compiler, flags = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    flags = [*flags, f"-I{source / 'include'}"]
    bad = 0
    for header in sorted((source / "include" / "retarget" / "ir").glob("*.hpp")):
        if header.name in OPT_IN:
            continue
        found = heavy_dependency(compiler, flags, header)
        if found:
            bad += 1
            print(f"include/retarget/ir/{header.name}: includes {found}")
            chain = include_chain(compiler, flags, header)
            print(f"    through {header.name} -> {chain}" if chain else "")
    if bad:
        print(f"{bad} public header(s) of ir/ include ONNX or protobuf with retarget::compiled; "
              "declare the messages (ir/detail/proto_fwd.hpp) and define what reads them in "
              "ir/detail/*_impl.hpp")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
