"""Write `dialects/pto/ptoas_op_table.py` from a PTOAS checkout's op definitions.

    PYTHONPATH=. .venv/bin/python tools/ptoas_op_table.py PTOAS_CHECKOUT \\
        > dialects/pto/ptoas_op_table.py

Reads `include/PTO/IR/{PTO,VMI,VPTO,VPTOUb}Ops.td` with a small TableGen reader
(classes with template arguments, `def`s deriving from them, `let`s overriding the
class's, `#` string concatenation in mnemonics) and prints one row per op that
our dialect does not define by hand and whose syntax is a declarative assembly
format or MLIR's generic form: its name, operands and results with their type
constraints, attributes (optional ones marked), regions and format.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

TD_FILES = ("PTOOps.td", "VMIOps.td", "VPTOOps.td", "VPTOUbOps.td")
_CLOSERS = {"<": ">", "(": ")", "[": "]", "{": "}"}

# PTOAS's type constraints -> the kinds `dialects/pto/declared_ops.py` checks.
KINDS = {
    "I64": "i64",
    "I32": "i32",
    "I16": "i16",
    "I8": "i8",
    "I1": "i1",
    "Index": "index",
    "F32": "f32",
    "F16": "f16",
    "VMI_VRegTypeConstraint": "vmi.vreg",
    "PTO_VectorType": "vreg",
    "PTO_MaskTypeConstraint": "mask",
    "PTO_B8MaskTypeConstraint": "mask.b8",
    "PTO_B16MaskTypeConstraint": "mask.b16",
    "PTO_B32MaskTypeConstraint": "mask.b32",
    "VMI_MaskTypeConstraint": "vmi.mask",
    "PTO_AlignTypeConstraint": "align",
    "PTO_BufferType": "ptr",
    "PTO_ScalingPtrType": "ptr",
    "PtrType": "ptr",
    "PTO_BufferLikeType": "ptr|memref",
    "PtrOrMemRef": "ptr|memref",
    "TileBufType": "tile_buf",
    "TensorViewType": "tensor_view",
    "AsyncSessionType": "async_session",
    "AsyncEventType": "async_event",
    "PrefetchAsyncContextType": "prefetch_async_context",
    "LocalArrayType": "local_array",
    "StructType": "struct",
    "MultiTileBufType": "multi_tile_buf",
    "PipeType": "pipe",
    "AnySignlessInteger": "int",
    "AnyInteger": "int",
}


@dataclass
class Record:
    params: list[str]
    parent: str | None
    parent_args: list[str]
    lets: dict[str, str] = field(default_factory=dict[str, str])


def strip_comments(text: str) -> str:
    lines = []
    for line in text.splitlines():
        quoted = False
        for i, char in enumerate(line):
            if char == '"':
                quoted = not quoted
            if not quoted and line.startswith("//", i):
                line = line[:i]
                break
        lines.append(line)
    return "\n".join(lines)


def _skip_atom(text: str, i: int) -> int | None:
    """The end of a code block or string starting at i, else None."""
    if text.startswith("[{", i):
        return text.index("}]", i + 2) + 2
    if text[i] == '"':
        return text.index('"', i + 1) + 1
    return None


def skip_balanced(text: str, i: int) -> int:
    """The index after the bracket that closes the one at i."""
    end = _skip_atom(text, i) if text.startswith("[{", i) else None
    if end is not None:
        return end
    stack = [_CLOSERS[text[i]]]
    i += 1
    while stack:
        end = _skip_atom(text, i)
        if end is not None:
            i = end
            continue
        if text[i] in _CLOSERS:
            stack.append(_CLOSERS[text[i]])
        elif text[i] == stack[-1]:
            stack.pop()
        i += 1
    return i


def split_top(text: str, separator: str = ",") -> list[str]:
    """Split at separators outside brackets, strings and code blocks."""
    parts, depth, current, i = [], 0, "", 0
    while i < len(text):
        end = _skip_atom(text, i)
        if end is not None:
            current += text[i:end]
            i = end
            continue
        char = text[i]
        depth += (char in "<([{") - (char in ">)]}")
        if char == separator and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
        i += 1
    return [*parts, current.strip()] if current.strip() else parts


def parse_lets(body: str) -> dict[str, str]:
    lets = {}
    for match in re.finditer(r"\blet\s+(\w+)\s*=", body):
        i, depth = match.end(), 0
        while i < len(body):
            end = _skip_atom(body, i)
            if end is not None:
                i = end
                continue
            depth += (body[i] in "<([{") - (body[i] in ">)]}")
            if body[i] == ";" and depth <= 0:
                break
            i += 1
        lets[match.group(1)] = body[match.end() : i].strip()
    return lets


def _skip_space(text: str, i: int) -> int:
    while text[i].isspace():
        i += 1
    return i


def read_records(text: str, classes: dict[str, Record], defs: dict[str, Record]) -> None:
    text = strip_comments(text)
    for match in re.finditer(r"^(class|def)\s+(\w+)", text, re.M):
        kind, i = match.group(1), _skip_space(text, match.end())
        params: list[str] = []
        if kind == "class" and text[i] == "<":
            end = skip_balanced(text, i)
            params, i = split_top(text[i + 1 : end - 1]), _skip_space(text, end)
        parent, parent_args = None, []
        if text[i] == ":":
            i = _skip_space(text, i + 1)
            name = re.match(r"\w+", text[i:])
            assert name is not None
            parent, i = name.group(0), i + name.end()
            if text[i] == "<":
                end = skip_balanced(text, i)
                parent_args, i = split_top(text[i + 1 : end - 1]), end
            i = _skip_space(text, i)
            while text[i] == ",":  # further parents add traits only
                i = _skip_space(text, i + 1)
                more = re.match(r"\w+", text[i:])
                assert more is not None
                i += more.end()
                i = _skip_space(text, skip_balanced(text, i) if text[i] == "<" else i)
        body = text[i + 1 : skip_balanced(text, i) - 1] if text[i] == "{" else ""
        record = Record(params, parent, parent_args, parse_lets(body))
        (classes if kind == "class" else defs)[match.group(2)] = record


def _substitute(text: str, env: dict[str, str]) -> str:
    for name, value in env.items():
        text = re.sub(rf"(?<![\w$]){re.escape(name)}(?!\w)", lambda _m, v=value: v, text)
    return text


def _string(expression: str) -> str | None:
    parts = [part.strip() for part in expression.split("#")]
    if all(re.fullmatch(r'"[^"]*"', part) for part in parts):
        return "".join(part[1:-1] for part in parts)
    return None


def resolve(record: Record, classes: dict[str, Record]) -> tuple[str | None, dict[str, str]]:
    """An op's mnemonic and its lets, the def's own over its classes'."""
    lets, parent, args = dict(record.lets), record.parent, record.parent_args
    while parent and parent != "Op":
        base = classes.get(parent)
        if base is None:
            return None, lets
        env = {}
        for k, param in enumerate(base.params):
            name = param.split("=")[0].split()[-1]
            default = param.split("=", 1)[1].strip() if "=" in param else ""
            env[name] = args[k] if k < len(args) else default
        for key, value in base.lets.items():
            lets.setdefault(key, value)
        lets = {key: _substitute(value, env) for key, value in lets.items()}
        parent, args = base.parent, [_substitute(a, env) for a in base.parent_args]
    if parent == "Op" and len(args) >= 2:
        return _string(args[1]), lets
    return None, lets


def _kind(constraint: str) -> str:
    prefix = ""
    wrapped = re.fullmatch(r"(Variadic|Optional)<(.*)>", constraint, re.S)
    if wrapped:
        prefix = "*" if wrapped.group(1) == "Variadic" else "?"
        constraint = wrapped.group(2).strip()
    return prefix + KINDS.get(constraint, "any")


def _is_attribute(constraint: str) -> bool:
    return bool(re.search(r"Attr\b|Attr<|Property", constraint)) and not constraint.startswith(
        ("Variadic", "Optional<")
    )


def _entries(value: str) -> list[tuple[str, str]]:
    match = re.match(r"\((ins|outs|region)\s*(.*)\)$", value.strip(), re.S)
    if not match:
        return []
    entries = [entry.rsplit(":", 1) for entry in split_top(match.group(2))]
    return [(c.strip(), n.strip().lstrip("$")) for c, n in entries]


def row(name: str, lets: dict[str, str]) -> tuple[str, ...]:
    operands, attributes = [], []
    for constraint, value in _entries(lets.get("arguments", "")):
        if _is_attribute(constraint):
            optional = constraint.startswith(("OptionalAttr", "DefaultValued", "UnitAttr"))
            flags = ("unit" if "UnitAttr" in constraint else "") + ("?" if optional else "")
            attributes.append(f"{value}:{flags}")
        else:
            operands.append(f"{value}:{_kind(constraint)}")
    results = [f"{n}:{_kind(c)}" for c, n in _entries(lets.get("results", ""))]
    regions = [n for _, n in _entries(lets.get("regions", ""))]
    fmt = lets.get("assemblyFormat", "").strip()
    fmt = fmt[2:-2] if fmt.startswith("[{") else fmt.strip('"')
    return (
        name,
        " ".join(operands),
        " ".join(results),
        " ".join(attributes),
        " ".join(regions),
        " ".join(fmt.split()),
    )


def table_rows(include: Path, hand_written: set[str]) -> list[tuple[str, ...]]:
    classes: dict[str, Record] = {}
    defs: dict[str, Record] = {}
    for name in TD_FILES:
        read_records((include / name).read_text(encoding="utf-8"), classes, defs)
    rows = []
    for record in defs.values():
        name, lets = resolve(record, classes)
        if name is None or name in hand_written:
            continue
        fmt = lets.get("assemblyFormat", "")
        custom = lets.get("hasCustomAssemblyFormat", "").strip() == "1"
        if "custom<" in fmt or (custom and not fmt):
            continue  # a parser of PTOAS's own, written by hand in our dialect
        rows.append(row(name, lets))
    return sorted(rows)


_CASE = r'EnumAttrCase<\s*"(\w+)"\s*,\s*-?\d+\s*(?:,\s*"([^"]*)")?'


def _enums(text: str) -> dict[str, tuple[str, ...]]:
    """Each enum's case spellings; a case is written in the list or as a def it names."""
    named = {
        name: spelled or case
        for name, case, spelled in re.findall(rf"def (\w+)\s*:\s*\w*{_CASE}", text)
    }
    enums = {}
    pattern = r'def (\w+)\s*:\s*\w*Enum\w*<\s*"\w+"\s*,\s*"[^"]*"\s*,\s*\[(.*?)\]\s*>'
    for match in re.finditer(pattern, text, re.S):
        cases = []
        for item in split_top(match.group(2)):
            inline = re.match(rf"\w*{_CASE}", item)
            if inline:
                cases.append(inline.group(2) or inline.group(1))
            elif item in named:
                cases.append(named[item])
        enums[match.group(1)] = tuple(cases)
    return enums


def _attr_text(include: Path) -> str:
    return "".join(
        strip_comments((include / name).read_text(encoding="utf-8"))
        for name in ("PTOAttrs.td", "VMIAttrs.td")
    )


def _pto_attrs(text: str) -> dict[str, dict[str, str]]:
    """`PTO_Attr<"Name", "mnemonic">` records: mnemonic -> their lets."""
    records: dict[str, dict[str, str]] = {}
    for match in re.finditer(r'def \w+\s*:\s*PTO_Attr<\s*"\w+"\s*,\s*"([\w.]+)"[^>]*>\s*', text):
        i = match.end()
        body = text[i + 1 : skip_balanced(text, i) - 1] if text[i] == "{" else ""
        records[match.group(1)] = parse_lets(body)
    return records


def _enum_parameters(lets: dict[str, str]) -> list[tuple[str, str]]:
    """(name, enum) of each parameter, if every parameter is an enum."""
    found = re.findall(r"EnumParameter<(\w+)>\s*:\s*\$(\w+)", lets.get("parameters", ""))
    total = len(_entries(lets.get("parameters", "").replace("(ins", "(ins", 1)))
    return [(name, enum) for enum, name in found] if found and len(found) == total else []


def enum_rows(include: Path, known: set[str]) -> list[tuple[str, tuple[str, ...]]]:
    """PTOAS's enum attributes (`#pto.NAME<value>`) that our dialect lacks, with the
    spelling of each case: its `EnumAttr`s and its `PTO_Attr`s of one enum parameter."""
    text = _attr_text(include)
    enums = _enums(text)
    attrs = re.findall(r'def \w+\s*:\s*EnumAttr<PTO_Dialect,\s*(\w+),\s*"([\w.]+)"', text)
    rows = [(mnemonic, enums[enum]) for enum, mnemonic in attrs if enum in enums]
    for mnemonic, lets in _pto_attrs(text).items():
        parameters = _enum_parameters(lets)
        plain = "params" in lets.get("assemblyFormat", "")
        if len(parameters) == 1 and plain and parameters[0][1] in enums:
            rows.append((mnemonic, enums[parameters[0][1]]))
    return sorted(row for row in rows if row[0] not in known)


def keyword_enum_rows(
    include: Path, known: set[str]
) -> list[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]]:
    """PTOAS's attributes of several enum parameters, each written `key = value`
    (`#pto.acc_push_epilogue<layout = nz2nd, quant = no_convert, relu = no_relu>`)."""
    text = _attr_text(include)
    enums = _enums(text)
    rows = []
    for mnemonic, lets in _pto_attrs(text).items():
        parameters = _enum_parameters(lets)
        written = lets.get("assemblyFormat", "")
        keyed = all(f"`{name}` `=` ${name}" in written for name, _ in parameters)
        if len(parameters) > 1 and keyed and mnemonic not in known:
            rows.append((mnemonic, tuple((name, enums[enum]) for name, enum in parameters)))
    return sorted(rows)


def known_attributes() -> set[str]:
    from xla_emit.dialects.pto import PTO
    from xla_emit.dialects.pto.declared_ops import DECLARED_ATTRIBUTES

    table = {attr.name for attr in DECLARED_ATTRIBUTES}
    return {a.name.removeprefix("pto.") for a in PTO.attributes if a.name not in table}


def hand_written_ops() -> set[str]:
    from xla_emit.dialects.pto import PTO
    from xla_emit.dialects.pto.declared_ops import DECLARED_OPS

    table = {op.name for op in DECLARED_OPS}
    return {op.name.removeprefix("pto.") for op in PTO.operations if op.name not in table}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: ptoas_op_table.py PTOAS_CHECKOUT", file=sys.stderr)
        return 1
    include = Path(args[0]) / "include/PTO/IR"
    if not include.is_dir():
        print(f"error: no include/PTO/IR under {args[0]}", file=sys.stderr)
        return 1
    print('"""PTOAS\'s declarative-format ops: written by tools/ptoas_op_table.py."""')
    print("# ruff: noqa: E501  (each format is one line, as PTOAS writes it)")
    print()
    print("# (name, operands, results, attributes, regions, assembly format)")
    print("PTOAS_DECLARED_OPS = (")
    for entry in table_rows(include, hand_written_ops()):
        print(f"    ({', '.join(json.dumps(part) for part in entry)}),")
    print(")")
    print()
    print("# (mnemonic, the spelling of each case)")
    print("PTOAS_ENUM_ATTRS = (")
    for mnemonic, cases in enum_rows(include, known_attributes()):
        print(f"    ({json.dumps(mnemonic)}, ({''.join(json.dumps(c) + ', ' for c in cases)})),")
    print(")")
    print()
    print("# (mnemonic, ((key, the spelling of each case), ...))")
    print("PTOAS_KEYWORD_ENUM_ATTRS = (")
    for mnemonic, keys in keyword_enum_rows(include, known_attributes()):
        tupled = json.dumps(keys).replace("[", "(").replace("]", ",)")
        print(f"    ({json.dumps(mnemonic)}, {tupled}),")
    print(")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
