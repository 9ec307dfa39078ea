#!/usr/bin/env python3
"""Import circles between the files of a Rust crate (issue 42, point 2: "no file that imports one
that imports it back, directly or around"). Reads every `crate::…` and `super::…` path in the
crate's code (comments, doc comments and `#[cfg(test)] mod tests` bodies left out), maps it to the
file of the longest module it names, and prints each strongly connected group of files (Tarjan),
largest first. Exits 1 when there is a circle.

  python3 tests/tools/import_circles.py src-tauri/core/src [src-tauri/shell-line/src …]

A reading of the text, not of the compiler: a path spelled in a macro's input counts, a glob
import (`use crate::x::*`) counts as an import of `x`, and `self::`/`pub use` chains are not
followed further."""
import os
import re
import sys

PATH = re.compile(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")


def code_of(text):
    """`text` without comments and without the body of a `#[cfg(test)] mod tests` at its end."""
    text = re.split(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*mod tests\s*\{", text)[0]
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def module_of(rel):
    parts = rel[:-3].split("/")
    return tuple(parts[:-1]) if parts[-1] in ("mod", "lib", "main") else tuple(parts)


def graph(src):
    files = {}
    for root, _, names in os.walk(src):
        for name in names:
            if name.endswith(".rs"):
                rel = os.path.relpath(os.path.join(root, name), src)
                with open(os.path.join(src, rel), encoding="utf-8") as f:
                    files[rel] = code_of(f.read())
    modules = {module_of(rel): rel for rel in files}

    def file_of(parts):
        for end in range(len(parts), 0, -1):
            if tuple(parts[:end]) in modules:
                return modules[tuple(parts[:end])]
        return None

    edges = {rel: set() for rel in files}
    for rel, code in files.items():
        here = module_of(rel)
        for root, rest in PATH.findall(code):
            names = rest.split("::")[1:]
            if root == "crate":
                target = file_of(names)
            else:
                # `super` of a module is its parent, however many leading supers.
                base = list(here)
                while names and names[0] == "super":
                    names = names[1:]
                    base = base[:-1]
                target = file_of(base[:-1] + names) if base else file_of(names)
            if target and target != rel:
                edges[rel].add(target)
    return edges


def circles(edges):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found, key=len, reverse=True)


def main(sources):
    total = 0
    for src in sources:
        edges = graph(src)
        groups = circles(edges)
        total += len(groups)
        print(f"{src}: {len(edges)} files, {len(groups)} circles")
        for group in groups:
            print(f"  {len(group)} files: {' '.join(group)}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["src-tauri/core/src"]))
