#!/usr/bin/env python3
"""The layers stay one-way and every folder keeps its detail/ to itself.

Checks, over include/retarget, tools, examples, benchmarks, fuzz, zoo and tests:
  - a header of layer L includes only headers of L and of the layers L may use (LAYERS);
  - nothing outside folder F includes F's detail/ headers or names F's detail namespace
    (retarget::F::detail::..., F::detail::... from inside retarget, or retarget::detail:: for
    core's);
  - core/ names no engine;
  - tests/ include nothing from tools/;
  - above ir/ (and in the tool), nothing includes ONNX's or protobuf's headers or ir/proto.hpp.
Prints one line per violation (file:line: what) and exits 1 if there is any.

    python3 tests/layers/check.py [SOURCE_DIR]
"""
import pathlib
import re
import sys

# What each folder of include/retarget may include, besides itself.
LAYERS = {
    "core": set(),
    "options": {"core"},
    "ir": {"core"},
    "symbolics": {"core", "ir"},
    "trace": {"core", "ir"},
    "convert": {"core", "ir"},
    "ops": {"core", "ir", "symbolics", "trace"},
    "nn": {"core", "ir", "symbolics", "trace", "ops"},
    "backend": {"core", "options", "ir"},
    "backends": {"core", "options", "ir", "symbolics", "trace", "ops", "nn", "convert", "backend"},
    "config": {"core", "options", "ir", "trace", "backend"},
    # The command line as a library: over every layer, the shipped engines among them.
    "tool": {"core", "options", "ir", "symbolics", "trace", "ops", "nn", "convert", "backend",
             "backends", "config"},
}
# The namespace of each folder (core's is retarget itself).
NAMESPACE = {"core": "retarget", **{f: f"retarget::{f}" for f in LAYERS if f != "core"}}
ENGINES = re.compile(r"\b(onnxruntime|opencv_dnn|tensorrt\w*|TensorRT|OpenCV)\b")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
QUALIFIED_DETAIL = re.compile(r"\bretarget::((?:\w+::)*)detail::")
# A folder's detail namespace named from inside retarget without the retarget:: prefix
# (ir::detail::x written in convert/).
SHORT_DETAIL = re.compile(r"(?<![\w:])(" + "|".join(f for f in LAYERS if f != "core") + r")::detail::")


def folder_of(header: str):
    """'retarget/ir/graph.hpp' -> 'ir'; umbrella headers and others -> None."""
    parts = header.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "retarget" else None


PROTO = re.compile(r"\bonnx::\w+Proto\b")
# ONNX's and protobuf's headers, and ir's opt-in to them, which the library above ir/ and the
# tool leave alone (the opset planner's schema comparisons are ONNX's schema API by design).
PROTO_HEADERS = re.compile(r"^(onnx/|google/protobuf/|retarget/ir/proto\.hpp$)")
OPT_IN_ONNX = {"include/retarget/convert/opset_schema.hpp"}
PROTO_BASELINE = "tests/layers/proto_reads.txt"


def proto_reads(root, sources):
    """ir/ alone reads protobuf. Until every layer above it reads the model through ir's views,
    each file above ir/ may name onnx::*Proto types at most as often as the baseline records
    (tests/layers/proto_reads.txt, which only ever goes down); a new file may not name them."""
    baseline = {}
    for line in (root / PROTO_BASELINE).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            count, name = line.split()
            baseline[name] = int(count)
    out = []
    total = 0
    for path in sources:
        rel = path.relative_to(root).as_posix()
        if not rel.startswith(("include/retarget/", "tools/", "examples/")) or rel.startswith("include/retarget/ir/"):
            continue
        count = len(PROTO.findall(path.read_text(encoding="utf-8", errors="replace")))
        total += count
        if count > baseline.get(rel, 0):
            out.append(f"{rel}: names onnx::*Proto {count} times, {baseline.get(rel, 0)} allowed "
                       f"(read the model through ir/'s views; {PROTO_BASELINE})")
    print(f"layers: onnx::*Proto named {total} times above ir/ (the goal is 0)")
    return out


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems = []
    sources = []
    for top in ("include/retarget", "tools", "examples", "benchmarks", "fuzz", "zoo", "tests"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix in (".hpp", ".cpp", ".h") and "node_modules" not in path.parts:
                sources.append(path)
    for path in sources:
        rel = path.relative_to(root).as_posix()
        own = folder_of(rel[len("include/"):]) if rel.startswith("include/retarget/") else None
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            where = f"{rel}:{number}"
            for included in INCLUDE.findall(line):
                target = folder_of(included)
                if target and "/detail/" in included and target != own:
                    problems.append(f"{where}: includes {included}, another folder's detail")
                if own and target and target != own and target not in LAYERS.get(own, set()):
                    problems.append(f"{where}: {own}/ includes {included}, a layer it may not use")
                if (own not in (None, "ir") or rel.startswith("tools/retarget/")) and \
                        rel not in OPT_IN_ONNX and PROTO_HEADERS.match(included):
                    problems.append(f"{where}: includes {included}: above ir/, read models "
                                    "through ir/'s views, not ONNX's messages")
                if rel.startswith("tests/") and (included.startswith("tools/") or "/tools/" in included):
                    problems.append(f"{where}: a test includes {included} from tools/")
            for qualifier in QUALIFIED_DETAIL.findall(line):
                owner = qualifier.rstrip(":") or "core"
                owner = owner.split("::")[0]
                if owner != own:
                    problems.append(f"{where}: uses retarget::{qualifier}detail::, {owner}'s internals")
            for owner in SHORT_DETAIL.findall(line):
                if owner != own:
                    problems.append(f"{where}: uses {owner}::detail::, {owner}'s internals")
            if own == "core" and ENGINES.search(line):
                problems.append(f"{where}: core/ names an engine ({ENGINES.search(line).group(0)})")
    problems += proto_reads(root, sources)
    for p in problems:
        print(p)
    print(f"layers: {len(sources)} files checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
