"""Compare two npz files of outputs (`out0, out1, ...`) and say how they differ.

    python -m xla_emit.tools.compare_npz ACTUAL.npz EXPECTED.npz [--max-ulp N]

Without `--max-ulp` every output must be bit-identical. Exit status 1 when an
output differs (or is missing), so scripts can rely on it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from xla_emit.diagnostics import UserError
from xla_emit.hlo.npz import load_arrays
from xla_emit.runtime.compare import compare


def main(argv: Sequence[str] | None = None) -> int:
    # `python -OO` strips docstrings, so __doc__ may be None.
    summary = (__doc__ or "").partition("\n")[0]
    parser = argparse.ArgumentParser(prog="compare_npz", description=summary)
    parser.add_argument("actual")
    parser.add_argument("expected")
    parser.add_argument("--max-ulp", type=int, default=None, help="accept this many ulp")
    args = parser.parse_args(argv)
    try:
        actual = load_arrays(args.actual, "outputs")
        expected = load_arrays(args.expected, "outputs")
    except UserError as error:
        print(error.format(), file=sys.stderr)
        return 1
    ok = True
    for name in sorted(expected):
        if name not in actual:
            print(f"{name}: missing from {args.actual}")
            ok = False
            continue
        result = compare(expected[name], actual[name], args.max_ulp or 0)
        accepted = result.identical or (args.max_ulp is not None and result.matches)
        ok &= accepted
        print(f"{name}: {expected[name].dtype}{list(expected[name].shape)} {result.describe()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
